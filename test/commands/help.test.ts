// Help leads: every verb's help fits 80 columns and ends with its examples, then the global
// options once, compact; the root starts with a quick start; `pgw help <noun> <verb>` works.
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { commandTree } from '../../src/commands/completion/generate.js';
import { runCli } from '../helpers/run.js';

const nodes = commandTree(buildProgram(new Context())).filter((n) => n.path !== '');
const verbs = nodes.filter((n) => n.subcommands.length === 0).map((n) => n.path);
const groups = nodes.filter((n) => n.subcommands.length > 0).map((n) => n.path);

async function help(path: string[], columns = 80): Promise<string> {
  const r = await runCli(['help', ...path], { tty: true, columns, env: { NO_COLOR: '1' } });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

const tooWide = (text: string, width: number) => text.split('\n').filter((l) => [...l].length > width);

describe.each(verbs)('pgw help %s', (path) => {
  it('fits 80 columns; usage, examples, then the global options once and last', async () => {
    const text = await help(path.split(' '));
    expect(tooWide(text, 80)).toEqual([]);
    expect(text).toMatch(/^Usage: pgw /m);
    const examples = text.indexOf('\nExamples');
    expect(examples).toBeGreaterThan(0);
    expect(text.slice(examples)).toMatch(/\n  (pgw|printf|jq) /);
    const globals = text.indexOf('Global options');
    expect(globals).toBeGreaterThan(examples);
    expect(text.indexOf('Global options', globals + 1)).toBe(-1);
    expect(text).not.toContain('Global Options:'); // commander's long list
    expect(text.slice(globals)).toContain('--profile'.slice(0, 2)); // -p
  });
});

describe('help', () => {
  it('pgw help <noun> <verb> is the verb\'s help, not the group\'s', async () => {
    const r = await runCli(['payment', 'get', '--help'], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(await help(['payment', 'get'])).toBe(r.stdout);
    expect(r.stdout).toContain('Usage: pgw payment get');
  });

  it('an unknown command path is a usage error', async () => {
    const r = await runCli(['help', 'payment', 'nope'], { tty: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'payment nope'");
  });

  it('the root starts with a three-line quick start and fits 80 columns', async () => {
    const text = await help([]);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^Quick start/);
    expect(lines.slice(1, 4).every((l) => /^  pgw /.test(l))).toBe(true);
    expect(tooWide(text, 80)).toEqual([]);
  });

  it.each(groups)('the group %s fits and points at its verbs', async (path) => {
    const text = await help(path.split(' '));
    expect(tooWide(text, 80)).toEqual([]);
    expect(text).toContain(`pgw help ${path} <command>`);
  });

  it('examples folded on a narrow terminal continue with a backslash', async () => {
    const text = await help(['order', 'create'], 60);
    expect(tooWide(text, 60)).toEqual([]);
    expect(text).toMatch(/ \\\n {6}\S/);
  });
});
