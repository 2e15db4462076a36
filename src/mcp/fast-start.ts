// `pgw mcp` as agents start it (`pgw mcp`, `pgw -p sandbox mcp --toolsets payments --read-only`)
// runs without building the command tree: the answer to `initialize` is what an agent waits for,
// and the tree is ~25 ms of it (issue: "no start-up cost"). Any other word or flag (--list, --help,
// a typo, a global flag beyond the profile) goes through commander as usual, so every refusal and
// every help text stays commander's.
import type { McpOptions } from './command.js';

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
    if (flag !== undefined && noun) {
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
