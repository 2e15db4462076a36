// `pgw mcp` as agents start it (`pgw mcp`, `pgw -p sandbox mcp --toolsets payments --read-only`)
// runs without building the command tree: the answer to `initialize` is what an agent waits for,
// and the tree is ~25 ms of it (issue: "no start-up cost"). Any other word or flag (--list, --help,
// a typo, a global flag beyond the profile) goes through commander as usual, so every refusal and
// every help text stays commander's.
import type { McpOptions } from './command.js';
import { GLOBAL_VALUE_FLAGS } from '../global-flags.js';

export interface FastMcp {
  profile?: string;
  options: McpOptions;
}

const VALUE_FLAGS: Record<string, 'profile' | 'toolsets'> = { '-p': 'profile', '--profile': 'profile', '--toolsets': 'toolsets' };
const SWITCHES: Record<string, 'readOnly' | 'allowProduction'> = { '--read-only': 'readOnly', '--allow-production': 'allowProduction' };

export function fastMcp(argv: readonly string[]): FastMcp | undefined {
  const found: FastMcp = { options: {} };
  let noun = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const key = VALUE_FLAGS[name];
    if (key !== undefined) {
      const value = name === arg ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      if (key === 'profile') found.profile = value;
      else if (noun) found.options.toolsets = value;
      else return undefined; // --toolsets before the noun: commander says what it makes of it
      continue;
    }
    const flag = SWITCHES[arg];
    // --allow-production may stand before `mcp` too (`pgw -p live --allow-production mcp`, issue 43).
    if (flag !== undefined && (noun || flag === 'allowProduction')) {
      found.options[flag] = true;
      continue;
    }
    if (arg === 'mcp' && !noun) {
      noun = true;
      continue;
    }
    return undefined;
  }
  return noun ? found : undefined;
}

/**
 * The command line as commander must read it: an `--allow-production` before `mcp` (an option of
 * `mcp` alone) moved after it, so `pgw -p live --allow-production mcp --list` works as agents'
 * set-ups write it. Any other command line is returned as it is.
 */
export function withMcpFlagsAfterNoun(argv: readonly string[]): string[] {
  let noun = -1;
  for (let i = 0; i < argv.length && noun < 0; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (GLOBAL_VALUE_FLAGS.has(arg)) i++;
      continue;
    }
    noun = i;
  }
  if (noun < 0 || argv[noun] !== 'mcp') return [...argv];
  const before = argv.slice(0, noun);
  if (!before.includes('--allow-production')) return [...argv];
  return [...before.filter((a) => a !== '--allow-production'), 'mcp', '--allow-production', ...argv.slice(noun + 1)];
}
