// Issue 33 item 16 (run in-process): a command that does not exist is exit 2 with the nearest
// command named (or where the commands are listed), `--help` or not, as `gh foo --help` is. Before,
// `pgw vba --help` printed the root's help and `pgw payment verify --help` the noun's, exit 0, so a
// future or mistyped command looked like one that exists. Help that exists is unchanged. (`vba`
// exists since issue 36: `token`, an area pgw leaves out (vendor 10), is the unknown noun now; and
// `payment verify` too: `payment capture` and `payment void`, which the gateway has not, are the
// unknown verbs.)
import { describe, expect, it } from 'vitest';
import { pgwInProcess } from '../helpers/in-process.js';

/** Human errors on a pipe: -o table (JSON errors are the default when both streams are piped). */
const human = (args: string[]) => pgwInProcess(['-o', 'table', ...args]);

describe('an unknown command, with --help or without', () => {
  it.each([[['token', '--help']], [['token']], [['token', 'create', '-h']], [['help', 'token']]])('pgw %j: exit 2, the commands are on pgw --help', async (args) => {
    const r = await human(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown command '(pgw )?token'/);
    expect(r.stderr).toMatch(/pgw --help/);
  });

  it.each([[['payment', 'capture', '--help']], [['payment', 'capture']], [['payment', 'void', 'PR1', '--help']]])('pgw %j: exit 2, naming the noun\'s commands', async (args) => {
    const r = await human(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown command '(capture|void)'\nhint: pgw payment has get(, [a-z-]+)* and [a-z-]+ \(pgw help payment\)\n$/);
  });

  it.each([
    [['paymnt', '--help'], 'payment'],
    [['payment', 'gte', '--help'], 'get'],
    [['sandbox', 'clokc', '--help'], 'clock'],
  ])('pgw %j: exit 2, did you mean %s', async (args, near) => {
    const r = await human(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Did you mean ${near}?`);
  });

  it('in JSON mode the error object keeps its one-line message (the hint is for a person)', async () => {
    const r = await pgwInProcess(['payment', 'capture', '--help']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: 'USAGE', message: "unknown command 'capture'", details: { parser: 'commander.unknownCommand' }, status: null } });
  });
});

describe('help that exists is unchanged', () => {
  it.each([
    [['--help'], 'Quick start'],
    [['-h'], 'Quick start'],
    [['help'], 'Quick start'],
    [['payment', '--help'], 'Usage: pgw payment'],
    [['payment'], 'Usage: pgw payment'],
    [['help', 'payment'], 'Usage: pgw payment'],
    [['payment', 'get', '--help'], 'Usage: pgw payment get'],
    [['help', 'payment', 'get'], 'Usage: pgw payment get'],
    [['-p', 'local', 'sandbox', 'clock', '--help'], 'Usage: pgw sandbox clock'],
    [['trigger', '--help'], 'Usage: pgw trigger'],
  ])('pgw %j: exit 0, its help on stdout', async (args, head) => {
    const r = await human(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(head);
    expect(r.stderr).toBe('');
  });
});
