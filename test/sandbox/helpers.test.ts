import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('POST /sandbox/orders/{id}/pay/', () => {
  it('returns the payment as Get Payment does (spec 2.7)', async () => {
    const { paymentId, payment } = await paidOrder(h, '250.00');
    expect(payment).toEqual((await h.call('GET', `/pg/payments/${paymentId}/`)).body.data);
    expect(payment).toMatchObject({
      payment_id: expect.stringMatching(/^PR[0-9]{10}$/),
      order: { amount: '250.00', currency: 'INR', status: 'payment_successful' },
      settlement: null,
      refund: [],
      collection_mode: 'hosted_payment',
      mop_type: 'upi',
      bank_ref_num: expect.stringMatching(/^[0-9]+$/),
      mop_detail: { vpa: 'buyer@upi' },
      status: 'captured',
      status_message: null,
    });
    expect(payment.payment_completed_at).toBe(payment.created_date);
  });

  it('outcome fail, mop_type and vpa choices', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const id = created.body.data.order_id;
    const failed = await h.call('POST', `/sandbox/orders/${id}/pay/`, { body: { outcome: 'fail', mop_type: 'NET_BANKING' } });
    expect(failed.body.data).toMatchObject({ status: 'failed', mop_type: 'net_banking', bank_ref_num: null, payment_completed_at: null });
    expect(failed.body.data.order.status).toBe('failed');
    const magic = await h.call('POST', `/sandbox/orders/${id}/pay/`, { body: { outcome: 'success', vpa: 'failure@upi' } });
    expect(magic.body.data.status).toBe('failed');
    const ok = await h.call('POST', `/sandbox/orders/${id}/pay/`, { body: { outcome: 'success', vpa: 'asha@okaxis' } });
    expect(ok.body.data).toMatchObject({ status: 'captured', mop_detail: { vpa: 'asha@okaxis' } });
    const twice = await h.call('POST', `/sandbox/orders/${id}/pay/`, { body: { outcome: 'success' } });
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe('ERR_ORDER_003');
    expect((await h.call('POST', '/sandbox/orders/OD0/pay/', { body: { outcome: 'success' } })).body.error.code).toBe('ERR_ORDER_001');
  });
});

describe('refunds and chargebacks', () => {
  it('never exceed what was captured, together', async () => {
    const { paymentId } = await paidOrder(h, '100.00');
    const refund = (amount: string) => h.call('POST', `/sandbox/payments/${paymentId}/refunds/`, { body: { amount } });
    const chargeback = (amount: string) => h.call('POST', `/sandbox/payments/${paymentId}/chargebacks/`, { body: { amount } });
    expect((await refund('60.00')).status).toBe(200);
    const over = await refund('40.01');
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'ERR_REFUND_002', details: { amount: expect.stringContaining('40.00') } });
    expect((await chargeback('40.00')).body.data).toMatchObject({ payment_id: paymentId, amount: '40.00', status: 'open' });
    expect((await chargeback('0.01')).body.error.code).toBe('ERR_CHARGEBACK_002');
    const p = await h.call('GET', `/pg/payments/${paymentId}/`);
    expect(p.body.data.refund.map((r: { refund_amount: number }) => r.refund_amount)).toEqual([60]);
  });

  it('need a captured payment and a valid amount', async () => {
    const failed = await paidOrder(h, '100.00', { outcome: 'fail' });
    const r = await h.call('POST', `/sandbox/payments/${failed.paymentId}/refunds/`, { body: { amount: '1.00' } });
    expect(r.body.error).toEqual({ code: 'ERR_REFUND_001', message: 'Payment is not captured', details: { payment_id: `${failed.paymentId} is not captured` } });
    const bad = await h.call('POST', `/sandbox/payments/${failed.paymentId}/chargebacks/`, { body: { amount: '1.001' } });
    expect(bad.body.error.details).toHaveProperty('amount');
    expect((await h.call('POST', '/sandbox/payments/PR0/refunds/', { body: { amount: '1.00' } })).status).toBe(404);
  });
});

describe('seed and reset', () => {
  it('seed: a few orders, captured payments, a refund, a link and a settlement', async () => {
    const r = await h.call('POST', '/sandbox/seed/', {});
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.orders).toHaveLength(4);
    expect(d.payments).toHaveLength(3);
    expect(d.refunds).toHaveLength(1);
    expect((await h.call('GET', `/pg/payment-links/${d.link_id}/`)).body.data.status).toBe('active');
    const s = await h.call('GET', `/pg/settlements/${d.settlement_id}/`);
    expect(s.body.data.transactions[0].transaction_id).toBe(d.payments[0]);
    for (const id of d.payments) expect((await h.call('GET', `/pg/payments/${id}/`)).body.data.status).toBe('captured');
  });

  it('seed with N: N captured payments, all distinct, in one go', async () => {
    const r = await h.call('POST', '/sandbox/seed/', { body: { payments: 500 } });
    expect(r.body.data.payments).toHaveLength(500);
    expect(new Set(r.body.data.payments).size).toBe(500);
    expect(r.body.data).toMatchObject({ link_id: null, settlement_id: null });
    const some = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: r.body.data.payments.slice(0, 100) } });
    expect(some.status).toBe(200);
  });

  it('seed for a PSP: for the named sub-merchant, or the PSP itself', async () => {
    const subs = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    // The PENDING sub-merchant takes no payments, so it gets no demo data either; nothing is written (issue 45).
    const pending = subs.body.data.results[1].id;
    const refused = await h.call('POST', '/sandbox/seed/', { as: 'psp', headers: { 'x-merchant-id': pending }, body: { payments: 2 } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ERR_MERCHANT_ACCOUNT_002', details: { kyc_status: 'PENDING' } });
    expect((await h.call('GET', '/pg/payments/', { as: 'psp', headers: { 'x-merchant-id': pending } })).body.data.count).toBe(0);
    const r = await h.call('POST', '/sandbox/seed/', { as: 'psp', headers: { 'x-merchant-id': subs.body.data.results[0].id }, body: { payments: 2 } });
    expect(r.status).toBe(200);
    expect((await h.call('GET', `/pg/payments/${r.body.data.payments[0]}/`)).status).toBe(404);
    expect((await h.call('GET', `/pg/payments/${r.body.data.payments[0]}/`, { as: 'psp' })).status).toBe(200);
  });

  it('reset empties the data and keeps the accounts and credentials', async () => {
    const { paymentId } = await paidOrder(h);
    const created = await h.call('POST', '/partners/merchants/', { as: 'psp', body: {} });
    expect(created.status).toBe(400);
    const r = await h.call('POST', '/sandbox/reset/', {});
    expect(r.body).toEqual({ success: true, message: 'sandbox reset successfully', data: { reset: true, merchant_ids: [h.merchant.merchant_id] } });
    expect((await h.call('GET', `/pg/payments/${paymentId}/`)).status).toBe(404);
    const list = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    expect(list.body.data.count).toBe(2);
    expect((await paidOrder(h)).paymentId).toMatch(/^PR/);
  });
});
