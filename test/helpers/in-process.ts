// spawnPgw's twin in this process (issue 44 item 6): the same arguments and result, the command run
// by runCli instead of a `node bin/pgw.js` of its own. A test whose subject is a command's
// behaviour (its output, exit code, the state it leaves) uses this: a spawned pgw costs 150–300 ms
// of CPU, an in-process run a few. Start-up, signals, exit at the process's edge, stdio and pipes,
// tmux screens and the packed build keep spawnPgw (test/helpers/spawn.ts).
import { runCli } from './run.js';
import type { SpawnResult } from './spawn.js';

export function pgwInProcess(args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<SpawnResult> {
  // The environment spawnPgw gives its child: this one's, without the developer's own PGW_
  // settings (the parity trace's excepted), NO_COLOR, then the test's own.
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...opts.env };
  for (const key of Object.keys(env)) if (key.startsWith('PGW_') && !key.startsWith('PGW_PARITY_') && !(opts.env && key in opts.env)) delete env[key];
  return runCli(args, { env, input: opts.input ?? '' }).then((r) => ({ ...r, signal: null }));
}
