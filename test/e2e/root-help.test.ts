// Issue 23: `pgw --help` on a pipe prints the root's help that the build rendered through commander
// (scripts/root-help.mjs, src/main.ts ROOT_HELP) instead of loading the command tree. It must be
// the very text commander prints now: `pgw help` always renders it with commander.
import { describe, expect, it } from 'vitest';
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
});
