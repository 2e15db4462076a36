// Issue 33 item 13 through the built binary: error and hint lines on a terminal fold at word
// boundaries to its width, as help does (contract, "Output rules"), instead of being cut mid-word
// by the terminal; a word longer than the room (a URL) is never split and starts a line of its own.
// A pipe gets each line whole (scripts grep it), and a JSON error is one JSON line as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnPgw } from '../helpers/spawn.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';

let dir: string;
const env: Record<string, string> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-messages-'));
  env.PGW_CONFIG_DIR = dir;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** gh's --jq: refused with one error line wider than 80 columns. */
const JQ = ['link', 'list', '--jq', '.[]'];
/** A sandbox that is not there: the error names the address, a URL of 77 characters. */
const URL77 = 'http://127.0.0.1:9/a-rather-long-path/that-goes-on-and-on/and-on-until/health';
const WAIT = ['sandbox', 'wait', '--url', URL77, '--timeout', '1s'];

async function screenOf(args: string[], code: number): Promise<string[]> {
  const t = startPgw(args, { env, columns: 80 });
  try {
    expect(await t.exited()).toBe(code);
    return t.screen().split('\n').filter((l) => l.trim() !== '' && !l.startsWith('[exit'));
  } finally {
    t.close();
  }
}

describe('on a pipe: one line each', () => {
  it('an error asked for as a person reads it (-o table) is a single line, however long', async () => {
    const r = await spawnPgw(['-o', 'table', ...JQ], { env });
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeGreaterThan(80);
    expect(lines[0]).toMatch(/^error: --jq is gh's: .* --query '\[\]\.payment_id'$/);
  });

  it('a JSON error stays one JSON object on one line', async () => {
    const r = await spawnPgw(JQ, { env });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stderr).error.message).toMatch(/^--jq is gh's/);
  });
});

describe.runIf(hasTmux)('in an 80-column terminal', () => {
  it('an error line folds at spaces, continuing under its text; no word is cut', async () => {
    const whole = (await spawnPgw(['-o', 'table', ...JQ], { env })).stderr.trim();
    const screen = await screenOf(JQ, 2);
    expect(screen.length).toBeGreaterThan(1);
    for (const line of screen) expect([...line].length).toBeLessThanOrEqual(80);
    expect(screen[0]).toMatch(/^error: /);
    for (const line of screen.slice(1)) expect(line).toMatch(/^ {7}\S/);
    // Read back across the folds, the words are the pipe's line: the terminal cut none of them.
    expect(screen.map((l) => l.trim()).join(' ')).toBe(whole);
  }, 30_000);

  it('a URL longer than the room after `error: ` is never split: it takes a line of its own', async () => {
    const screen = await screenOf(WAIT, 3);
    expect(screen).toContain(URL77);
    for (const line of screen) expect([...line].length).toBeLessThanOrEqual(80);
    const error = screen.slice(0, screen.findIndex((l) => l.startsWith('hint: ')));
    expect(error[0]).toMatch(/^error: /);
    expect(error.map((l) => l.trim()).join(' ')).toMatch(new RegExp(`^error: the sandbox at ${URL77.replace(/[.?]/g, '\\$&')} was not ready within 1s`));
  }, 30_000);
});
