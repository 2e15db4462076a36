// Every error code of vendor 9.2 that the sandbox can produce, with its documented HTTP status,
// over real HTTP (one place to read them all; the per-resource tests go deeper).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
let prod: Harness;
beforeAll(async () => {
  h = await startHarness();
  prod = await startHarness({ production: true });
});
afterAll(async () => {
  await h.close();
  await prod.close();
});

const code = (r: { body: any }) => r.body?.error?.code;

describe('vendor 9.2 error codes and their HTTP statuses', () => {
  it('authentication: ERR_AUTH_000 401, ERR_AUTH_001 401 (everywhere), ERR_AUTH_003 403', async () => {
    const none = await h.call('GET', '/pg/payments/PR0000000000/', { as: 'none' });
    expect([none.status, code(none)]).toEqual([401, 'ERR_AUTH_000']);
    for (const path of ['/pg/payments/PR0000000000/', '/partners/merchants/', '/pg/refunds/', '/sandbox/webhooks/']) {
      const wrong = await h.call('GET', path, { headers: { 'x-client-secret': 'not-the-secret' } });
      expect([wrong.status, code(wrong), wrong.body.error.message], path).toEqual([401, 'ERR_AUTH_001', 'Invalid credentials']);
      expect(wrong.body.error.details).toHaveProperty('authentication');
    }
    const pspNoHeader = await h.call('POST', '/pg/orders/', { body: orderBody(), as: 'psp' });
    expect([pspNoHeader.status, code(pspNoHeader)]).toEqual([401, 'ERR_AUTH_000']);
    const notPsp = await h.call('GET', '/partners/merchants/');
    expect([notPsp.status, code(notPsp), notPsp.body.error.message]).toEqual([403, 'ERR_AUTH_003', 'This endpoint is only accessible to PSP merchants']);
  });

  it('orders: ERR_ORDER_001 404 (get, status, update), ERR_ORDER_002 400 (create, update, links)', async () => {
    for (const [method, path] of [['GET', '/pg/orders/OD00000000000000/'], ['GET', '/pg/orders/OD00000000000000/status/'], ['PATCH', '/pg/orders/OD00000000000000/']] as const) {
      const r = await h.call(method, path, { body: method === 'PATCH' ? { invoice: { number: 'X' } } : undefined });
      expect([r.status, code(r), r.body.error.message, r.body.error.details], path).toEqual([404, 'ERR_ORDER_001', 'Order not found', { order_id: expect.any(String) }]);
    }
    const create = await h.call('POST', '/pg/orders/', { body: orderBody({ amount: '0' }) });
    expect([create.status, code(create), create.body.error.message]).toEqual([400, 'ERR_ORDER_002', 'Validation error']);
    const order = (await h.call('POST', '/pg/orders/', { body: orderBody() })).body.data.order_id;
    const pan = await h.call('PATCH', `/pg/orders/${order}/`, { body: { buyer: { pan_number: 'ABCD1234' } } });
    expect([pan.status, code(pan)]).toEqual([400, 'ERR_ORDER_002']);
    expect(pan.body.error.details).toHaveProperty(['buyer.pan_number']);
    const link = await h.call('POST', '/pg/payment-links/', { body: { amount: '-1', reference_id: 'x' } });
    expect([link.status, code(link)]).toEqual([400, 'ERR_ORDER_002']);
  });

  it('ERR_PAYMENT_005 404 (payment, link); 40350 500 past the last link page; ERR_SETTLEMENT_002 404 (get, recon)', async () => {
    for (const path of ['/pg/payments/PR0000000000/', '/pg/payment-links/PR0000000000/']) {
      const r = await h.call('GET', path);
      expect([r.status, code(r)], path).toEqual([404, 'ERR_PAYMENT_005']);
    }
    const past = await h.call('GET', '/pg/payment-links/?page=999');
    expect(past.status).toBe(500);
    expect(past.body.error).toEqual({ code: 40350, message: expect.any(String), details: { error: expect.any(String) } });
    for (const path of ['/pg/settlements/ST0000000000/', '/pg/settlements/ST0000000000/recon/']) {
      const r = await h.call('GET', path);
      expect([r.status, code(r)], path).toEqual([404, 'ERR_SETTLEMENT_002']);
    }
  });

  it('refunds: ERR_REFUND_003 404, ERR_REFUND_002 400 (create, simulate, production), bare 404 on simulate', async () => {
    const missing = await h.call('GET', '/pg/refunds/RF0000000000/');
    expect([missing.status, code(missing), missing.body.error.message]).toEqual([404, 'ERR_REFUND_003', 'Refund not found']);
    const bad = await h.call('POST', '/pg/refunds/', { body: { payment_id: 'PR1', refund_amount: '1.234' } });
    expect([bad.status, code(bad), bad.body.error.message]).toEqual([400, 'ERR_REFUND_002', 'Validation error']);
    const { paymentId } = await paidOrder(h, '10.00');
    const rf = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId } })).body.data.refund_id;
    const sim = await h.call('POST', `/pg/refunds/${rf}/simulate-status/`, { body: { status: 'refunded' } });
    expect([sim.status, code(sim)]).toEqual([400, 'ERR_REFUND_002']);
    const bare = await h.call('POST', '/pg/refunds/RF0000000000/simulate-status/', { body: { status: 'FAILED' } });
    expect([bare.status, bare.body]).toEqual([404, { detail: 'Not found.' }]);
    const inProd = await prod.call('POST', `/pg/refunds/${rf}/simulate-status/`, { body: { status: 'FAILED' } });
    expect([inProd.status, code(inProd)]).toEqual([400, 'ERR_REFUND_002']);
  });

  it('ERR_SERVICE_ERROR_000 400 on mark-settled; ERR_MERCHANT_001 400 and 404; PAYMENT_GATEWAY_* 400 / 403 / 503', async () => {
    const mark = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: ['PR0'] } });
    expect([mark.status, code(mark), mark.body.error.message]).toEqual([400, 'ERR_SERVICE_ERROR_000', 'Payment gateway error']);
    const merchantBad = await h.call('POST', '/partners/merchants/', { as: 'psp', body: {} });
    expect([merchantBad.status, code(merchantBad), merchantBad.body.error.message]).toEqual([400, 'ERR_MERCHANT_001', 'Validation error']);
    const merchantMissing = await h.call('GET', '/partners/merchants/1000000000/', { as: 'psp' });
    expect([merchantMissing.status, code(merchantMissing), merchantMissing.body.error.details]).toEqual([404, 'ERR_MERCHANT_001', { merchant_id: '1000000000 not found' }]);
    const sub = (await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '10.00' } })).body.data.uid;
    const invalid = await h.call('POST', `/pg/subscriptions/${sub}/simulate_payment/`, { body: { payment_status: 'MAYBE' } });
    expect([invalid.status, code(invalid)]).toEqual([400, 'PAYMENT_GATEWAY_VALIDATION_ERROR']);
    const upstream = await h.call('POST', `/pg/subscriptions/${sub}/simulate_payment/`, { body: { payment_status: 'SUCCESS', payment_id: 'PR0000000000' } });
    expect([upstream.status, code(upstream)]).toEqual([503, 'PAYMENT_GATEWAY_API_ERROR']);
    const production = await prod.call('POST', `/pg/subscriptions/${sub}/simulate_payment/`, { body: { payment_status: 'SUCCESS' } });
    expect([production.status, code(production), production.body.error.details]).toEqual([403, 'PAYMENT_GATEWAY_ERROR', { error: 'This endpoint is not available in production' }]);
  });
});
