// Issue 23: a command line that names a noun builds only that noun's group (start-up); help,
// completion and unknown words still see the whole tree.
import { describe, expect, it } from 'vitest';
import { buildProgram, nounOf } from '../src/program.js';
import { Context } from '../src/context.js';
import { spawnPgw } from './helpers/spawn.js';

describe('nounOf', () => {
  it.each([
    [['payment', 'get', 'PR1'], 'payment'],
    [['-p', 'live', 'payment', 'get'], 'payment'],
    [['--profile', 'payment', 'order', 'get'], 'order'], // the profile is named "payment"
    [['--profile=live', '-o', 'json', 'settle', 'calc'], 'settle'],
    [['-plive', '--json', '-v', 'sandbox', 'seed'], 'sandbox'],
    [['--query', 'order', 'link', 'list'], 'link'],
    [['help', 'payment', 'get'], undefined],
    [['paymnt', 'get'], undefined],
    [['__complete', 'payment'], undefined],
    [['--help'], undefined],
    [[], undefined],
    [['--', 'payment'], undefined],
    [['toString'], undefined],
    [['completion', 'bash'], undefined],
  ])('%j → %s', (argv, noun) => {
    expect(nounOf(argv)).toBe(noun);
  });
});

describe('buildProgram with a command line', () => {
  const names = (argv?: string[]) => buildProgram(new Context({ env: {} }), argv).commands.map((c) => c.name());

  it('registers only the named noun (and help)', () => {
    expect(names(['payment', 'get', 'PR1'])).toEqual(['payment', 'help']);
  });

  it('registers every noun otherwise, in the help order', () => {
    const all = names();
    expect(all.length).toBeGreaterThan(10);
    expect(names(['help', 'payment'])).toEqual(all);
    expect(names(['paymnt'])).toEqual(all);
  });
});

describe('the binary', () => {
  it('still suggests the noun for a typo, and a verb within the noun', async () => {
    const noun = await spawnPgw(['paymnt', 'get']);
    expect(noun.code).toBe(2);
    expect(noun.stderr).toMatch(/Did you mean payment\?/);
    const verb = await spawnPgw(['payment', 'gt']);
    expect(verb.code).toBe(2);
    expect(verb.stderr).toMatch(/Did you mean get\?/);
  });

  it('shows a verb\'s help after global options', async () => {
    const r = await spawnPgw(['-p', 'local', 'payment', 'get', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: pgw payment get/);
  });
});

describe('pgw --help', () => {
  it('prints the same root help from empty nouns as from the whole tree', () => {
    const help = (argv?: string[]) => {
      let text = '';
      const program = buildProgram(new Context({ env: {} }), argv);
      program.configureOutput({ writeOut: (t) => (text += t), getOutHelpWidth: () => 80 });
      program.outputHelp();
      return text;
    };
    const full = help();
    expect(full).toMatch(/Commands:\n {2}order/);
    expect(help(['--help'])).toBe(full);
    expect(help(['-h'])).toBe(full);
    expect(help([])).toBe(full);
  });
});
