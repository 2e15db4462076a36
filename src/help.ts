// How help reads, for every command (GitHub CLI's help is the model):
// - the root starts with a three-line quick start and lists the global options in full;
// - a verb shows its usage, description, arguments, its own options, then its examples, then the
//   global options once, compact, last (one line pointing at `pgw --help` for their meaning);
// - `pgw help <noun> <verb>` is the same as `pgw <noun> <verb> --help`;
// - no line is wider than the terminal: long lines of examples continue with ` \` (still a valid
//   shell command when pasted), prose folds at a space.
import type { EventEmitter } from 'node:events';
import { Help, type Command, type Option } from 'commander';
import { UsageError } from './errors.js';
import { EXAMPLES } from './examples.js';

const QUICK_START = `Quick start (nothing to set up: the profile "local" is an offline sandbox)
  pgw order create          create an order; a terminal asks for the rest
  pgw sandbox pay OD...     pay it as the buyer would
  pgw payment get PR...     the payment: status, fee, GST, net, settlement
`;

/** The path below `pgw` ("sandbox link create"). */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The text a command's own `.addHelpText('after', ...)` blocks print (commander keeps them as listeners). */
function ownAfterText(cmd: Command): string {
  let text = '';
  // commander's Command is an EventEmitter at run time; its types do not say so.
  for (const listener of (cmd as unknown as EventEmitter).listeners('afterHelp')) {
    (listener as (context: unknown) => void)({ error: false, command: cmd, write: (s: string) => (text += s) });
  }
  return text;
}

/** "-p <name>, -o <format>, --json, ..." from the root's options, wrapped between options. */
function globalSummary(program: Command, width: number): string {
  const spell = (o: Option) => {
    const name = o.short ?? o.long!;
    const value = o.flags.match(/[<[][^>\]]+[>\]]/)?.[0];
    return value ? `${name} ${value}` : name;
  };
  const visible = program.options.filter((o) => !o.hidden && o.long !== '--version');
  const lines = ['Global options (meaning: pgw --help):'];
  for (const item of visible.map(spell)) {
    const last = lines.length - 1;
    const joined = `${lines[last]}${lines[last]!.endsWith(':') ? ' ' : ', '}${item}`;
    if (joined.length + 1 <= width) lines[last] = joined;
    else {
      lines[last] += ',';
      lines.push(`  ${item}`);
    }
  }
  return lines.join('\n');
}

/** Fold help text to `width` columns without changing what it says. */
export function foldHelp(text: string, width: number): string {
  return joinParagraphs(text.split('\n'))
    .flatMap((line) => foldLine(line, width))
    .join('\n');
}

/**
 * Prose written across several lines at the margin is one paragraph: a line that ends mid-sentence
 * (no `.`, `:`, `!` or `?`) continues on the next, so the two are joined before folding, and the
 * paragraph wraps at the terminal's width instead of breaking where its author's editor did
 * (issue 22 item 10). Indented lines (lists, examples, options) and `Label:` lines stay as written.
 */
function joinParagraphs(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const prev = out[out.length - 1];
    const continues =
      prev !== undefined && prev.trim() !== '' && line.trim() !== '' && !/^\s/.test(prev) && !/^\s/.test(line) && !/[.:!?]$/.test(prev.trimEnd()) && !/^[A-Z][A-Za-z ]*: /.test(line);
    if (continues) out[out.length - 1] = `${prev.trimEnd()} ${line}`;
    else out.push(line);
  }
  return out;
}

function foldLine(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const indent = line.match(/^ */)![0].length;
  // An example command continues with a backslash so the pasted lines still run.
  const command = /^ +(pgw|printf|jq|echo|cat) /.test(line);
  // A row of an indented two-column list (`  PAYMENT_SETTLED   an order, ...`) continues under
  // its second column.
  const column = indent > 0 && !command ? /^ +\S+ {2,}/.exec(line)?.[0].length : undefined;
  const pad = ' '.repeat(column !== undefined && column < width / 2 ? column : indent + (command ? 4 : 2));
  const lines: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const room = command ? width - 2 : width;
    const start = lines.length === 0 ? indent : pad.length;
    const cut = rest.lastIndexOf(' ', room);
    if (cut <= start) break; // one word longer than the line: left whole
    lines.push(command ? `${rest.slice(0, cut)} \\` : rest.slice(0, cut));
    rest = `${pad}${rest.slice(cut + 1)}`;
  }
  return [...lines, rest];
}

/**
 * The root's list of nouns, one line each at 80 columns (a noun's own description may be longer:
 * its help shows it whole). A noun missing here shows its own description.
 */
const ROOT_LINES: Record<string, string> = {
  order: 'create, look up and update orders',
  payment: 'look up, list and trace payments; answer verifications',
  refund: 'refund payments and look refunds up',
  link: 'payment links: create, look up, list, extend, end',
  vba: 'virtual bank accounts: bank-transfer collections',
  settle: 'settlements: look up, report, calculate, mark (sandbox)',
  sub: 'subscriptions: simulate their payments (sandbox)',
  merchant: "a PSP's sub-merchants: list, look up, onboard, update",
  pan: 'verify a PAN against its holder (for LRS)',
  lrs: 'LRS remittances: quote the TCS, fee and total',
  api: 'a raw authenticated request (no command for it yet)',
  profile: 'named credentials, addresses and API versions',
  sandbox: "pgw's offline gateway: serve it, move money in it",
  listen: 'receive webhook events, show and forward them',
  trigger: 'sandbox only: make a webhook event happen',
  events: 'webhook deliveries (sandbox): list, get, wait, resend',
  webhook: 'verify a webhook signature',
  mcp: 'the commands as tools for coding agents (MCP on stdio)',
  completion: 'print the shell completion script',
  help: 'help for a command: pgw help payment get',
};

/** The root's options heading says in which order their sources count (the environment's names follow the commands). */
export const ROOT_OPTIONS = 'Options (flag > environment variable > profile > built-in default):';

/**
 * The root's help fits 50 lines at 80 columns with the quick start first (issue 22 item 10) and
 * lists every command (issue 44 item 5): nouns by name only (their verbs and arguments are on
 * their own help), one line each, the options' choices left to their descriptions, no
 * `-h, --help` line, no description under the usage line (the quick start shows what pgw is for),
 * and the precedence rule in the options' heading rather than a line of its own.
 */
function compactRoot(program: Command): void {
  const base = new Help();
  for (const option of program.options) option.helpGroup(ROOT_OPTIONS);
  program.configureHelp({
    ...program.configureHelp(),
    commandDescription: () => '',
    subcommandTerm: (cmd) => cmd.name(),
    subcommandDescription: (cmd) => ROOT_LINES[cmd.name()] || cmd.summary() || cmd.description(), // summary() is '' when unset
    // `-h, --help` is the one option a reader of this page has already found, and the `help`
    // command's line says how to ask about a command: the line goes. `--csv-raw` only means
    // something with `-o csv`, whose commands' help and the globals line under every verb's help
    // name it. So every noun, `completion` included, fits the 50 lines.
    visibleOptions: (cmd) => base.visibleOptions(cmd).filter((o) => o.long !== '--help' && (cmd !== program || o.long !== '--csv-raw')),
    // "(choices: ...)" repeats what the description already says (`table, json or csv`).
    optionDescription: (option) => {
      const text = base.optionDescription(option);
      const named = option.argChoices?.every((c) => option.description.includes(c));
      return named ? text.replace(/ \(choices: [^)]*\)/, '') : text;
    },
  });
}

/** Wire the help of the whole tree. Called once by program.ts after every noun is registered. */
export function configureHelpTree(program: Command, width: () => number): void {
  program.addHelpText('before', QUICK_START);
  compactRoot(program);
  program.addHelpText('afterAll', ({ command }) => {
    if (command === program) return '';
    let text = '';
    const own = ownAfterText(command);
    const examples = EXAMPLES[commandPath(command)];
    if (!own.includes('Examples:') && examples) text += `\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}\n`;
    if (command.commands.length > 0) text += `\nRun 'pgw help ${commandPath(command)} <command>' for a command's options and examples.\n`;
    text += `\n${globalSummary(program, width())}`;
    return text;
  });

  // `pgw help payment get`: commander's own help command takes one name only.
  program.helpCommand(false);
  program
    .command('help')
    .description('show help for a command, e.g. pgw help payment get')
    .argument('[command...]', 'the command path')
    .action((names: string[]) => {
      let cmd = program;
      for (const name of names) {
        const next = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (!next) {
          // The same "did you mean" as `pgw paymnt` gets from commander.
          const like = suggest(name, cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).flatMap((c) => [c.name(), ...c.aliases()]));
          const path = [commandPath(cmd), name].filter(Boolean).join(' ');
          throw new UsageError(`unknown command '${path}'${like ? ` (did you mean ${[commandPath(cmd), like].filter(Boolean).join(' ')}?)` : ''}`, {
            code: 'USAGE',
            suggestion: like ? undefined : `see pgw ${commandPath(cmd) ? `help ${commandPath(cmd)}` : '--help'}`,
          });
        }
        cmd = next;
      }
      cmd.outputHelp();
    });

  // `pgw` and `pgw payment` with no verb print their help on stdout and exit 0, as `gh pr` does:
  // asking what a noun can do is not a mistake. commander calls help({error: true}) for exactly
  // that case (a group given no subcommand; unknown options are refused before it).
  const groups = (cmd: Command): Command[] => (cmd.commands.length > 0 ? [cmd, ...cmd.commands.flatMap(groups)] : []);
  for (const group of groups(program)) {
    const help = group.help.bind(group);
    group.help = ((context?: { error: boolean }) => help(context?.error ? { error: false } : context)) as Command['help'];
    refuseUnknownWithHelp(group);
  }
}

/** The first operand a group was given, when it names none of its commands (`vba` in `pgw vba --help`). */
function unknownOperand(group: Command): string | undefined {
  // A group with an action of its own takes operands as its arguments: none is a command name.
  if ((group as unknown as { _actionHandler?: unknown })._actionHandler) return undefined;
  const first = group.args[0];
  if (first === undefined || first.startsWith('-')) return undefined;
  return group.commands.some((c) => c.name() === first || c.aliases().includes(first)) ? undefined : first;
}

/**
 * `pgw vba --help` and `pgw payment verify --help`: commander shows the group's help when --help
 * is anywhere on the line, before it looks at the unknown word, so a mistyped or future command
 * looked like one that exists (exit 0). It is an unknown command, `--help` or not, as in `gh foo
 * --help`: exit 2, with the nearest command when one is near (commander's "Did you mean"), and
 * otherwise a hint saying where the commands are listed.
 */
function refuseUnknownWithHelp(group: Command): void {
  // commander's unknownCommand() is public at run time but not in its types.
  const withUnknown = group as Command & { unknownCommand: () => never };
  const outputHelp = group.outputHelp.bind(group);
  group.outputHelp = ((context?: { error: boolean }) => {
    if (unknownOperand(group) !== undefined) withUnknown.unknownCommand();
    outputHelp(context);
  }) as Command['outputHelp'];
  const unknownCommand = withUnknown.unknownCommand.bind(group);
  withUnknown.unknownCommand = () => {
    const name = group.args[0] ?? '';
    const visible = group.createHelp().visibleCommands(group).filter((c) => c.name() !== 'help');
    if (suggest(name, visible.flatMap((c) => [c.name(), ...c.aliases()])) !== undefined) return unknownCommand();
    const path = commandPath(group);
    const names = visible.map((c) => c.name());
    // The hint is for a person: the JSON error keeps the first line only (context.ts).
    const hint = path ? `pgw ${path} has ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' and ' : ''}${names.at(-1)} (pgw help ${path})` : 'pgw --help lists the commands';
    return group.error(`error: unknown command '${name}'\nhint: ${hint}`, { code: 'commander.unknownCommand' });
  };
}

/** The closest name within 3 edits (optimal string alignment, as commander's own suggestion), if any. */
export function suggest(word: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const name of names) {
    const d = editDistance(word, name);
    const similar = (name.length - d) / name.length > 0.4;
    if (similar && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** Help lines are folded to the terminal as commander writes them (prose and examples alike). */
export function helpWriter(write: (text: string) => void, width: () => number): (text: string) => void {
  return (text) => write(foldHelp(text, width()));
}
