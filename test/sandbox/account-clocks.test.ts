// Issue 31 items 5 and 6 over HTTP: a clock per account tree (I2) that stays in the calendar (I5).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
let hook: Server | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await new Promise((r) => (hook ? (hook.closeAllConnections(), hook.close(r)) : r(undefined)));
  hook = undefined;
});

const clockOf = async (as: 'merchant' | 'psp', headers: Record<string, string> = {}) => (await h!.call('GET', '/sandbox/clock/', { as, headers })).body;

describe('a clock per account tree', () => {
  it("moves the caller's tree only; a PSP acting for a sub-merchant moves its own tree; a foreign X-Merchant-ID is not found", async () => {
    h = await startHarness();
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string }[];
    const moved = await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 86_400 } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ account: h.merchant.merchant_id, offset_seconds: 86_400 });
    expect((await clockOf('psp')).data).toMatchObject({ account: h.psp.merchant_id, offset_seconds: 0 });

    const viaSub = await h.call('POST', '/sandbox/clock/', { as: 'psp', headers: { 'x-merchant-id': subs[0]!.id }, body: { advance_seconds: 3600 } });
    expect(viaSub.body.data).toMatchObject({ account: h.psp.merchant_id, offset_seconds: 3600 });
    expect((await clockOf('merchant')).data.offset_seconds).toBe(86_400);

    const foreign = await h.call('POST', '/sandbox/clock/', { headers: { 'x-merchant-id': subs[0]!.id }, body: { advance_seconds: 3600 } });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'ERR_MERCHANT_002']);
    expect((await clockOf('psp')).data.offset_seconds).toBe(3600);
    expect((await h.call('GET', '/sandbox/clock/', { headers: { 'x-merchant-id': subs[0]!.id } })).status).toBe(404);
  });

  it("an account's retries follow its own clock: another account's advance makes none of them", async () => {
    h = await startHarness();
    let hits = 0;
    hook = createServer((req, res) => req.resume().on('end', () => (hits++, res.writeHead(500).end())));
    await new Promise<void>((r) => hook!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/psp`;
    expect((await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url } })).status).toBe(200);
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string }[];
    await paidOrder(h, '100.00', { as: 'psp', headers: { 'x-merchant-id': subs[0]!.id } });
    for (let i = 0; i < 200 && hits < 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(hits).toBe(1);
    await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 7200 } }); // the merchant's
    expect(hits).toBe(1);
    const [event] = (await h.call('GET', '/sandbox/events/?limit=1', { as: 'psp' })).body.data;
    expect([event.status, event.attempts]).toEqual(['pending', 1]);
    await h.call('POST', '/sandbox/clock/', { as: 'psp', body: { advance_seconds: 7200 } }); // its own: all four retries
    expect(hits).toBe(5);
    expect((await h.call('GET', `/sandbox/events/${event.id}/`, { as: 'psp' })).body.data.status).toBe('failed');
  });

  it('refuses a move that would leave the calendar (400), and leaves the clock where it was', async () => {
    h = await startHarness();
    expect((await h.call('POST', '/sandbox/clock/', { body: { set: '9999-12-31T23:00:00Z' } })).status).toBe(200);
    const far = await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 3660 * 86_400 } });
    expect([far.status, far.body.error.code]).toEqual([400, 'ERR_VALIDATION_000']);
    expect(far.body.error.details.clock).toContain('after 9999-12-31T23:59:59Z');
    expect(((await clockOf('merchant')).data.now as string).startsWith('9999-12-31T23:')).toBe(true);
    const early = await h.call('POST', '/sandbox/clock/', { body: { set: '1969-07-20T20:17:00Z' } });
    expect(early.status).toBe(400);
  });
});

/** A Create Payment Link body as the vendor's client sends it (beyond 3.1), without expiry_date: 365 days (vendor N9). */
const linkBody = () => ({
  amount: '1499.00',
  reference_id: `lk${Math.random().toString(36).slice(2, 12)}`,
  buyer: { name: 'Jane Roe', email: 'jane@example.com', phone: '+14155550100', address: { city: 'San Francisco', state: 'CA', postal_code: '94103' } },
  product: { description: 'Annual plan', type_of_goods: 'service' },
});

describe('I5 for what the sandbox derives from its clock', () => {
  it('a link whose expiry would pass 9999 is refused, by the helper and by /pg/payment-links/; nothing is written', async () => {
    h = await startHarness();
    expect((await h.call('POST', '/sandbox/clock/', { body: { set: '9999-12-30T00:00:00Z' } })).status).toBe(200);
    const order = await h.call('POST', '/pg/orders/', { body: orderBody({ invoice: { number: 'INV1', date: '9999-12-29' } }) });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const helper = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: order.body.data.order_id, expires_in_seconds: 7 * 86_400 } });
    expect([helper.status, helper.body.error?.code]).toEqual([400, 'ERR_VALIDATION_000']);
    expect(helper.body.error.details.expires_in_seconds).toContain('after 9999-12-31T23:59:59Z');
    const inDay = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: order.body.data.order_id, expires_in_seconds: 86_400 } });
    expect(inDay.status).toBe(200);
    expect(inDay.body.data.expiry_date.startsWith('9999-12-31T')).toBe(true);

    // /pg/payment-links/ without expiry_date means 365 days (vendor N9): past the calendar, refused.
    const link = await h.call('POST', '/pg/payment-links/', { body: linkBody() });
    expect([link.status, link.body.error?.code]).toEqual([400, 'ERR_ORDER_002']);
    expect(link.body.error.details.expiry_date).toContain('after 9999-12-31T23:59:59Z');
    const links = await h.call('GET', '/pg/payment-links/');
    expect(links.body.data.count ?? links.body.count).toBe(1);
  });
});
