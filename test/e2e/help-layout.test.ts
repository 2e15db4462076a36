// Issue 22 item 10: help text wraps as a paragraph at 80 columns (no sentence broken at the
// author's line end and continued at the margin), and the root's help fits 50 lines with the
// quick start first. Through the binary for the root, listen and trigger; every command in-process.
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { commandTree } from '../../src/commands/completion/generate.js';
import { runCli } from '../helpers/run.js';
import { spawnPgw } from '../helpers/spawn.js';

/** Lines that continue a sentence at the margin after a line that stopped mid-sentence. */
export function brokenParagraphs(text: string): string[] {
  const lines = text.split('\n');
  const broken: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1]!, lines[i]!];
    if (a.trim() === '' || b.trim() === '' || /^\s/.test(b)) continue;
    // A list's rows (`  PAYMENT_SETTLED   an order, ...` and their folds) may end without a stop.
    if (/^ {3}/.test(a) || /^ {2}\S+ {2,}/.test(a)) continue;
    if (/[.:!?]$/.test(a.trimEnd()) || /^[A-Z][A-Za-z ]*: /.test(b)) continue;
    broken.push(`${a}⏎${b}`);
  }
  return broken;
}

/** A label line whose fold left one word alone on a line ("  PGW_TIMEOUT,"), then continued. */
const orphans = (text: string) => text.split('\n').filter((l) => /^ {2}\S+,$/.test(l));

describe('through the binary (a pipe: 80 columns)', () => {
  it('the root help fits 50 lines at 80 columns, the quick start first, every line within 80', async () => {
    const r = await spawnPgw(['--help']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(50);
    expect(lines[0]).toMatch(/^Quick start/);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    expect(brokenParagraphs(r.stdout)).toEqual([]);
    expect(orphans(r.stdout)).toEqual([]);
    expect(r.stdout).toMatch(/\n {2}sandbox +\S/); // a noun by its name, one line
  }, 30_000);

  it.each([['listen'], ['trigger']])('pgw %s --help wraps its paragraphs', async (cmd) => {
    const r = await spawnPgw([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(brokenParagraphs(r.stdout)).toEqual([]);
    expect(r.stdout.split('\n').filter((l) => l.length > 80)).toEqual([]);
  }, 30_000);
});

describe('every command', () => {
  const nodes = commandTree(buildProgram(new Context()));
  it.each(nodes.map((n) => [n.path]))('pgw help %s', async (path) => {
    const r = await runCli(['help', ...path.split(' ').filter(Boolean)], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(brokenParagraphs(r.stdout)).toEqual([]);
    expect(orphans(r.stdout)).toEqual([]);
  });
});
