// Issue 23: `pgw --help` on a pipe prints the root's help that the build rendered through commander
// (scripts/root-help.mjs, src/main.ts ROOT_HELP) instead of loading the command tree. It must be
// the very text commander prints now: `pgw help` always renders it with commander.
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { spawnPgw } from '../helpers/spawn.js';

describe('the root help rendered at build time', () => {
  it('is what commander prints (pgw help), for pgw --help, pgw -h and pgw alone', async () => {
    const rendered = await spawnPgw(['help']);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toMatch(/^Quick start/);
    expect(rendered.stdout).toContain('Usage: pgw [options] [command]');
    for (const args of [['--help'], ['-h'], []]) {
      const r = await spawnPgw(args);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(rendered.stdout);
    }
  });

  it("is the root help only: a noun's help is rendered by commander", async () => {
    const root = await spawnPgw(['--help']);
    const noun = await spawnPgw(['payment', '--help']);
    expect(noun.code).toBe(0);
    expect(noun.stdout).toContain('Usage: pgw payment');
    expect(noun.stdout).not.toBe(root.stdout);
  });

  it('lists every command of the tree, completion included, one line each, within 50 lines (issue 44 item 5)', async () => {
    const r = await spawnPgw(['--help']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(50);
    const commands = lines.slice(lines.indexOf('Commands:') + 1);
    const listed = commands.slice(0, commands.indexOf('')).map((l) => /^ {2}(\S+) {2,}\S/.exec(l)?.[1]);
    // Every command a user can type: hidden ones (the shells' `__complete`) are not listed.
    const names = buildProgram(new Context()).commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map((c) => c.name());
    expect(names).toEqual(expect.arrayContaining(['completion', 'help', 'mcp']));
    expect(listed).toEqual(names);
    // The rule of precedence heads the options instead of taking a line of its own.
    expect(lines).toContain('Options (flag > environment variable > profile > built-in default):');
  });
});
