// Issue 31 item 10 (a), the commands run in-process: every exit-2 refusal's JSON error carries a
// code (`USAGE`, or `VALIDATION` for per-field checks), never `"code": null`: fault flags, list
// flags, clock set and advance, wait --timeout, and a sample of the other refusals. Each runs with
// -o json, on a fresh embedded sandbox; nothing is on stdout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-codes-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROUTE = ['--route', 'POST /pg/orders/'];

describe('exit-2 refusals in JSON carry a code', () => {
  it.each([
    // sandbox fault add: its flags
    [['sandbox', 'fault', 'add', ...ROUTE]],
    [['sandbox', 'fault', 'add', '--status', '503']],
    [['sandbox', 'fault', 'add', ...ROUTE, '--status', '999']],
    [['sandbox', 'fault', 'add', ...ROUTE, '--status', '503', '--drop']],
    [['sandbox', 'fault', 'add', ...ROUTE, '--delay', 'soon']],
    [['sandbox', 'fault', 'add', ...ROUTE, '--status', '503', '--times', 'x']],
    [['sandbox', 'fault', 'add', ...ROUTE, '--status', '503', '--seed', '1']],
    [['sandbox', 'fault', 'add', '--route', 'FETCH /x', '--status', '503']],
    // list flags
    [['events', 'list', '--limit', '0']],
    [['payment', 'list', '--page', '0']],
    [['link', 'list', '--page-size', '0']],
    [['refund', 'list', '--from', '2026-13-01']],
    [['settle', 'list', '--page', 'x']],
    // the sandbox clock and readiness
    [['sandbox', 'clock', 'set', 'bad']],
    [['sandbox', 'clock', 'advance', 'soon']],
    [['sandbox', 'wait', '--timeout', 'bad']],
    // a sample of the others
    [['trigger', 'NOPE']],
    [['order', 'get']],
    [['link', 'create', '--amount', '10', '--product-description', 'P', '--expires-in', '100000000d']],
    [['order', 'create', '--amount', 'abc', '--no-input']],
    [['payment', 'list', '--bogus']],
  ])('%j', async (args) => {
    const r = await pgwInProcess([...args, '-o', 'json'], { env: { PGW_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const error = JSON.parse(r.stderr).error as { code: unknown; message: string };
    expect(error.message).not.toBe('');
    expect(['USAGE', 'VALIDATION'], r.stderr).toContain(error.code);
  });
});
