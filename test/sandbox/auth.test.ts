import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';
import { sameSecret } from '../../src/sandbox/store/accounts.js';

let h: Harness;
let subA: string;
let subB: string;
beforeAll(async () => {
  h = await startHarness();
  const list = await h.call('GET', '/partners/merchants/', { as: 'psp' });
  [subA, subB] = list.body.data.results.map((m: { id: string }) => m.id);
});
afterAll(() => h.close());

describe('authentication (spec part 5)', () => {
  it('missing credentials: 401 ERR_AUTH_000 "Missing credentials" with details.authentication', async () => {
    const r = await h.call('GET', '/pg/payments/PR0000000000/', { as: 'none' });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      success: false,
      error: { code: 'ERR_AUTH_000', message: 'Missing credentials', details: { authentication: 'missing headers X-Client-ID and X-Client-Secret' } },
    });
    const half = await h.call('GET', '/partners/merchants/', { as: 'none', headers: { 'x-client-id': h.psp.client_id } });
    expect(half.body.error).toMatchObject({ code: 'ERR_AUTH_000', details: { authentication: 'missing header X-Client-Secret' } });
  });

  it('wrong credentials: 401 ERR_AUTH_001', async () => {
    const r = await h.call('POST', '/sandbox/seed/', {
      as: 'none',
      headers: { 'x-client-id': h.merchant.client_id, 'x-client-secret': `${h.merchant.client_secret}x` },
    });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('ERR_AUTH_001');
    const unknown = await h.call('GET', '/pg/payments/PR1/', { as: 'none', headers: { 'x-client-id': 'nobody', 'x-client-secret': 's' } });
    expect(unknown.body.error.code).toBe('ERR_AUTH_001');
  });

  it('credentials are checked before the body is parsed', async () => {
    const r = await h.call('POST', '/pg/orders/', { as: 'none', raw: '{not json' });
    expect(r.status).toBe(401);
  });

  it('partner operations by a non-PSP account: 403', async () => {
    for (const [method, path] of [
      ['GET', '/partners/merchants/'],
      ['POST', '/partners/merchants/'],
      ['PATCH', `/partners/merchants/${subA}/`],
    ] as const) {
      const r = await h.call(method, path, { body: {} });
      expect(r.status, path).toBe(403);
      expect(r.body.error.code).toBe('ERR_AUTH_003');
    }
  });

  it('the seeded accounts: one merchant, one PSP with an APPROVED and a PENDING sub-merchant', async () => {
    expect(h.sandbox.accounts.map((a) => [a.name, a.psp])).toEqual([
      ['Demo Merchant', false],
      ['Demo PSP', true],
    ]);
    for (const a of h.sandbox.accounts) {
      expect(a.merchant_id).toMatch(/^[0-9]+$/);
      expect(a.client_secret.length).toBeGreaterThan(20);
    }
    const list = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    expect(list.body.data.results.map((m: { kyc_status: string }) => m.kyc_status)).toEqual(['APPROVED', 'PENDING']);
  });
});

describe('PSP scoping (spec part 5 rule 3)', () => {
  it('a PSP must name the merchant when creating an order', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody(), as: 'psp' });
    // vendor N4: 401 ERR_AUTH_000, details.authentication naming the header.
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('ERR_AUTH_000');
    expect(r.body.error.details.authentication).toContain('X-Merchant-ID');
  });

  it("a PSP reaches its sub-merchants' payments; the merchant does not, and vice versa", async () => {
    const theirs = await paidOrder(h, '100.00', { as: 'psp', headers: { 'x-merchant-id': subA } });
    expect((await h.call('GET', `/pg/payments/${theirs.paymentId}/`, { as: 'psp' })).status).toBe(200);
    expect((await h.call('GET', `/pg/payments/${theirs.paymentId}/`, { as: 'psp', headers: { 'x-merchant-id': subA } })).status).toBe(200);
    // Narrowed to the other sub-merchant, it is not there.
    expect((await h.call('GET', `/pg/payments/${theirs.paymentId}/`, { as: 'psp', headers: { 'x-merchant-id': subB } })).status).toBe(404);
    const asMerchant = await h.call('GET', `/pg/payments/${theirs.paymentId}/`);
    expect(asMerchant.status).toBe(404);
    expect(asMerchant.body.error).toEqual({ code: 'ERR_PAYMENT_005', message: 'Payment not found', details: { payment_id: `${theirs.paymentId} not found` } });

    const mine = await paidOrder(h, '100.00');
    expect((await h.call('GET', `/pg/payments/${mine.paymentId}/`, { as: 'psp' })).status).toBe(404);
    expect((await h.call('POST', `/sandbox/payments/${mine.paymentId}/refunds/`, { as: 'psp', body: { amount: '1.00' } })).status).toBe(404);
    expect((await h.call('POST', `/sandbox/orders/${mine.orderId}/pay/`, { as: 'psp', body: { outcome: 'success' } })).status).toBe(404);
  });

  it('acting for a merchant outside the caller\'s reach answers "merchant not found"', async () => {
    const psp = await h.call('POST', '/pg/orders/', { body: orderBody(), as: 'psp', headers: { 'x-merchant-id': h.merchant.merchant_id } });
    expect(psp.status).toBe(404);
    expect(psp.body.error.code).toBe('ERR_MERCHANT_002');
    const merchant = await h.call('POST', '/pg/orders/', { body: orderBody(), headers: { 'x-merchant-id': subA } });
    expect(merchant.status).toBe(404);
    // Naming itself is fine.
    const self = await h.call('POST', '/pg/orders/', { body: orderBody(), headers: { 'x-merchant-id': h.merchant.merchant_id } });
    expect(self.status).toBe(201);
    // Reads under a foreign X-Merchant-ID find nothing.
    const mine = await paidOrder(h);
    expect((await h.call('GET', `/pg/payments/${mine.paymentId}/`, { headers: { 'x-merchant-id': subA } })).status).toBe(404);
  });

  it('partner operations ignore X-API-Version and X-Merchant-ID', async () => {
    const r = await h.call('GET', '/partners/merchants/', { as: 'psp', headers: { 'x-api-version': 'garbage', 'x-merchant-id': '1' } });
    expect(r.status).toBe(200);
  });
});

describe('sameSecret: the constant-time comparison of a client secret (without node:crypto, issue 23)', () => {
  it('equal only for the same text: a difference anywhere, a prefix or a longer text is refused', () => {
    const secret = 'sbx_cs_abcdefghijklmnopqrstuvwxyz012345';
    expect(sameSecret(secret, `${secret}`)).toBe(true);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret(secret, `X${secret.slice(1)}`)).toBe(false);
    expect(sameSecret(secret, `${secret.slice(0, -1)}6`)).toBe(false);
    expect(sameSecret(secret, secret.slice(0, -1))).toBe(false);
    expect(sameSecret(secret, `${secret}0`)).toBe(false);
    expect(sameSecret('é', 'e\u0301')).toBe(false);
    // Differences in the high bits of a UTF-16 unit count too.
    expect(sameSecret('\u0100', '\u0000')).toBe(false);
  });
});
