import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const simulate = (uid: string, body: unknown, as: 'merchant' | 'psp' = 'merchant') =>
  h.call('POST', `/pg/subscriptions/${uid}/simulate_payment/`, { body, as });

describe('POST /pg/subscriptions/{uid}/simulate_payment/ (spec 4.7)', () => {
  it('creates a subscription with the helper and simulates a payment', async () => {
    const sub = await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '499' } });
    expect(sub.body.data).toEqual({ uid: expect.any(String), amount: '499.00', status: 'active', created_at: expect.any(String) });
    const uid = sub.body.data.uid;

    const ok = await simulate(uid, { payment_status: 'SUCCESS' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      success: true,
      message: 'payment simulation triggered successfully',
      data: { payment_id: expect.stringMatching(/^PR[0-9]{10}$/), payment_status: 'SUCCESS' },
    });
    const p = await h.call('GET', `/pg/payments/${ok.body.data.payment_id}/`);
    expect(p.body.data).toMatchObject({ status: 'captured', order: { amount: '499.00' } });

    // Targeting that payment flips it.
    const flip = await simulate(uid, { payment_status: 'FAILED', payment_id: ok.body.data.payment_id });
    expect(flip.body.data).toEqual({ payment_id: ok.body.data.payment_id, payment_status: 'FAILED' });
    expect((await h.call('GET', `/pg/payments/${ok.body.data.payment_id}/`)).body.data.status).toBe('failed');

    // A new charge can be settled like any payment.
    const again = await simulate(uid, { payment_status: 'SUCCESS' });
    const settled = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [again.body.data.payment_id] } });
    expect(settled.body.data.settlement_charges).toBe('24.95');
    const frozen = await simulate(uid, { payment_status: 'FAILED', payment_id: again.body.data.payment_id });
    expect(frozen.body.error.code).toBe('PAYMENT_GATEWAY_API_ERROR');
  });

  it('a payment_status outside SUCCESS, FAILED: PAYMENT_GATEWAY_VALIDATION_ERROR', async () => {
    const sub = await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '10.00' } });
    for (const body of [{ payment_status: 'success' }, {}, { payment_status: 1 }]) {
      const r = await simulate(sub.body.data.uid, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual({
        code: 'PAYMENT_GATEWAY_VALIDATION_ERROR',
        message: 'Invalid payment_status',
        details: { payment_status: 'must be one of SUCCESS, FAILED' },
      });
    }
  });

  it('a payment_id that is not the subscription\'s: PAYMENT_GATEWAY_API_ERROR (an upstream failure)', async () => {
    const sub = await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '10.00' } });
    const r = await simulate(sub.body.data.uid, { payment_status: 'SUCCESS', payment_id: 'PR0000000000' });
    expect(r.status).toBe(503);
    expect(r.body.error).toMatchObject({ code: 'PAYMENT_GATEWAY_API_ERROR', message: 'Payment gateway API error', details: { error: expect.any(String) } });
  });

  it('an unknown or foreign subscription is not found', async () => {
    expect((await simulate('nope', { payment_status: 'SUCCESS' })).body.error.code).toBe('ERR_SUBSCRIPTION_002');
    const sub = await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '10.00' } });
    expect((await simulate(sub.body.data.uid, { payment_status: 'SUCCESS' }, 'psp')).status).toBe(404);
  });

  it('in production: PAYMENT_GATEWAY_ERROR', async () => {
    const prod = await startHarness({ production: true });
    try {
      const r = await prod.call('POST', '/pg/subscriptions/x/simulate_payment/', { body: { payment_status: 'SUCCESS' } });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'PAYMENT_GATEWAY_ERROR', message: 'This endpoint is not available in production' });
    } finally {
      await prod.close();
    }
  });
});

describe('the amount limit of spec part 8 (issue 13 item 6)', () => {
  it('a subscription amount above 10,000,000.00 is refused; the limit itself is accepted', async () => {
    for (const amount of ['10000000.01', '99999999999999999.99']) {
      const r = await h.call('POST', '/sandbox/subscriptions/', { body: { amount } });
      expect(r.status, amount).toBe(400);
      expect(r.body.error.details.amount).toMatch(/at most 10000000\.00/);
    }
    const top = await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '10000000.00' } });
    expect(top.status).toBe(200);
  });
});
