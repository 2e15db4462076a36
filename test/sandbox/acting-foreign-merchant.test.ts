// Issue 31 item 10 (b): an X-Merchant-ID the caller may not act for (a merchant naming the PSP's
// sub-merchant) answers 404 ERR_MERCHANT_002 on /sandbox/events/ and /sandbox/faults/ as on every
// other route, instead of 200 with an empty list; and such a request changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
let subA: string;
let eventId: string;
beforeAll(async () => {
  h = await startHarness();
  const list = await h.call('GET', '/partners/merchants/', { as: 'psp' });
  subA = list.body.data.results[0].id as string;
  await paidOrder(h); // the merchant's own PAYMENT_SUCCESSFUL event
  eventId = (await h.call('GET', '/sandbox/events/')).body.data[0].id as string;
  expect((await h.call('POST', '/sandbox/faults/', { body: { route: 'GET /pg/payments/', status: 503, times: 1 } })).status).toBe(200);
});
afterAll(() => h.close());

const foreign = () => ({ headers: { 'x-merchant-id': subA } });

describe("a merchant naming someone else's sub-merchant", () => {
  it.each([
    ['GET', '/sandbox/events/', undefined],
    ['GET', '/sandbox/events/:event/', undefined],
    ['POST', '/sandbox/events/:event/resend/', { url: 'http://127.0.0.1:9/hook' }],
    ['GET', '/sandbox/faults/', undefined],
    ['POST', '/sandbox/faults/', { route: 'POST /pg/orders/', status: 503 }],
    ['DELETE', '/sandbox/faults/', undefined],
    ['DELETE', '/sandbox/faults/FT0000000000/', undefined],
  ] as const)('%s %s: 404 ERR_MERCHANT_002', async (method, path, body) => {
    const r = await h.call(method, path.replace(':event', eventId), { ...foreign(), body });
    expect(r.status, JSON.stringify(r.body)).toBe(404);
    expect(r.body.error).toEqual({ code: 'ERR_MERCHANT_002', message: 'Merchant not found', details: { merchant_id: `${subA} not found` } });
  });

  it('changed nothing: the merchant still has its one fault and its event one attempt', async () => {
    const faults = await h.call('GET', '/sandbox/faults/');
    expect(faults.body.data.map((f: { route: string }) => f.route)).toEqual(['GET /pg/payments/']);
    expect((await h.call('GET', `/sandbox/events/${eventId}/`)).body.data.attempts).toBeLessThanOrEqual(1);
  });

  it('the same routes with no X-Merchant-ID, or naming itself, answer 200; the PSP naming its own sub-merchant too', async () => {
    expect((await h.call('GET', '/sandbox/events/')).status).toBe(200);
    expect((await h.call('GET', '/sandbox/faults/', { headers: { 'x-merchant-id': h.merchant.merchant_id } })).status).toBe(200);
    expect((await h.call('GET', '/sandbox/events/', { as: 'psp', ...foreign() })).status).toBe(200);
    expect((await h.call('GET', '/sandbox/faults/', { as: 'psp', ...foreign() })).status).toBe(200);
  });
});
