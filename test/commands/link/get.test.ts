// pgw link get: against the sandbox over real HTTP (states, payments newest first, the
// reconciliation line), MockAgent for the arrangement the sandbox does not use, and the
// counting server for --concurrency.
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../../src/output/time.js';
import { orderBody } from '../../sandbox/harness.js';
import { useGatewayStub } from '../../helpers/gateway-stub.js';
import { startCountingGateway, useHarness } from '../payment/lookup-harness.js';

const t = useHarness();

async function newLink(): Promise<{ linkId: string; orderId: string; link: any }> {
  const order = await t.h.call('POST', '/pg/orders/', { body: orderBody({ amount: '1500.50' }) });
  const orderId = order.body.data.order_id;
  const link = await t.h.call('POST', '/sandbox/payment-links/', { body: { order_id: orderId, expires_in_seconds: 3600 } });
  expect(link.status).toBe(200);
  return { linkId: link.body.data.link_id, orderId, link: link.body.data };
}

const pay = (orderId: string, outcome: 'success' | 'fail') => t.h.call('POST', `/sandbox/orders/${orderId}/pay/`, { body: { outcome } });

describe('one link', () => {
  it('active and unpaid: status, expiry in local time, buyer, no payments, no reconciliation', async () => {
    const { linkId, link } = await newLink();
    const r = await t.pgw(['link', 'get', linkId], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Payment link ${linkId}`);
    expect(r.stdout).toContain('\u001b[32mactive');
    expect(r.stdout).toMatch(new RegExp(`expires\\s+${formatTime(link.expiry_date, true)!.replace(/[+]/g, '\\+')}`));
    expect(r.stdout).toMatch(/name\s+Asha Verma/);
    expect(r.stdout).toMatch(/paid by\s+not paid/);
    expect(r.stdout).toContain('Payments (0, newest first)\n  none yet');
    expect(r.stdout).not.toContain('reconciliation');
  });

  it('paid after a failed try: payments newest first, and the reconciliation line (spec 2.8)', async () => {
    const { linkId, orderId } = await newLink();
    const failed = await pay(orderId, 'fail');
    const paid = await pay(orderId, 'success');
    const r = await t.pgw(['link', 'get', linkId, '-o', 'table']);
    expect(r.code).toBe(0);
    const paidId = paid.body.data.payment_id;
    const failedId = failed.body.data.payment_id;
    expect(r.stdout).toMatch(/status\s+paid/);
    expect(r.stdout).toMatch(new RegExp(`paid by\\s+${paidId}`));
    expect(r.stdout).toContain('Payments (2, newest first)');
    expect(r.stdout.indexOf(paidId, r.stdout.indexOf('Payments ('))).toBeLessThan(r.stdout.indexOf(failedId));
    expect(r.stdout).toMatch(/amount\s+1500\.50 INR/);
    expect(r.stdout).toContain(`reconciliation: paid by ${paidId}, not ${linkId}: reconcile and settle by ${paidId}`);
  });

  it('deactivated: reads expired (red) with the reason', async () => {
    const { linkId } = await newLink();
    await t.h.call('POST', `/sandbox/payment-links/${linkId}/deactivate/`);
    const r = await t.pgw(['link', 'get', linkId], { tty: true });
    expect(r.stdout).toContain('\u001b[31mexpired');
    expect(r.stdout).toContain('Payment link was deactivated');
  });

  it('JSON: the data unchanged, ISO timestamps', async () => {
    const { linkId, orderId } = await newLink();
    await pay(orderId, 'success');
    const direct = await t.h.call('GET', `/pg/payment-links/${linkId}/`);
    const r = await t.pgw(['link', 'get', linkId, '--json']);
    expect(JSON.parse(r.stdout)).toEqual(direct.body.data);
  });

  it('unknown: exit 5', async () => {
    const r = await t.pgw(['link', 'get', 'PR0000000000', '-o', 'table']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Payment not found (ERR_PAYMENT_005)');
  });
});

describe('several links', () => {
  it('a table in the order given, marking links to reconcile; rows that worked printed with the first failure code', async () => {
    const a = await newLink();
    const b = await newLink();
    await pay(b.orderId, 'success');
    const r = await t.pgw(['link', 'get', b.linkId, 'PR0000000000', a.linkId], { tty: true });
    expect(r.code).toBe(5);
    expect(r.stdout.indexOf(b.linkId)).toBeLessThan(r.stdout.indexOf(a.linkId));
    expect(r.stdout).toContain('(reconcile)');
    expect(r.stderr).toContain('error: PR0000000000: Payment not found');
  });

  it('- from stdin, JSON array in order', async () => {
    const a = await newLink();
    const b = await newLink();
    const r = await t.pgw(['link', 'get', '-'], { input: `${a.linkId}\n${b.linkId}\n` });
    expect(JSON.parse(r.stdout).map((l: any) => l.link_id)).toEqual([a.linkId, b.linkId]);
  });

  it('--concurrency 2: at most 2 in flight', async () => {
    const ids = Array.from({ length: 5 }, (_, i) => `PR${String(i).padStart(10, '0')}`);
    const gw = await startCountingGateway({ limit: 2, expected: ids.length, idKey: 'link_id' });
    try {
      const r = await t.pgw(['link', 'get', ...ids, '--concurrency', '2'], { env: { PGW_BASE_URL: gw.baseUrl } });
      expect(r.code).toBe(0);
      expect(gw.maxInFlight).toBe(2);
    } finally {
      await gw.close();
    }
  });
});

describe('answers the sandbox does not give (MockAgent)', () => {
  const gw = useGatewayStub({ clientId: 'c', secret: 's' });
  const pgw = (argv: string[]) => gw.pgw([...argv, '-o', 'table']);
  const answer = (id: string, data: unknown) =>
    gw.pool
      .intercept({ path: `/pg/payment-links/${id}/`, method: 'GET' })
      .reply(200, JSON.stringify({ success: true, message: 'ok', data }), { headers: { 'content-type': 'application/json' } });

  const base = (over: Record<string, unknown>) => ({
    payment_id: 'PR0000000001',
    link_id: 'PR0000000001',
    currency: 'INR',
    status: 'paid',
    settlement: { status: 'not_applicable', message: 'm', settlement_details: null },
    payments: [],
    ...over,
  });

  it('the first arrangement (the entry is the link itself): no reconciliation line', async () => {
    answer('PR0000000001', base({ paid_payment_id: 'PR0000000001', payments: [{ payment_id: 'PR0000000001', status: 'captured', amount: '1500', created_at: '2026-01-01T00:00:00.000000Z' }] }));
    const r = await pgw(['link', 'get', 'PR0000000001']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/amount\s+1500.00 INR/);
    expect(r.stdout).not.toContain('reconciliation');
  });

  it('paid on another payment: the reconciliation line names it', async () => {
    answer('PR0000000001', base({ paid_payment_id: 'PR0000000077' }));
    const r = await pgw(['link', 'get', 'PR0000000001']);
    expect(r.stdout).toContain('reconciliation: paid by PR0000000077, not PR0000000001');
    expect(r.stdout).toContain('pgw payment get PR0000000077');
  });

  it('payments out of order are shown newest first', async () => {
    const payments = [
      { payment_id: 'PR_OLD', status: 'failed', amount: '10', created_at: '2026-01-01T00:00:00.000001Z' },
      { payment_id: 'PR_NEW', status: 'captured', amount: '10', created_at: '2026-01-03T00:00:00.000000Z' },
      { payment_id: 'PR_MID', status: 'failed', amount: '10', created_at: '2026-01-02T00:00:00.000000Z' },
    ];
    answer('PR0000000001', base({ payments }));
    const r = await pgw(['link', 'get', 'PR0000000001']);
    const at = (id: string) => r.stdout.indexOf(id);
    expect(at('PR_NEW')).toBeLessThan(at('PR_MID'));
    expect(at('PR_MID')).toBeLessThan(at('PR_OLD'));
  });
});
