// Issue 31 item 10 (d) on the embedded sandbox, the commands run in-process: a JSON body whose free
// text holds a lone surrogate escape ("\ud800") is stored with one U+FFFD in its place, as
// toWellFormed() gives, not three.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-surrogate-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function json(args: string[]): Promise<any> {
  const r = await pgwInProcess([...args, '--json'], { env: { PGW_CONFIG_DIR: dir } });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

describe('a lone surrogate in a request body', () => {
  it('pgw api … --data @file: the refund message is stored with one U+FFFD', async () => {
    const [payment] = (await json(['sandbox', 'seed', '--payments', '1'])) as string[];
    const refund = (await json(['refund', 'create', payment!, '--amount', '1'])).refund_id as string;
    const file = join(dir, 'simulate.json');
    // Written as JSON text, escapes and all: "\ud800" alone is valid JSON and not valid Unicode.
    writeFileSync(file, '{"status":"FAILED","status_message":"before \\ud800 after"}');
    await json(['api', 'POST', `/pg/refunds/${refund}/simulate-status/`, '--data', `@${file}`]);
    const stored = (await json(['refund', 'get', refund])).message as string;
    expect(stored).toBe('before \ufffd after');
  }, 60_000);
});
