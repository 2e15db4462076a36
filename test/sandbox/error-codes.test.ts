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

  it('ERR_MERCHANT_ACCOUNT_002 403: a sub-merchant that is not APPROVED takes no money (issue 45, vendor 7.4), wherever money is taken', async () => {
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string; kyc_status: string }[];
    const sub = subs.find((m) => m.kyc_status === 'APPROVED')!.id;
    const as = { as: 'psp' as const, headers: { 'x-merchant-id': sub } };
    // Made while APPROVED: an order to pay, a subscription to charge, a virtual account to credit.
    const order = (await h.call('POST', '/pg/orders/', { body: orderBody(), ...as })).body.data.order_id;
    const subscription = (await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '10.00' }, ...as })).body.data.uid;
    const vba = (await h.call('POST', '/pg/vba/', { body: {}, ...as })).body.data[0].virtual_account_id;
    const kyc = (status: string) => h.call('POST', `/sandbox/merchants/${sub}/kyc/`, { as: 'psp', body: { kyc_status: status } });
    try {
      for (const status of ['PENDING', 'IN_REVIEW', 'CHANGES_REQUESTED', 'REJECTED']) {
        await kyc(status);
        const tries = [
          await h.call('POST', '/pg/orders/', { body: orderBody(), ...as }),
          await h.call('POST', '/pg/payment-links/', { body: { amount: '10.00', currency: 'INR', reference_id: `gate-${status}`, description: 'x' }, ...as }),
          await h.call('POST', '/sandbox/payment-links/', { body: { order_id: order }, ...as }),
          await h.call('POST', '/sandbox/subscriptions/', { body: { amount: '10.00' }, ...as }),
          await h.call('POST', '/pg/vba/', { body: {}, ...as }),
          await h.call('POST', `/sandbox/orders/${order}/pay/`, { body: { outcome: 'success' }, ...as }),
          await h.call('POST', `/pg/subscriptions/${subscription}/simulate_payment/`, { body: { payment_status: 'SUCCESS' }, ...as }),
        ];
        for (const r of tries) {
          expect([r.status, code(r), r.body.error.message, r.body.error.details.kyc_status], status).toEqual([403, 'ERR_MERCHANT_ACCOUNT_002', 'Merchant account is not active', status]);
          expect(r.body.error.details.authentication).toBe(`sub-merchant ${sub} is not active: its kyc_status is ${status}, and only an APPROVED sub-merchant takes payments (vendor 7.4)`);
        }
        // Money sent to its virtual account is recorded, failed, never dropped (vendor 11.7.6).
        const credit = await h.call('POST', '/pg/vba/simulate-transfer/', {
          body: { virtual_account_id: vba, vba_simulation: { amount: 100, utr: `UTRGATE${status}`, remitter_name: 'A', remitter_account: '000123456789', remitter_ifsc: 'TEST0000001' } },
          ...as,
        });
        expect([credit.status, credit.body.data.status, credit.body.data.status_message]).toEqual([200, 'failed', `Merchant account is not active (kyc_status ${status})`]);
      }
      expect((await h.call('GET', '/pg/payments/', as)).body.data.results.filter((p: { status: string }) => p.status === 'captured')).toEqual([]);
    } finally {
      await kyc('APPROVED');
    }
    expect((await h.call('POST', `/sandbox/orders/${order}/pay/`, { body: { outcome: 'success' }, ...as })).status).toBe(200);
  });
});
