// vendor N7: an S2S UPI intent order answers with expires_at (creation + 5 minutes, UTC) and, in a
// sandbox, test_simulator_url: a page that completes the intent without a UPI app. The page is the
// sandbox's own buyer page; it pays until expires_at on the sandbox clock and refuses after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  // The machine clock under the sandbox clock moves 1 ms per reading, never with real time, so
  // "4 minutes 59 seconds later" is exactly that however slow the machine is.
  let machineMs = Date.parse('2026-11-21T10:00:00.000Z');
  h = await startHarness({ pollWebhooks: false, clock: () => new Date(machineMs++) });
});
afterAll(() => h.close());

const advance = (seconds: number) => h.call('POST', '/sandbox/clock/', { body: { advance_seconds: seconds } });

async function intentOrder() {
  const r = await h.call('POST', '/pg/orders/', { body: orderBody({ collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'intent' }) });
  expect(r.status).toBe(201);
  return r.body.data as { order_id: string; intent_uri: string; expires_at: string; test_simulator_url: string };
}

const form = (outcome: string) => ({ as: 'none' as const, raw: `outcome=${outcome}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('S2S UPI intent: expires_at and test_simulator_url (vendor N7)', () => {
  it('expires_at is creation + 5 minutes in UTC, whole seconds, never earlier', async () => {
    const data = await intentOrder();
    const details = await h.call('GET', `/pg/orders/${data.order_id}/`);
    const created = Date.parse(details.body.data.created_at);
    const expires = Date.parse(data.expires_at);
    expect(data.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(expires - created).toBeGreaterThanOrEqual(300_000);
    expect(expires - created).toBeLessThan(301_000);
  });

  it('the simulator page approves the intent: the order is paid by UPI, and the buyer is not redirected', async () => {
    const data = await intentOrder();
    const url = new URL(data.test_simulator_url);
    expect(url.origin).toBe(h.sandbox.baseUrl);
    const shown = await h.call('GET', url.pathname, { as: 'none' });
    expect(shown.status).toBe(200);
    expect(String(shown.body)).toContain('UPI intent simulator');
    expect(String(shown.body)).toContain(data.order_id);
    expect(String(shown.body)).toContain(data.expires_at);
    const paid = await h.call('POST', url.pathname, form('success'));
    expect(paid.status).toBe(200); // not 303 to return_url: an S2S intent does not redirect
    expect(String(paid.body)).toMatch(/Payment PR\d+ for order OD\d+ is captured/i);
    const status = await h.call('GET', `/pg/orders/${data.order_id}/`);
    expect(status.body.data.status).toBe('payment_successful');
    expect(status.body.data.payments[0].mop_type).toBe('upi');
    expect((await h.call('GET', url.pathname, { as: 'none' })).status).toBe(409);
  });

  it('Decline records a failed try; the intent can still be approved before it expires', async () => {
    const data = await intentOrder();
    const path = new URL(data.test_simulator_url).pathname;
    expect((await h.call('POST', path, form('fail'))).status).toBe(200);
    expect((await h.call('GET', `/pg/orders/${data.order_id}/`)).body.data.status).toBe('failed');
    expect((await h.call('POST', path, form('success'))).status).toBe(200);
    expect((await h.call('GET', `/pg/orders/${data.order_id}/`)).body.data.status).toBe('payment_successful');
  });

  it('after expires_at on the sandbox clock the page refuses (410) and nothing is paid', async () => {
    const data = await intentOrder();
    const path = new URL(data.test_simulator_url).pathname;
    await advance(4 * 60 + 58);
    expect((await h.call('GET', path, { as: 'none' })).status).toBe(200);
    await advance(3);
    const gone = await h.call('GET', path, { as: 'none' });
    expect(gone.status).toBe(410);
    expect(String(gone.body)).toContain(`expired at ${data.expires_at}`);
    expect((await h.call('POST', path, form('success'))).status).toBe(410);
    const order = (await h.call('GET', `/pg/orders/${data.order_id}/`)).body.data;
    expect(order.status).toBe('payment_pending');
    expect(order.payments).toEqual([]);
  });

  it('hosted checkout keeps its checkout page; collection and card orders get neither field', async () => {
    const hosted = await h.call('POST', '/pg/orders/', { body: orderBody() });

    const page = await h.call('GET', `/checkout/${hosted.body.data.session_id}/`, { as: 'none' });
    expect(page.status).toBe(200);
    expect(String(page.body)).not.toContain('UPI intent simulator');
    const collect = await h.call('POST', '/pg/orders/', { body: orderBody({ collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'collection' }) });
    expect(collect.body.data).not.toHaveProperty('expires_at');
    expect(collect.body.data).not.toHaveProperty('test_simulator_url');
  });
});
