import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const mark = (body: unknown, as: 'merchant' | 'psp' = 'merchant', headers?: Record<string, string>) =>
  h.call('POST', '/pg/settlements/mark-settled/', { body, as, headers });

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('the spec 4.6 check case, end to end', () => {
  it('payment 1000.00, refund 100.00, chargeback 50.00 → 791.00 / 50.00 / 9.00', async () => {
    const { paymentId } = await paidOrder(h, '1000.00');
    // The real Create Refund (beyond 2.1): the refund mark-settled debits is the one it made.
    const refund = await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '100' } });
    expect(refund.body.data).toMatchObject({
      refund_id: expect.stringMatching(/^RF[0-9]{10}$/),
      payment_id: paymentId,
      refund_amount: 100,
      refund_status: 'initiated',
      settlement_id: null,
      created_at: expect.stringMatching(TIMESTAMP),
    });
    const cb = await h.call('POST', `/sandbox/payments/${paymentId}/chargebacks/`, { body: { amount: '50' } });
    expect(cb.body.data).toMatchObject({ chargeback_id: expect.stringMatching(/^CB[0-9]{10}$/), amount: '50.00' });

    const r = await mark({ payment_uids: [paymentId], refund_uids: [refund.body.data.refund_id], chargeback_uids: [cb.body.data.chargeback_id] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message: 'payments marked as settled successfully',
      data: {
        settlement_id: expect.stringMatching(/^ST[0-9]{10}$/),
        utr_number: expect.any(String),
        settlement_completed_at: expect.stringMatching(TIMESTAMP),
        forex_rate: '96',
        settlement_amount: '791.00',
        settlement_charges: '50.00',
        settlement_gst: '9.00',
      },
    });
    const sid = r.body.data.settlement_id;

    // Get Settlement: the same values as JSON numbers (spec 2.9).
    const s = await h.call('GET', `/pg/settlements/${sid}/`);
    expect(s.status).toBe(200);
    expect(s.body.data).toEqual({
      settlement_id: sid,
      utr_number: r.body.data.utr_number,
      settlement_completed_date: r.body.data.settlement_completed_at,
      forex_rate: 96,
      settlement_amount: 791,
      settlement_currency: 'INR',
      transactions: [
        {
          settlement_type: 'capture',
          transaction_id: paymentId,
          transaction_amount: 1000,
          merchant_service_fee: 50,
          merchant_service_tax: 9,
          merchant_net_amount: 941,
          mop_type: 'upi',
          transaction_currency: 'INR',
          forex_rate: 96,
        },
        expect.objectContaining({ settlement_type: 'refund', transaction_id: refund.body.data.refund_id, transaction_amount: 100, merchant_net_amount: -100 }),
        expect.objectContaining({ settlement_type: 'chargeback', transaction_id: cb.body.data.chargeback_id, transaction_amount: 50, merchant_net_amount: -50 }),
      ],
    });

    // Get Payment's settlement object (spec 2.7) and its refund array.
    const p = await h.call('GET', `/pg/payments/${paymentId}/`);
    expect(p.body.data.settlement).toEqual({
      id: sid,
      settlement_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      settlement_status: 'SETTLED',
      settlement_completed_at: r.body.data.settlement_completed_at,
      settlement_amount: '791.00',
      settlement_currency: 'INR',
      utr_number: r.body.data.utr_number,
      number_of_transactions: 1,
      created_date: expect.stringMatching(TIMESTAMP),
      merchant_service_fee: '50.00',
      merchant_service_tax: '9.00',
      merchant_net_amount: '941.00',
      forex_rate: '96',
    });
    expect(p.body.data.settlement_status).toBe('SETTLED');
    expect(p.body.data.refund).toEqual([
      expect.objectContaining({ refund_id: refund.body.data.refund_id, refund_amount: 100, refund_status: 'initiated', created_at: refund.body.data.created_at }),
    ]);

    // Get Settlement also takes the UUID-like settlement_id of the payment's settlement object.
    const byUuid = await h.call('GET', `/pg/settlements/${p.body.data.settlement.settlement_id}/`);
    expect(byUuid.body.data.settlement_id).toBe(sid);
  });
});

describe('mark-settled rules (spec 4.6, part 7)', () => {
  it('a batch with one bad UID writes nothing; categories without failure are []', async () => {
    const a = await paidOrder(h, '200.00');
    const b = await paidOrder(h, '300.00');
    const r = await mark({ payment_uids: [a.paymentId, 'PR0000000000', b.paymentId] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      error: {
        code: 'ERR_SERVICE_ERROR_000',
        message: 'Payment gateway error',
        details: { payment_uids: ['PR0000000000 not found'], refund_uids: [], chargeback_uids: [] },
      },
    });
    for (const id of [a.paymentId, b.paymentId]) {
      expect((await h.call('GET', `/pg/payments/${id}/`)).body.data.settlement).toBeNull();
    }
    // And both can still be settled together.
    const ok = await mark({ payment_uids: [a.paymentId, b.paymentId] });
    expect(ok.body.data).toMatchObject({ settlement_amount: '470.50', settlement_charges: '25.00', settlement_gst: '4.50' });
  });

  it('already settled and not captured, each category giving only its first failure', async () => {
    const settled = await paidOrder(h, '100.00');
    await mark({ payment_uids: [settled.paymentId] });
    const failed = await paidOrder(h, '100.00', { outcome: 'fail' });
    const r = await mark({ payment_uids: [settled.paymentId, failed.paymentId], refund_uids: ['RF0000000000'], chargeback_uids: ['CB1', 'CB2'] });
    expect(r.body.error.details).toEqual({
      payment_uids: [`${settled.paymentId} is already settled`],
      refund_uids: ['RF0000000000 not found'],
      chargeback_uids: ['CB1 not found'],
    });
    const r2 = await mark({ payment_uids: [failed.paymentId] });
    expect(r2.body.error.details.payment_uids).toEqual([`${failed.paymentId} is not captured`]);
  });

  it('a payment on another gateway is refused', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const paid = await h.call('POST', `/sandbox/orders/${created.body.data.order_id}/pay/`, { body: { outcome: 'success', gateway: 'razorpay' } });
    const r = await mark({ payment_uids: [paid.body.data.payment_id] });
    expect(r.body.error.details.payment_uids).toEqual([`${paid.body.data.payment_id} is not on the simulator gateway`]);
  });

  it('a refund already settled is refused, and the same UID twice', async () => {
    const p = await paidOrder(h, '500.00');
    const rf = await h.call('POST', `/sandbox/payments/${p.paymentId}/refunds/`, { body: { amount: '10.00' } });
    await mark({ payment_uids: [p.paymentId], refund_uids: [rf.body.data.refund_id] });
    const q = await paidOrder(h, '500.00');
    const r = await mark({ payment_uids: [q.paymentId, q.paymentId], refund_uids: [rf.body.data.refund_id] });
    expect(r.body.error.details).toEqual({
      payment_uids: [`${q.paymentId} appears more than once`],
      refund_uids: [`${rf.body.data.refund_id} is already settled`],
      chargeback_uids: [],
    });
  });

  it("another merchant's payment is indistinguishable from a nonexistent one (rule 2)", async () => {
    const subs = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    const sub = { 'x-merchant-id': subs.body.data.results[0].id };
    const theirs = await paidOrder(h, '100.00', { as: 'psp', headers: sub });
    const r = await mark({ payment_uids: [theirs.paymentId] });
    expect(r.body.error.details.payment_uids).toEqual([`${theirs.paymentId} not found`]);
    // The PSP settles it, with or without naming the sub-merchant.
    const ok = await mark({ payment_uids: [theirs.paymentId] }, 'psp', sub);
    expect(ok.status).toBe(200);
    const s = await h.call('GET', `/pg/settlements/${ok.body.data.settlement_id}/`, { as: 'psp' });
    expect(s.status).toBe(200);
    expect((await h.call('GET', `/pg/settlements/${ok.body.data.settlement_id}/`)).status).toBe(404);
  });

  it('a body that fails validation is ERR_SERVICE_ERROR_000 with the problem in its category', async () => {
    const r = await mark({ payment_uids: [] });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      code: 'ERR_SERVICE_ERROR_000',
      message: 'Payment gateway error',
      details: { payment_uids: ['payment_uids: must contain at least 1 payment ID'], refund_uids: [], chargeback_uids: [] },
    });
    const r2 = await mark({ payment_uids: ['PR1'], refund_uids: 'RF1' });
    expect(r2.body.error.details.refund_uids).toEqual(['refund_uids: must be an array of refund IDs']);
  });

  it('two concurrent mark-settled calls on one payment: exactly one wins', async () => {
    const p = await paidOrder(h, '100.00');
    const results = await Promise.all([mark({ payment_uids: [p.paymentId] }), mark({ payment_uids: [p.paymentId] })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});

describe('GET /pg/settlements/{id}/ (spec 4.5)', () => {
  it('an unknown id is ERR_SETTLEMENT_002', async () => {
    const r = await h.call('GET', '/pg/settlements/ST0000000000/');
    expect(r.status).toBe(404);
    expect(r.body.error).toEqual({ code: 'ERR_SETTLEMENT_002', message: 'Settlement not found', details: { settlement_id: 'ST0000000000 not found' } });
  });
});

describe('production mode', () => {
  it('mark-settled answers 400 and the /sandbox/ helpers do not exist', async () => {
    const prod = await startHarness({ production: true });
    try {
      const r = await prod.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: ['PR1'] } });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('ERR_SERVICE_ERROR_000');
      expect((await prod.call('POST', '/sandbox/seed/', { body: {} })).status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
