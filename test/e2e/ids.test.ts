// Issue 22 items 1-3 on the embedded sandbox, the commands run in-process: IDs as a support agent
// pastes them, IDs of another kind answered with the command that reads them (before any request
// when the prefix settles it), `get -` with a JSON array, `view`, and help for bare nouns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
let seed: { orders: string[]; payments: string[]; refunds: string[]; link_id: string; settlement_id: string };
const env = (extra: Record<string, string> = {}) => ({ PGW_CONFIG_DIR: dir, ...extra });
const pgw = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) => pgwInProcess(args, { input: opts.input, env: env(opts.env) });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-ids-'));
  const r = await pgw(['sandbox', 'seed', '--json']);
  expect(r.code, r.stderr).toBe(0);
  seed = JSON.parse(r.stdout);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('IDs as people paste them', () => {
  it('splits on commas and whitespace, upper-cases the prefix and drops quotes and full stops', async () => {
    const [a, b, c] = seed.payments as [string, string, string];
    const pasted = [`${a.toLowerCase()},${b}.`, `"${c}"`];
    const r = await pgw(['payment', 'get', ...pasted, '--json', '--query', '[].payment_id']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([a, b, c]);
    // One argument holding two IDs separated by a space, as copied from a ticket.
    const one = await pgw(['payment', 'get', `${a} ${b}`, '--json', '--query', '[].payment_id']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual([a, b]);
  }, 60_000);

  it('get - reads a JSON array of IDs on stdin (a --query result piped in)', async () => {
    const list = await pgw(['-p', 'local-psp', 'merchant', 'list', '--query', "[?kyc_status=='APPROVED' || kyc_status=='PENDING'].id"]);
    expect(list.code, list.stderr).toBe(0);
    const ids = JSON.parse(list.stdout) as string[];
    expect(ids.length).toBeGreaterThan(0);
    const r = await pgw(['-p', 'local-psp', 'merchant', 'get', '-', '--json', '--query', '[].id'], { input: list.stdout });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(ids);
    const payments = await pgw(['payment', 'get', '-', '--json', '--query', '[].payment_id'], { input: JSON.stringify(seed.payments.slice(0, 2)) });
    expect(payments.code, payments.stderr).toBe(0);
    expect(JSON.parse(payments.stdout)).toEqual(seed.payments.slice(0, 2));
  }, 60_000);

  it('refuses a JSON array of objects with a hint to pick the IDs, nothing sent', async () => {
    const r = await pgw(['payment', 'get', '-', '-o', 'table', '--verbose'], { input: '[{"id":"PR1"}]' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stdin: item 1 of the JSON array is an object, not an ID');
    expect(r.stderr).toContain("--query '[].id'");
    expect(r.stderr).not.toContain('GET ');
  }, 30_000);

  it('a JSON array of arrays is named an array (issue 31 item 10), with a hint to flatten it, nothing sent', async () => {
    const r = await pgw(['payment', 'get', '-', '-o', 'table', '--verbose'], { input: '[["PR0000000001"]]' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stdin: item 1 of the JSON array is an array, not an ID');
    expect(r.stderr).toContain("--query '[]'");
    expect(r.stderr).not.toContain('GET ');
  }, 30_000);
});

describe('what kind of ID it is', () => {
  it('names the command for an ID whose prefix is another kind, before any request (exit 2)', async () => {
    const rf = seed.refunds[0]!;
    const r = await pgw(['payment', 'get', rf, '-o', 'table', '--verbose']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${rf} is a refund: pgw refund get ${rf}`);
    expect(r.stderr).not.toMatch(/GET \S*\/pg\//); // --verbose would log the request
    const st = await pgw(['refund', 'get', seed.settlement_id, seed.orders[0]!, '--json']);
    expect(st.code).toBe(2);
    const error = JSON.parse(st.stderr.trim()).error;
    expect(error.code).toBe('ID_KIND');
    expect(error.message).toBe(`${seed.settlement_id} is a settlement: pgw settle get ${seed.settlement_id}; ${seed.orders[0]} is an order: pgw order get ${seed.orders[0]}`);
    expect(st.stdout).toBe('');
  }, 60_000);

  it('a payment link ID given to payment get is named a link once the payment is not found (and the other way round)', async () => {
    const r = await pgw(['payment', 'get', seed.link_id, '-o', 'table']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`error: ${seed.link_id} is a payment link, not a payment: pgw link get ${seed.link_id}`);
    const p = seed.payments[0]!;
    const l = await pgw(['link', 'get', p, '-o', 'table']);
    expect(l.code).toBe(5);
    expect(l.stderr).toContain(`error: ${p} is a payment, not a payment link: pgw payment get ${p}`);
  }, 60_000);

  it('a single-ID verb names the kind it got (order update with a payment ID)', async () => {
    const r = await pgw(['order', 'update', `${seed.payments[0]!.toLowerCase()}.`, '--pan', 'ABCDE1234F', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`order_id: ${seed.payments[0]} is a payment ID, not an order ID`);
  }, 30_000);
});

describe('verbs and help as gh users expect', () => {
  it('payment view is payment get', async () => {
    const r = await pgw(['payment', 'view', seed.payments[0]!, '--json', '--query', 'payment_id']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(seed.payments[0]);
  }, 30_000);

  it('pgw help paymnt suggests the command, as pgw paymnt does', async () => {
    const r = await pgw(['help', 'paymnt'], { env: { PGW_OUTPUT: 'table' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean payment?');
    const verb = await pgw(['help', 'payment', 'gte'], { env: { PGW_OUTPUT: 'table' } });
    expect(verb.stderr).toContain('did you mean payment get?');
  }, 30_000);

  it('pgw and pgw payment with no verb print their help on stdout and exit 0', async () => {
    const root = await pgw([]);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain('Usage: pgw [options] [command]');
    expect(root.stderr).toBe('');
    const noun = await pgw(['payment']);
    expect(noun.code).toBe(0);
    expect(noun.stdout).toContain('Usage: pgw payment');
    expect(noun.stdout).toContain('get|view');
  }, 30_000);
});
