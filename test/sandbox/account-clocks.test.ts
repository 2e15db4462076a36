// Issue 31 items 5 and 6 over HTTP: a clock per account tree (I2) that stays in the calendar (I5).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';

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
