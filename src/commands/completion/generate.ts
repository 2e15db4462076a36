// Completion scripts generated from the commander tree, so a new command or flag is completed
// as soon as it exists. Each shell gets the tree as static tables (command paths, their
// subcommands, flags, the values of choice flags and positionals) plus one live source: profile
// names, from `pgw __complete profiles` (values.ts).
//
// What every shell does alike (cobra's behaviour):
// - a word that does not start with `-` completes subcommands, else the positional's values;
//   flags only once `-` is typed (nouns before flags, and never a lone `-` inserted);
// - after a flag that takes a value: its values (choices, profiles), paths for file values,
//   nothing for free text.
import type { Command, Option } from 'commander';
import { FILE_VALUE, FLAG_VALUES, POSITIONAL_VALUES, type Values } from './values.js';

interface Flag {
  flag: string;
  description: string;
  takesValue: boolean;
  values?: Values;
}

interface Node {
  path: string; // "sandbox link" ("" for the root)
  description: string;
  subcommands: { name: string; description: string }[];
  flags: Flag[];
  /** Values of the positional arguments by position; the last repeats when variadic. */
  positionals: (Values | undefined)[];
}

function valuesOf(path: string, o: Option): Values | undefined {
  if (o.argChoices) return { words: o.argChoices };
  const byPath = FLAG_VALUES[`${path} ${o.long}`] ?? FLAG_VALUES[o.long ?? ''];
  if (byPath) return byPath;
  return FILE_VALUE.test(o.flags) ? { files: true } : undefined;
}

function flagsOf(path: string, options: readonly Option[]): Flag[] {
  const flags: Flag[] = [];
  for (const o of options) {
    if (o.hidden) continue;
    const takesValue = o.required || o.optional;
    const values = takesValue ? valuesOf(path, o) : undefined;
    if (o.long) flags.push({ flag: o.long, description: o.description, takesValue, values });
    if (o.short) flags.push({ flag: o.short, description: o.description, takesValue, values });
  }
  return flags;
}

const HELP_FLAGS: Flag[] = [
  { flag: '--help', description: 'display help', takesValue: false },
  { flag: '-h', description: 'display help', takesValue: false },
];

const isHidden = (c: Command): boolean => (c as unknown as { _hidden?: boolean })._hidden === true;

/** Every visible command of the tree, depth first, with its own flags (global flags come from the root). */
export function commandTree(program: Command): Node[] {
  const nodes: Node[] = [];
  const visit = (cmd: Command, path: string): void => {
    const subs = cmd.commands.filter((c) => !isHidden(c));
    const declared = POSITIONAL_VALUES[path];
    nodes.push({
      path,
      description: cmd.description(),
      subcommands: subs.map((c) => ({ name: c.name(), description: c.description() })),
      flags: [...flagsOf(path, cmd.options), ...HELP_FLAGS],
      positionals: cmd.registeredArguments.map((a, i) => (a.argChoices ? { words: a.argChoices } : declared?.[i])),
    });
    for (const sub of subs) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  // `pgw help <TAB>` offers the nouns.
  const help = nodes.find((n) => n.path === 'help');
  if (help) help.positionals = [{ words: nodes[0]!.subcommands.map((s) => s.name).filter((name) => name !== 'help') }];
  return nodes;
}

const shellWord = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, '');
const singleQuoted = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

function valueFlags(nodes: Node[]): string[] {
  return [...new Set(nodes.flatMap((n) => n.flags.filter((f) => f.takesValue).map((f) => f.flag)))].sort();
}

/** Each value flag once per path where its values differ from the same flag elsewhere. */
function valueCases(nodes: Node[]): { path: string; flag: string; values: Values | undefined }[] {
  const root = nodes[0]!;
  const out: { path: string; flag: string; values: Values | undefined }[] = [];
  for (const f of root.flags.filter((f) => f.takesValue)) out.push({ path: '*', flag: f.flag, values: f.values });
  for (const n of nodes.slice(1)) for (const f of n.flags.filter((f) => f.takesValue)) out.push({ path: n.path, flag: f.flag, values: f.values });
  return out;
}

/**
 * The `case "$npos"` arm of one command's positional arguments, the same in bash and zsh but for
 * how a value list is written; undefined when no positional has values.
 */
function positionalCase(n: Node, valuesFor: (v: Values | undefined) => string): string | undefined {
  if (n.positionals.every((p) => p === undefined)) return undefined;
  const last = n.positionals.length - 1;
  const arms = n.positionals
    .map((p, i) => (p ? `        ${i === last ? '*' : i}) ${valuesFor(p)} ;;` : undefined))
    .filter(Boolean)
    .join('\n');
  return `      ${singleQuoted(n.path)})\n        case "$npos" in\n${arms}\n        esac ;;`;
}

function bashValues(v: Values | undefined): string {
  if (!v) return 'compopt +o default 2>/dev/null; return 0';
  if ('files' in v) return 'return 0';
  if ('dynamic' in v) return 'words="$(_pgw_profiles)"';
  return `words=${singleQuoted(v.words.join(' '))}`;
}

function bash(nodes: Node[]): string {
  const root = nodes[0]!;
  const flagCases = nodes
    .map((n) => {
      const words = [...n.flags.map((f) => f.flag), ...(n.path ? root.flags.map((f) => f.flag) : [])];
      return `      ${singleQuoted(n.path)}) words=${singleQuoted([...new Set(words)].join(' '))} ;;`;
    })
    .join('\n');
  const wordCases = nodes
    .map((n) => {
      if (n.subcommands.length > 0) return `      ${singleQuoted(n.path)}) words=${singleQuoted(n.subcommands.map((s) => s.name).join(' '))} ;;`;
      return positionalCase(n, bashValues);
    })
    .filter(Boolean)
    .join('\n');
  const values = valueCases(nodes)
    .map((c) => `    ${c.path === '*' ? '*' : singleQuoted(c.path)}${singleQuoted(`|${c.flag}`)}) ${bashValues(c.values)} ;;`)
    .join('\n');
  return `# bash completion for pgw (generated by \`pgw completion bash\`; do not edit)
# Profile names are live: they come from \`pgw __complete profiles\` on each TAB, kept to the
# profile-name rule (a hand-edited or shared config file must not put shell syntax here).
_pgw_profiles() {
  command pgw __complete profiles 2>/dev/null | command grep -E '^[A-Za-z0-9][A-Za-z0-9_-]*$'
}

_pgw() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" words="" candidate="" i w skip=0 npos=0
  local takes_value=" ${valueFlags(nodes).join(' ')} "
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$w" in
      -*=*) continue ;;
      -*) [[ "$takes_value" == *" $w "* ]] && skip=1; continue ;;
    esac
    if [[ -z "$path" ]]; then candidate="$w"; else candidate="$path $w"; fi
    case "$candidate" in
${nodes
  .filter((n) => n.path)
  .map((n) => `      ${singleQuoted(n.path)}) path="$candidate"; npos=0 ;;`)
  .join('\n')}
      *) ((npos++)) ;;
    esac
  done
  if ((skip)); then
    # The word being completed is the value of the flag before it.
    case "$path|\${COMP_WORDS[COMP_CWORD-1]}" in
${values}
    esac
  elif [[ "$cur" == -* ]]; then
    case "$path" in
${flagCases}
    esac
  else
    case "$path" in
${wordCases}
    esac
    # A positional with nothing to offer completes nothing (not file names, not flags).
    [[ -z "$words" ]] && { compopt +o default 2>/dev/null; return 0; }
  fi
  # The candidates are data: split without expansion (compgen -W would run a \$(...) inside a
  # profile name), matched literally, and each quoted for the command line.
  local -a offered=()
  local c q
  read -r -d '' -a offered <<< "$words" || true
  COMPREPLY=()
  for c in "\${offered[@]}"; do
    [[ "$c" == "$cur"* ]] || continue
    printf -v q '%q' "$c"
    COMPREPLY+=("$q")
  done
}
complete -o default -F _pgw pgw
`;
}

function zshValues(v: Values | undefined): string {
  if (!v) return 'return 1';
  if ('files' in v) return '_files; return';
  // Taken as data (no evaluation); compadd and _describe quote what they insert.
  if ('dynamic' in v) return 'items=(${(f)"$(_pgw_profiles)"})';
  return `items=(${v.words.map(singleQuoted).join(' ')})`;
}

function zsh(nodes: Node[]): string {
  const root = nodes[0]!;
  const zshEscape = (s: string): string => s.replace(/[:\\]/g, '\\$&').replace(/'/g, "'\\''");
  const flagCases = nodes
    .map((n) => {
      const entries = [...n.flags, ...(n.path ? root.flags : [])].map((f) => `${f.flag}:${zshEscape(f.description)}`);
      const unique = [...new Map(entries.map((e) => [e.split(':')[0], e])).values()];
      return `      ${singleQuoted(n.path)}) items=(${unique.map((e) => `'${e}'`).join(' ')}) ;;`;
    })
    .join('\n');
  const wordCases = nodes
    .map((n) => {
      if (n.subcommands.length > 0) {
        return `      ${singleQuoted(n.path)}) items=(${n.subcommands.map((s) => `'${s.name}:${zshEscape(s.description)}'`).join(' ')}) ;;`;
      }
      return positionalCase(n, zshValues);
    })
    .filter(Boolean)
    .join('\n');
  const values = valueCases(nodes)
    .map((c) => `    ${c.path === '*' ? '*' : singleQuoted(c.path)}${singleQuoted(`|${c.flag}`)}) ${zshValues(c.values)} ;;`)
    .join('\n');
  return `#compdef pgw
# zsh completion for pgw (generated by \`pgw completion zsh\`; do not edit)
# Profile names are live: they come from \`pgw __complete profiles\` on each TAB, kept to the
# profile-name rule (a hand-edited or shared config file must not put shell syntax here).
_pgw_profiles() {
  command pgw __complete profiles 2>/dev/null | command grep -E '^[A-Za-z0-9][A-Za-z0-9_-]*$'
}

_pgw() {
  local path_="" candidate w i skip=0 npos=0
  local -a items
  local takes_value=" ${valueFlags(nodes).join(' ')} "
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$w" in
      -*=*) continue ;;
      -*) [[ "$takes_value" == *" $w "* ]] && skip=1; continue ;;
    esac
    if [[ -z "$path_" ]]; then candidate="$w"; else candidate="$path_ $w"; fi
    case "$candidate" in
${nodes
  .filter((n) => n.path)
  .map((n) => `      ${singleQuoted(n.path)}) path_="$candidate"; npos=0 ;;`)
  .join('\n')}
      *) ((npos++)) ;;
    esac
  done
  if ((skip)); then
    case "$path_|\${words[CURRENT-1]}" in
${values}
    esac
    compadd -a items
    return
  elif [[ "\${words[CURRENT]}" == -* ]]; then
    case "$path_" in
${flagCases}
    esac
  else
    case "$path_" in
${wordCases}
    esac
  fi
  (( \${#items} )) && _describe -t commands 'pgw' items
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then _pgw "$@"; else compdef _pgw pgw; fi
`;
}

/**
 * fish expands an `-a` list as a command line: the profile names are kept to the profile-name rule
 * before fish sees them, so whatever an old pgw or an edited file prints is never more than a word.
 */
const FISH_PROFILES = "'(pgw __complete profiles 2>/dev/null | string match -r -- \"^[A-Za-z0-9][A-Za-z0-9_-]*\\$\")'";

function fishValues(v: Values | undefined): string {
  if (!v) return '-x';
  if ('files' in v) return '-r -F';
  if ('dynamic' in v) return `-x -a ${FISH_PROFILES}`;
  return `-x -a ${singleQuoted(v.words.join(' '))}`;
}

function fish(nodes: Node[]): string {
  const paths = nodes.filter((n) => n.path).map((n) => n.path);
  const lines = [
    '# fish completion for pgw (generated by `pgw completion fish`; do not edit)',
    '# Profile names are live: they come from `pgw __complete profiles` on each TAB.',
    'function __pgw_path',
    '    set -l tokens (commandline -opc)',
    '    set -e tokens[1]',
    '    set -l path ""',
    `    set -l takes_value ${valueFlags(nodes).join(' ')}`,
    '    set -l skip 0',
    '    for w in $tokens',
    '        if test $skip -eq 1; set skip 0; continue; end',
    "        if string match -q -- '-*=*' $w; continue; end",
    "        if string match -q -- '-*' $w",
    '            contains -- $w $takes_value; and set skip 1',
    '            continue',
    '        end',
    '        set -l candidate (string trim -- "$path $w")',
    `        if contains -- "$candidate" ${paths.map(singleQuoted).join(' ')}`,
    '            set path $candidate',
    '        end',
    '    end',
    '    echo $path',
    'end',
    'complete -c pgw -f',
  ];
  const root = nodes[0]!;
  const spec = (flag: string) => (flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`);
  for (const n of nodes) {
    const cond = `-n ${singleQuoted(`test (__pgw_path) = ${JSON.stringify(n.path)}`)}`;
    for (const s of n.subcommands) lines.push(`complete -c pgw ${cond} -a ${shellWord(s.name)} -d ${singleQuoted(s.description)}`);
    // fish cannot tell positions apart cheaply; the first positional's values are offered.
    const first = n.subcommands.length === 0 ? n.positionals.find((p) => p !== undefined) : undefined;
    if (first && 'words' in first) lines.push(`complete -c pgw ${cond} -a ${singleQuoted(first.words.join(' '))}`);
    if (first && 'dynamic' in first) lines.push(`complete -c pgw ${cond} -a ${FISH_PROFILES}`);
    if (!n.path) continue; // the root's flags are global: completed everywhere below
    for (const f of n.flags) {
      lines.push(`complete -c pgw ${cond} ${spec(f.flag)}${f.takesValue ? ` ${fishValues(f.values)}` : ''} -d ${singleQuoted(f.description)}`);
    }
  }
  for (const f of root.flags) {
    lines.push(`complete -c pgw ${spec(f.flag)}${f.takesValue ? ` ${fishValues(f.values)}` : ''} -d ${singleQuoted(f.description)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: 'bash' | 'zsh' | 'fish'): string {
  const nodes = commandTree(program);
  if (shell === 'bash') return bash(nodes);
  if (shell === 'zsh') return zsh(nodes);
  return fish(nodes);
}
