// GET /pg/payments/ (vendor 3.1) over real HTTP: every documented filter, paging in the envelope,
// the documented entry, scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';

let h: Harness;
let nowMs = Date.parse('2026-11-10T09:00:00.000Z');
beforeAll(async () => {
  h = await startHarness({ clock: () => new Date(nowMs) });
});
afterAll(() => h.close());

async function pay(over: Record<string, unknown>, outcome = 'success', mop = 'upi', as: 'merchant' | 'psp' = 'merchant', headers: Record<string, string> = {}) {
  const order = (await h.call('POST', '/pg/orders/', { body: orderBody(over), as, headers })).body.data.order_id as string;
  const paid = await h.call('POST', `/sandbox/orders/${order}/pay/`, { body: { outcome, mop_type: mop }, as, headers });
  return { orderId: order, paymentId: paid.body.data.payment_id as string };
}

describe('GET /pg/payments/ (vendor 3.1)', () => {
  it('filters: reference_id, order_id, payment_id, buyer_name (part, any case), status, mop_type, currency, days', async () => {
    const a = await pay({ reference_id: 'shop-1042', amount: '450.00', buyer: { ...(orderBody().buyer as object), name: 'Ravi Shankar' } });
    nowMs += 86_400_000;
    const b = await pay({ reference_id: 'shop-1043', amount: '99.50' }, 'fail', 'credit_card');
    const ids = async (q: string) => {
      const r = await h.call('GET', `/pg/payments/${q}`);
      expect(r.status, q).toBe(200);
      return r.body.data.results.map((p: { payment_id: string }) => p.payment_id);
    };
    expect(await ids('?reference_id=shop-1042')).toEqual([a.paymentId]);
    expect(await ids(`?order_id=${b.orderId}`)).toEqual([b.paymentId]);
    expect(await ids(`?payment_id=${a.paymentId}`)).toEqual([a.paymentId]);
    expect(await ids('?buyer_name=SHANK')).toEqual([a.paymentId]);
    expect(await ids('?buyer_name=%25')).toEqual([]);
    expect(await ids('?status=failed&reference_id=shop-1043')).toEqual([b.paymentId]);
    expect(await ids('?mop_type=credit_card&from_created_at=2026-11-11')).toEqual([b.paymentId]);
    expect(await ids('?to_created_at=2026-11-10')).toEqual([a.paymentId]);
    expect(await ids('?currency=usd')).toEqual([]);
    expect((await ids('?currency=INR')).slice(0, 2)).toEqual([b.paymentId, a.paymentId]);

    const one = await h.call('GET', '/pg/payments/?reference_id=shop-1042');
    expect(one.body.message).toBe('Domestic payment requests retrieved successfully');
    expect(one.body.data).toMatchObject({ count: 1, page: 1, page_size: 10, next: null, previous: null });
    expect(one.body.data.results[0]).toEqual({
      payment_id: a.paymentId,
      merchant: { id: h.merchant.merchant_id, name: 'Demo Merchant' },
      order_id: a.orderId,
      invoice_number: 'INV-1',
      reference_id: 'shop-1042',
      buyer: { name: 'Ravi Shankar', email: 'asha@example.com', phone: '+919876543210' },
      amount: { amount: '450.00', total_amount: '450.00', currency: 'INR' },
      created_at: '2026-11-10T09:00:00.000000Z',
      comment: null,
      mop_type: 'upi',
      status: 'captured',
    });
  });

  it('paging, refusals and scoping', async () => {
    for (let i = 0; i < 3; i++) await pay({ reference_id: `pg-${i}` });
    const first = await h.call('GET', '/pg/payments/?page_size=2');
    expect(first.body.data.results).toHaveLength(2);
    expect(first.body.data.next).toContain('page=2');
    expect((await h.call('GET', '/pg/payments/?status=done')).body.error).toMatchObject({ code: 'ERR_VALIDATION_000', details: { status: expect.any(String) } });
    expect((await h.call('GET', '/pg/payments/?from_created_at=2026-02-30')).status).toBe(400);
    expect((await h.call('GET', '/pg/payments/?page_size=1001')).status).toBe(400);
    // The PSP sees none of the merchant's payments, even asking by its reference.
    expect((await h.call('GET', '/pg/payments/?reference_id=pg-0', { as: 'psp' })).body.data.count).toBe(0);
    expect((await h.call('GET', `/pg/payments/?merchant_id=${h.merchant.merchant_id}`, { as: 'psp' })).body.data.count).toBe(0);
  });
});

describe('what the spec leaves open, as pgw payment list and order get use it (issue 33 items 5-6)', () => {
  it('invoice_number is honoured exactly, and carried in next', async () => {
    const a = await pay({ reference_id: 'inv-filter-1', invoice: { number: 'INV-X-1', date: '2026-11-10' } });
    const b = await pay({ reference_id: 'inv-filter-2', invoice: { number: 'INV-X-10', date: '2026-11-10' } });
    const r = await h.call('GET', '/pg/payments/?invoice_number=INV-X-1&page_size=1');
    expect(r.status).toBe(200);
    expect(r.body.data.results.map((p: { payment_id: string }) => p.payment_id)).toEqual([a.paymentId]);
    expect(r.body.data.count).toBe(1);
    const other = await h.call('GET', '/pg/payments/?invoice_number=INV-X-10');
    expect(other.body.data.results.map((p: { payment_id: string }) => p.payment_id)).toEqual([b.paymentId]);
  });

  it("order details' payment entries carry refund and chargeback arrays, as Get Payment does", async () => {
    const p = await pay({ reference_id: 'debits-1', amount: '100.00' });
    const refund = (await h.call('POST', '/pg/refunds/', { body: { payment_id: p.paymentId, refund_amount: '60.00' } })).body.data;
    const cb = await h.call('POST', `/sandbox/payments/${p.paymentId}/chargebacks/`, { body: { amount: '40.00' } });
    expect(cb.status, JSON.stringify(cb.body)).toBeLessThan(300);
    const order = (await h.call('GET', `/pg/orders/${p.orderId}/`)).body.data;
    const entry = order.payments[0];
    expect(entry.amount).toBe('100.00');
    expect(entry.refund).toEqual([expect.objectContaining({ refund_id: refund.refund_id, refund_amount: 60, refund_status: 'initiated' })]);
    expect(entry.chargeback).toEqual([expect.objectContaining({ chargeback_id: expect.stringMatching(/^CB/), payment_id: p.paymentId, chargeback_amount: 40 })]);
    const payment = (await h.call('GET', `/pg/payments/${p.paymentId}/`)).body.data;
    expect(payment.chargeback).toEqual(entry.chargeback);
    expect(payment.refund).toEqual(entry.refund);
  });
});
