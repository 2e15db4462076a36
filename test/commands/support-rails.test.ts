// The issue-14 verbs without a gateway behind them: every bad flag refused before anything is sent
// (exit 2), --dry-run prints the request, production changes need --yes (exit 6), and the list
// verbs read the page where real gateways put it. The stub fails the test on any unplanned request.
import { describe, expect, it } from 'vitest';
import { STUB_BASE_URL, useGatewayStub } from '../helpers/gateway-stub.js';

const SECRET = 'sekret-support-0123456789';
const PROD = 'https://api-pacb.eximpe.com';
const gw = useGatewayStub({ secret: SECRET });

describe('refused before sending (exit 2)', () => {
  it.each([
    [['refund', 'create', 'PR1', '--amount', '1.234'], '--amount'],
    [['refund', 'create', 'PR1', '--callback-url', 'ftp://x.example'], '--callback-url'],
    [['refund', 'create', '../x'], 'payment_id'],
    [['refund', 'get'], 'no refund_id given'],
    [['link', 'create', '--amount', '-1', '--product-description', 'x'], 'amount'],
    [['link', 'create', '--amount', '10', '--product-description', 'x', '--expires-at', 'tomorrow'], '--expires-at'],
    [['link', 'create', '--amount', '10', '--product-description', 'x', '--expires-at', '2001-01-01T00:00:00Z'], 'in the past'],
    [['link', 'extend', 'PR1'], '--expires-at'],
    [['link', 'extend', 'PR1', '--expires-in', 'soon'], '--expires-in'],
    [['link', 'list', '--page-size', '101'], '--page-size'],
    [['settle', 'list', '--from', '2026-02-30'], '--from'],
    [['settle', 'list', '--from', '2026-03-02', '--to', '2026-03-01'], 'before --from'],
    [['order', 'get', 'OD1/../x'], 'order_id'],
  ])('%j', async (argv, needle) => {
    const r = await gw.pgw([...argv, '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(needle);
    expect(r.stdout).toBe('');
  });
});

describe('--dry-run prints the request and sends nothing', () => {
  it('refund create: refund_amount normalised, the secret redacted', async () => {
    const r = await gw.pgw(['refund', 'create', 'PR0000000001', '--amount', '100', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const preview = JSON.parse(r.stdout);
    expect(preview).toMatchObject({ method: 'POST', url: `${STUB_BASE_URL}/pg/refunds/`, body: { payment_id: 'PR0000000001', refund_amount: '100.00' } });
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('link create: a generated reference_id (printed) and the expiry as UTC with milliseconds', async () => {
    const r = await gw.pgw(['link', 'create', '--amount', '1499', '--product-description', 'Plan', '--expires-in', '1h', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { body } = JSON.parse(r.stdout);
    expect(body).toMatchObject({ amount: '1499.00', product: { description: 'Plan' }, reference_id: expect.stringMatching(/^[a-z0-9]{13}$/) });
    expect(body.expiry_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(r.stderr).toContain(`reference_id ${body.reference_id} (generated)`);
  });

  it('link create without a description is sent as it is (neither the spec nor the docs require one)', async () => {
    const r = await gw.pgw(['link', 'create', '--amount', '10', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { body } = JSON.parse(r.stdout);
    expect(body).toEqual({ amount: '10.00', reference_id: expect.stringMatching(/^[a-z0-9]{13}$/) });
  });

  it('link create --print-template prints a body that --file takes as it is', async () => {
    const t = await gw.pgw(['link', 'create', '--print-template']);
    expect(t.code).toBe(0);
    const template = JSON.parse(t.stdout);
    expect(template).toMatchObject({ amount: '1499.00', product: { description: expect.any(String) }, expiry_date: expect.stringMatching(/Z$/) });
    const r = await gw.pgw(['link', 'create', '--file', '-', '--amount', '10', '--dry-run', '--json'], { input: t.stdout });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body).toEqual({ ...template, amount: '10.00' });
  });

  it('link deactivate and extend', async () => {
    const d = await gw.pgw(['link', 'deactivate', 'PR0000000001', '--dry-run', '--json']);
    expect(JSON.parse(d.stdout)).toMatchObject({ method: 'POST', url: `${STUB_BASE_URL}/pg/payment-links/PR0000000001/deactivate/` });
    const e = await gw.pgw(['link', 'extend', 'PR0000000001', '--expires-at', '2099-01-01T05:30:00+05:30', '--dry-run', '--json']);
    expect(JSON.parse(e.stdout)).toMatchObject({ body: { expiry_date: '2099-01-01T00:00:00.000Z' } });
  });
});

describe('production', () => {
  it.each([
    [['refund', 'create', 'PR1', '--amount', '1']],
    [['link', 'create', '--amount', '1', '--product-description', 'x']],
    [['link', 'extend', 'PR1', '--expires-in', '1d']],
    [['link', 'deactivate', 'PR1']],
  ])('%j needs --yes outside a terminal (exit 6, nothing sent)', async (argv) => {
    const r = await gw.pgw([...argv, '-o', 'table'], { env: { PGW_BASE_URL: PROD } });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain('PRODUCTION');
  });

  it('sandbox refund is refused on production (exit 6) even with --yes', async () => {
    const r = await gw.pgw(['sandbox', 'refund', 'PR1', '--amount', '1', '--yes', '-o', 'table'], { env: { PGW_BASE_URL: PROD } });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('sandbox only');
  });

  it('refund create with --yes is sent (after the repeat guard reads the refund list: vendor 2.3, no envelope)', async () => {
    let sent: unknown;
    gw.agent.get(PROD).intercept({ path: '/pg/refunds/?page_size=1000&payment_id=PR1', method: 'GET' }).reply(200, { count: 0, next: null, previous: null, results: [] });
    gw.agent.get(PROD).intercept({ path: '/pg/refunds/', method: 'POST', body: (b) => ((sent = JSON.parse(b)), true) }).reply(200, {
      success: true,
      message: 'ok',
      data: { refund_id: 'RF1234567890', refund_amount: '1.00', refund_status: 'pending' },
    });
    const r = await gw.pgw(['refund', 'create', 'PR1', '--amount', '1', '--yes', '--json'], { env: { PGW_BASE_URL: PROD } });
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toEqual({ payment_id: 'PR1', refund_amount: '1.00' });
    expect(JSON.parse(r.stdout)).toEqual({ refund_id: 'RF1234567890', refund_amount: '1.00', refund_status: 'pending' });
  });
});

describe('lists as gateways send them', () => {
  it('settle list reads a page at the top level of the body (beyond 4.1) and follows next with --all', async () => {
    const entry = (id: string) => ({ settlement_id: id, utr_number: 'UTR1', settlement_completed_date: '2026-11-01T10:00:00Z', settlement_amount: 10.5 });
    gw.pool.intercept({ path: '/pg/settlements/?page=1&from_date=2026-11-01&settlement_completed_date__gte=2026-11-01', method: 'GET' }).reply(200, {
      success: true,
      count: 2,
      page: 1,
      page_size: 1,
      next: 'https://gw.test/pg/settlements/?page=2',
      results: [entry('ST0000000001')],
    });
    gw.pool.intercept({ path: '/pg/settlements/?page=2&from_date=2026-11-01&settlement_completed_date__gte=2026-11-01', method: 'GET' }).reply(200, {
      success: true,
      count: 2,
      next: null,
      results: [entry('ST0000000002')],
    });
    const r = await gw.pgw(['settle', 'list', '--from', '2026-11-01', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((s: { settlement_id: string }) => s.settlement_id)).toEqual(['ST0000000001', 'ST0000000002']);
  });

  it('link list without results is the gateway misbehaving (exit 1)', async () => {
    gw.pool.intercept({ path: '/pg/payment-links/?page=1&page_size=10', method: 'GET' }).reply(200, { success: true, message: 'ok', data: { count: 0 } });
    const r = await gw.pgw(['link', 'list', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no results array');
  });

  it('link list: a table of link_id, status, amount, reference, buyer, created; the next-page hint on stderr', async () => {
    gw.pool.intercept({ path: '/pg/payment-links/?page=1&page_size=1', method: 'GET' }).reply(200, {
      success: true,
      data: { count: 3, next: 'x', results: [{ payment_id: 'PR0000000009', status: 'ACTIVE', reference_id: 'ref9', buyer: { name: 'Jane' }, amount: 12, currency: 'INR', created_at: '2026-11-01T10:00:00Z' }] },
    });
    const r = await gw.pgw(['link', 'list', '--page-size', '1', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PR0000000009\s*│\s*ACTIVE\s*│\s*12\.00 │ INR\s*│\s*ref9\s*│\s*Jane/);
    expect(r.stderr).toContain('page 1 of 3 (3 links): next with --page 2');
  });
});
