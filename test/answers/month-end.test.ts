// The month-end report (issue 41 item 1) over `pgw sandbox serve` (one server for the file): a
// month like the analyst's (the clock moved across three weeks, partial and full refunds, a
// chargeback, two settlements, one of which carries a payment of the month before, unsettled,
// failed and under-verification payments) reconciles to each settlement amount to the paisa in
// the table, the CSV read back with an RFC 4180 parser, and the JSON; the unsettled rows carry
// their state. Then the same report through a gateway that logs every request, on a production
// profile: only documented GETs. And the settlement filter of payment list over the same world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir, type RunOptions } from '../helpers/run.js';
import { parseCsv } from '../helpers/csv.js';
import { LoggingAgent, documented } from '../helpers/logging-agent.js';
import { orderBody, startHarness, type Harness } from '../sandbox/harness.js';
import { paymentBreakdown } from '../../src/settlement.js';
import { formatAmount } from '../../src/money.js';
import { REPORT_KEYS } from '../../src/answers/month-end/render.js';

let h: Harness;
const tmp = tempConfigDir();
type Name = 'old' | 'a' | 'b' | 'c' | 'f' | 'rold' | 'ra' | 'rb' | 'cb' | 'd' | 'e' | 'v' | 'dec';
const ids = {} as Record<Name, string>;
const settled = { one: '', two: '' };

function pgw(argv: string[], opts: RunOptions = {}) {
  return runCli(argv, {
    ...opts,
    env: { PGW_CONFIG_DIR: tmp.dir, PGW_BASE_URL: h.sandbox.baseUrl, PGW_CLIENT_ID: h.merchant.client_id, PGW_CLIENT_SECRET: h.merchant.client_secret, NO_COLOR: '1', ...opts.env },
  });
}

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const r = await h.call(method, path, { body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}
const at = (time: string) => call('POST', '/sandbox/clock/', { set: time });

/** An order of `amount` with its own reference and invoice, paid (or failed): the payment_id. */
async function paid(name: Name, amount: string, outcome = 'success'): Promise<string> {
  const order = await call('POST', '/pg/orders/', orderBody({ amount, reference_id: `nov-${name}`, invoice: { number: `INV${name.toUpperCase()}`, date: '2026-10-28' } }));
  const payment = await call('POST', `/sandbox/orders/${order.order_id}/pay/`, { outcome });
  return (ids[name] = payment.payment_id);
}
const refund = async (name: Name, payment: Name, amount?: string) => (ids[name] = (await call('POST', '/pg/refunds/', { payment_id: ids[payment], ...(amount ? { refund_amount: amount } : {}) })).refund_id);
const net = (amount: string) => formatAmount(paymentBreakdown(amount).net);

beforeAll(async () => {
  h = await startHarness();
  await at('2026-10-28T10:00:00Z');
  await paid('old', '1200.00'); // October's, settled in November with its November refund
  await at('2026-11-02T09:00:00Z');
  await paid('a', '2499.00');
  await paid('b', '1000.00');
  await paid('c', '1500.00');
  await paid('f', '700.00', 'fail');
  await at('2026-11-03T11:00:00Z');
  await refund('rold', 'old', '200.00');
  await at('2026-11-05T15:30:00Z');
  await refund('ra', 'a', '499.00'); // partial
  await refund('rb', 'b'); // full: what is left
  ids.cb = (await call('POST', `/sandbox/payments/${ids.c}/chargebacks/`, { amount: '100.00' })).chargeback_id;
  await at('2026-11-09T09:00:00Z');
  settled.one = (await call('POST', '/pg/settlements/mark-settled/', { payment_uids: [ids.a, ids.c, ids.old], refund_uids: [ids.ra, ids.rold], chargeback_uids: [ids.cb] })).settlement_id;
  await at('2026-11-12T10:00:00Z');
  await paid('d', '800.00');
  await paid('e', '333.33');
  await at('2026-11-16T09:00:00Z');
  settled.two = (await call('POST', '/pg/settlements/mark-settled/', { payment_uids: [ids.d] })).settlement_id;
  await at('2026-11-28T10:00:00Z');
  await paid('v', '600.00'); // under verification: 7 days to answer it (11.10 P9), still open on Dec 1
  await call('POST', `/pg/payments/${ids.v}/simulate-verification/`, { status: 'ACTION_REQUIRED' });
  await at('2026-12-01T09:00:00Z');
  await paid('dec', '5000.00'); // December's: not in November's report
}, 60_000);
afterAll(async () => {
  await h.close();
  tmp.cleanup();
});

const WINDOW = ['--from', '2026-11-01', '--to', '2026-11-30'];

describe('settle report: a month like the analyst’s', () => {
  let report: any;
  let amounts: Map<string, string>;

  beforeAll(async () => {
    const r = await pgw(['settle', 'report', ...WINDOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    report = JSON.parse(r.stdout);
    const list = await pgw(['settle', 'list', '--all', '--json']);
    amounts = new Map(JSON.parse(list.stdout).map((s: any) => [s.settlement_id, Number(s.settlement_amount).toFixed(2)]));
  });

  it('JSON: one row per movement of the window; every settlement reconciles to its amount', () => {
    const byId = new Map(report.rows.map((row: any) => [row.id, row]));
    // November's payments, refunds and the chargeback; not October's payment, not December's.
    expect([...byId.keys()].sort()).toEqual([ids.a, ids.b, ids.c, ids.f, ids.d, ids.e, ids.v, ids.ra, ids.rb, ids.rold, ids.cb].sort());
    expect(report.settlements.map((s: any) => [s.settlement_id, s.settlement_amount, s.reconciles, s.difference])).toEqual([
      [settled.one, amounts.get(settled.one), true, '0.00'],
      [settled.two, amounts.get(settled.two), true, '0.00'],
    ]);
    // The first settlement carries October's capture: its one row outside the window.
    expect(report.settlements[0]).toMatchObject({ other_rows: 1, other_net: net('1200.00'), report_rows: 5 });
    expect(byId.get(ids.a)).toMatchObject({ type: 'capture', amount: '2499.00', fee: '124.95', gst: '22.49', net: net('2499.00'), settlement_id: settled.one, settlement_status: 'SETTLED', invoice_number: 'INVA', reference_id: 'nov-a' });
    expect(byId.get(ids.ra)).toMatchObject({ type: 'refund', payment_id: ids.a, debit_amount: '499.00', net: '-499.00', settlement_id: settled.one });
    expect(byId.get(ids.cb)).toMatchObject({ type: 'chargeback', payment_id: ids.c, debit_amount: '100.00', net: '-100.00', settlement_id: settled.one });
    expect(byId.get(ids.rold)).toMatchObject({ type: 'refund', payment_id: ids.old, reference_id: 'nov-old', settlement_id: settled.one });
    expect(report.requests).toBeGreaterThan(5);
  });

  it('the unsettled rows carry their state; failed ones count nowhere', () => {
    const state = (name: Name) => report.rows.find((row: any) => row.id === ids[name]);
    expect(state('b')).toMatchObject({ type: 'capture', settlement_status: 'READY_FOR_SETTLEMENT', settlement_id: null, net: null, fee: null });
    expect(state('v')).toMatchObject({ settlement_status: 'ACTION_REQUIRED', settlement_id: null });
    expect(state('f')).toMatchObject({ type: 'payment', settlement_status: 'PAYMENT_FAILED', status: 'failed' });
    expect(state('rb')).toMatchObject({ type: 'refund', settlement_status: 'PENDING', debit_amount: '1000.00' });
    // b 1000 + e 333.33 + v 600 captured, b's 1000 refunded: 933.33 not yet settled.
    expect(report.unsettled).toEqual({ captures: 3, captured: '1933.33', refunds: 1, refunded: '1000.00', chargebacks: 0, charged_back: '0.00', amount: '933.33' });
  });

  it('CSV, read back as RFC 4180: the nets of each settlement’s rows add up to its amount, to the paisa', async () => {
    const r = await pgw(['settle', 'report', ...WINDOW, '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = parseCsv(r.stdout);
    expect(head).toEqual([...REPORT_KEYS]);
    const col = (name: string) => head!.indexOf(name);
    const paise = (v: string) => (v === '' ? 0 : Math.round(Number(v) * 100));
    const sums = new Map<string, number>();
    for (const row of rows) if (row[col('settlement_id')]) sums.set(row[col('settlement_id')]!, (sums.get(row[col('settlement_id')]!) ?? 0) + paise(row[col('net')]!));
    // October's capture is the first settlement's only row outside the window (spec 4.6 arithmetic).
    expect(sums.get(settled.one)! + paise(net('1200.00'))).toBe(paise(amounts.get(settled.one)!));
    expect(sums.get(settled.two)).toBe(paise(amounts.get(settled.two)!));
    expect(rows.find((row) => row[col('id')] === ids.v)![col('settlement_status')]).toBe('ACTION_REQUIRED');
    // The reconciliation goes to stderr beside the document.
    expect(r.stderr).toContain('reconciles ✓');
    expect(r.stderr).toContain('unsettled: 3 captures 1933.33 − 1 refund 1000.00 − 0 chargebacks 0.00 = 933.33');
  });

  it('the table fits 80 columns and says each settlement reconciles; --wide shows every column', async () => {
    const r = await pgw(['settle', 'report', ...WINDOW], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    if (process.env.SHOW) console.log(r.stdout + r.stderr);
    for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    for (const id of [settled.one, settled.two]) expect(r.stdout).toMatch(new RegExp(`${id} .*${amounts.get(id)!.replace('.', '\\.')}.*reconciles ✓`));
    expect(r.stdout).toMatch(/unsettled: .* = 933\.33/);
    expect(r.stderr).toMatch(/read with \d+ requests/);
    const wide = await pgw(['settle', 'report', ...WINDOW, '--wide'], { tty: true, columns: 80 });
    expect(wide.stdout).toMatch(new RegExp(`refund .*${ids.ra}.*499\\.00.*-499\\.00.*SETTLED.*${settled.one}`));
    expect(wide.stdout).toMatch(new RegExp(`${ids.v} .*ACTION_REQUIRED`));
  });

  it('bad input is one line, exit 2, nothing sent', async () => {
    for (const [args, message] of [
      [['--from', '2026-11-01', '--to', '2026-02-30'], '--to: "2026-02-30" is not a date'],
      [['--from', '2026-11-30', '--to', '2026-11-01'], '--to 2026-11-01 is before --from 2026-11-30'],
      [['--from', '2026-11-01'], '--to is required'],
      [['--from', '10000-01-01', '--to', '10000-01-31'], 'is not a date'],
    ] as const) {
      const r = await pgw(['settle', 'report', ...args, '-o', 'table'], { env: { PGW_BASE_URL: 'http://127.0.0.1:9' } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(message);
    }
  });
});

describe('payment list --settlement-status over pgw sandbox serve', () => {
  it('every payment of November not yet settled, and why', async () => {
    const r = await pgw(['payment', 'list', ...WINDOW, '--settlement-status', 'ready_for_settlement,action_required,payment_failed', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout).map((p: any) => [p.payment_id, p.settlement_status]);
    expect(got.sort()).toEqual([[ids.b, 'READY_FOR_SETTLEMENT'], [ids.e, 'READY_FOR_SETTLEMENT'], [ids.f, 'PAYMENT_FAILED'], [ids.v, 'ACTION_REQUIRED']].sort());
  });

  it('refund list shows each refund’s settlement', async () => {
    const rows = parseCsv((await pgw(['refund', 'list', ...WINDOW, '-o', 'csv'])).stdout);
    const col = (name: string) => rows[0]!.indexOf(name);
    const byId = new Map(rows.slice(1).map((row) => [row[0], [row[col('settlement_status')], row[col('settlement_id')]]]));
    expect(byId.get(ids.ra)).toEqual(['SETTLED', settled.one]);
    expect(byId.get(ids.rb)).toEqual(['PENDING', '']);
  });
});

describe('on production, through a gateway that logs every request', () => {
  const agent = new LoggingAgent();
  afterAll(() => agent.close());
  const live = (argv: string[]) => pgw([...argv, '-p', 'live'], { dispatcher: agent, env: { PGW_BASE_URL: '', PGW_CLIENT_ID: '', PGW_CLIENT_SECRET: '' } });

  beforeAll(async () => {
    const added = await runCli(['profile', 'add', 'live', '--env', 'production', '--base-url', h.sandbox.baseUrl, '--client-id', h.merchant.client_id, '--client-secret-stdin'], {
      env: { PGW_CONFIG_DIR: tmp.dir },
      input: `${h.merchant.client_secret}\n`,
    });
    expect(added.code, added.stderr).toBe(0);
  });

  it('settle report and the settlement filter use only documented GETs, and answer as on the sandbox', async () => {
    agent.log.length = 0;
    const r = await live(['settle', 'report', ...WINDOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('PRODUCTION');
    // The report's own count is what it sent.
    expect(JSON.parse(r.stdout).requests).toBe(agent.log.length);
    const onSandbox = JSON.parse((await pgw(['settle', 'report', ...WINDOW, '--json'])).stdout);
    expect(JSON.parse(r.stdout)).toEqual(onSandbox);
    const filtered = await live(['payment', 'list', ...WINDOW, '--settlement-status', 'action_required', '--json']);
    expect(JSON.parse(filtered.stdout).map((p: any) => p.payment_id)).toEqual([ids.v]);
    expect(agent.log.length).toBeGreaterThan(onSandbox.requests);
    expect(agent.log.filter((line) => !line.startsWith('GET ') || !documented(line))).toEqual([]);
  });
});
