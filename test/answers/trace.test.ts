// pgw payment trace (issue 41 item 3) over `pgw sandbox serve` (one server for the file): an order
// whose first attempt failed and second was captured, a refund that moved through two statuses, a
// chargeback, a verification sent back with the reviewer's words, a settlement, and webhooks to an
// address that refuses them: every step in order, by payment, order or reference alike; then the
// same on a production profile through a gateway that logs every request: documented GETs only,
// and it says which steps it cannot see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir, type RunOptions } from '../helpers/run.js';
import { orderBody, startHarness, type Harness } from '../sandbox/harness.js';
import { LoggingAgent, documented } from '../helpers/logging-agent.js';

let h: Harness;
const tmp = tempConfigDir();
const ids = { order: '', failed: '', paid: '', refund: '', chargeback: '', settlement: '' };

const pgw = (argv: string[], opts: RunOptions = {}) =>
  runCli(argv, {
    ...opts,
    env: { PGW_CONFIG_DIR: tmp.dir, PGW_BASE_URL: h.sandbox.baseUrl, PGW_CLIENT_ID: h.merchant.client_id, PGW_CLIENT_SECRET: h.merchant.client_secret, NO_COLOR: '1', ...opts.env },
  });

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const r = await h.call(method, path, { body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

beforeAll(async () => {
  h = await startHarness();
  await call('POST', '/sandbox/clock/', { set: '2026-11-02T09:00:00Z' });
  await call('POST', '/sandbox/webhooks/', { url: 'http://127.0.0.1:9/hook' }); // refuses every attempt
  ids.order = (await call('POST', '/pg/orders/', orderBody({ amount: '2499.00', reference_id: 'INV-7781' }))).order_id;
  ids.failed = (await call('POST', `/sandbox/orders/${ids.order}/pay/`, { outcome: 'fail' })).payment_id;
  ids.paid = (await call('POST', `/sandbox/orders/${ids.order}/pay/`, { outcome: 'success' })).payment_id;
  await call('POST', '/sandbox/clock/', { advance_seconds: 3600 });
  ids.refund = (await call('POST', '/pg/refunds/', { payment_id: ids.paid, refund_amount: '499.00' })).refund_id;
  await call('POST', `/pg/refunds/${ids.refund}/simulate-status/`, { status: 'PROCESSING' });
  await call('POST', `/pg/refunds/${ids.refund}/simulate-status/`, { status: 'REFUNDED', bank_ref_num: 'ARN42' });
  ids.chargeback = (await call('POST', `/sandbox/payments/${ids.paid}/chargebacks/`, { amount: '100.00' })).chargeback_id;
  await call('POST', `/pg/payments/${ids.paid}/simulate-verification/`, { status: 'ACTION_REQUIRED' });
  await call('POST', `/pg/payments/${ids.paid}/simulate-verification/`, { status: 'UNDER_REVIEW' });
  await call('POST', `/pg/payments/${ids.paid}/simulate-verification/`, { status: 'ACTION_REQUIRED', message: 'the invoice is unreadable' });
  await call('POST', `/pg/payments/${ids.paid}/simulate-verification/`, { status: 'VERIFIED' });
  await call('POST', '/sandbox/clock/', { advance_seconds: 86_400 });
  ids.settlement = (await call('POST', '/pg/settlements/mark-settled/', { payment_uids: [ids.paid], refund_uids: [ids.refund], chargeback_uids: [ids.chargeback] })).settlement_id;
}, 60_000);
afterAll(async () => {
  await h.close();
  tmp.cleanup();
});

const kinds = (steps: any[]) => steps.map((s) => `${s.kind} ${s.id}`);

describe('payment trace on pgw sandbox serve', () => {
  let steps: any[];
  beforeAll(async () => {
    const r = await pgw(['payment', 'trace', ids.paid, '--json']);
    expect(r.code, r.stderr).toBe(0);
    steps = JSON.parse(r.stdout);
  });

  it('every step in time order: order, both attempts, capture, refund and its moves, chargeback, verification, settlement', () => {
    const mine = kinds(steps.filter((s) => s.kind !== 'webhook'));
    expect(mine.slice(0, 5)).toEqual([`order ${ids.order}`, `attempt ${ids.failed}`, `failure ${ids.failed}`, `attempt ${ids.paid}`, `capture ${ids.paid}`]);
    expect(mine).toEqual(expect.arrayContaining([`refund ${ids.refund}`, `chargeback ${ids.chargeback}`, `settlement ${ids.settlement}`, `refund_settlement ${ids.refund}`]));
    expect(steps.filter((s) => s.kind === 'refund_status').map((s) => s.status)).toEqual(['processing', 'refunded']);
    const times = steps.filter((s) => s.at !== null).map((s) => Date.parse(s.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const s of steps) expect(Object.keys(s).slice(0, 4)).toEqual(['at', 'kind', 'id', 'summary']);
  });

  it("the verification's steps: what was asked, filed for review, sent back with the reviewer's words", () => {
    const v = steps.filter((s) => s.kind === 'verification').map((s) => s.summary);
    expect(v[0]).toMatch(/^verification ACTION_REQUIRED: .*asks for business_model, purpose_code/);
    expect(v).toContain('verification filed: UNDER_REVIEW');
    expect(v.some((t) => t.startsWith('verification ACTION_REQUIRED: the invoice is unreadable'))).toBe(true);
  });

  it('the settlement with its UTR and net; every delivery with each attempt and its answer', () => {
    const settlement = steps.find((s) => s.kind === 'settlement');
    expect(settlement).toMatchObject({ id: ids.settlement, payment_id: ids.paid });
    expect(settlement.summary).toMatch(/^settled, UTR \S+: net 2351\.56 INR$/);
    const hooks = steps.filter((s) => s.kind === 'webhook');
    expect(hooks.map((s) => s.event_type)).toEqual(expect.arrayContaining(['PAYMENT_FAILED', 'PAYMENT_SUCCESSFUL', 'REFUND_STATUS_UPDATE', 'PAYMENT_REFUNDED', 'VERIFICATION_NEEDED', 'PAYMENT_SETTLED']));
    for (const s of hooks) {
      expect(s.url).toBe('http://127.0.0.1:9/hook');
      expect(s.attempts.length).toBeGreaterThan(0);
      expect(s.attempts[0].error).toMatch(/refused/);
    }
  });

  it('by order and by the merchant’s reference: the same steps', async () => {
    for (const asked of [ids.order, 'INV-7781']) {
      const r = await pgw(['payment', 'trace', asked, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(kinds(JSON.parse(r.stdout))).toEqual(kinds(steps));
    }
  });

  it('a terminal: one line per step in the short time form, folded within 80 columns', async () => {
    const r = await pgw(['payment', 'trace', ids.paid], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`Payment ${ids.paid} · order ${ids.order}`);
    for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(new RegExp(`\\n\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d  capture\\s+${ids.paid} captured 2499\\.00 INR`));
    expect(r.stderr).not.toContain('not shown');
  });

  it('bad input: another kind of ID, null, a reference nobody has', async () => {
    const refund = await pgw(['payment', 'trace', ids.refund, '-o', 'table']);
    expect([refund.code, refund.stderr]).toEqual([2, expect.stringContaining(`${ids.refund} is a refund: pgw refund get ${ids.refund}`)]);
    const nothing = await pgw(['payment', 'trace', 'null', '-o', 'table']);
    expect([nothing.code, nothing.stderr]).toEqual([2, expect.stringContaining('is not an ID')]);
    const unknown = await pgw(['payment', 'trace', 'INV-0000', '-o', 'table']);
    expect([unknown.code, unknown.stderr]).toEqual([5, expect.stringContaining('no payment with the reference INV-0000')]);
  });
});

describe('payment trace on production, through a gateway that logs every request', () => {
  const agent = new LoggingAgent();
  afterAll(() => agent.close());

  it('reads the documented operations only, no delivery log, and says which steps it cannot see', async () => {
    const added = await runCli(['profile', 'add', 'live', '--env', 'production', '--base-url', h.sandbox.baseUrl, '--client-id', h.merchant.client_id, '--client-secret-stdin'], {
      env: { PGW_CONFIG_DIR: tmp.dir },
      input: `${h.merchant.client_secret}\n`,
    });
    expect(added.code, added.stderr).toBe(0);
    const r = await pgw(['payment', 'trace', ids.paid, '-p', 'live', '--json'], { dispatcher: agent, env: { PGW_BASE_URL: '', PGW_CLIENT_ID: '', PGW_CLIENT_SECRET: '' } });
    expect(r.code, r.stderr).toBe(0);
    expect(agent.log.every(documented)).toBe(true);
    const pattern = (line: string) => line.split('?')[0]!.replace(/(PR|OD|RF)\d+/g, '{id}');
    // Get Payment, Get Order, each refund's settlement (beyond 1.1, 2.3; spec 4.3); the payment is
    // settled, so no verification checklist is read; nothing under /sandbox/.
    expect([...new Set(agent.log.map(pattern))].sort()).toEqual(['GET /pg/orders/{id}/', 'GET /pg/payments/{id}/', 'GET /pg/refunds/{id}/settlement/']);
    const steps = JSON.parse(r.stdout);
    expect(steps.some((s: any) => s.kind === 'webhook')).toBe(false);
    // Without the delivery log: the refund's one recorded move, when it was refunded.
    expect(steps.filter((s: any) => s.kind === 'refund_status').map((s: any) => s.summary)).toEqual(['refunded']);
    expect(r.stderr).toContain("not shown on this gateway: webhook deliveries (only pgw's own sandbox keeps a delivery log");
  });
});
