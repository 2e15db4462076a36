// A payment link expires at most 365 days ahead (vendor N9 and 6; was 366 days), counted on the
// sandbox's own clock: exactly 365 days is taken, 365 days and 1 second is refused, on Create
// Payment Link, extend_expiry and the /sandbox/ link helper alike (src/api/schemas/limits.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';

const DAY = 86_400_000;
let h: Harness;
let sandboxNow: number;
beforeAll(async () => {
  // The machine clock stands still, so the sandbox clock does too: the boundary is exact.
  h = await startHarness({ pollWebhooks: false, clock: () => new Date(Date.parse('2026-11-21T10:00:00.000Z')) });
  // The sandbox clock far from the machine's: a bound read from the machine's time would be years off.
  expect((await h.call('POST', '/sandbox/clock/', { body: { set: '2029-03-01T00:00:00Z' } })).status).toBe(200);
  sandboxNow = Date.parse((await h.call('GET', '/sandbox/clock/')).body.data.now);
  expect(sandboxNow).toBe(Date.parse('2029-03-01T00:00:00Z'));
});
afterAll(() => h.close());

const iso = (ms: number) => new Date(ms).toISOString();
const linkBody = (expiry: string) => ({
  amount: '1499.00',
  reference_id: `lk${Math.random().toString(36).slice(2, 12)}`,
  product: { description: 'Annual plan', type_of_goods: 'service' },
  expiry_date: expiry,
});

describe('link expiry: at most 365 days ahead on the sandbox clock (vendor N9)', () => {
  it('Create Payment Link: +365 days is 201, +365 days 1 s is 400 ERR_ORDER_002 on expiry_date', async () => {
    const edge = await h.call('POST', '/pg/payment-links/', { body: linkBody(iso(sandboxNow + 365 * DAY)) });
    expect(edge.status, JSON.stringify(edge.body)).toBe(201);
    expect(edge.body.data.expiry_date).toBe('2030-03-01T00:00:00.000000Z');
    const over = await h.call('POST', '/pg/payment-links/', { body: linkBody(iso(sandboxNow + 365 * DAY + 1000)) });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('ERR_ORDER_002');
    expect(over.body.error.details).toEqual({ expiry_date: 'must be at most 365 days from now' });
  });

  it('extend_expiry: the same bound', async () => {
    const l = (await h.call('POST', '/pg/payment-links/', { body: linkBody(iso(sandboxNow + DAY)) })).body.data;
    const over = await h.call('POST', `/pg/payment-links/${l.link_id}/extend_expiry/`, { body: { expiry_date: iso(sandboxNow + 365 * DAY + 1000) } });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual({ expiry_date: 'must be at most 365 days from now' });
    const edge = await h.call('POST', `/pg/payment-links/${l.link_id}/extend_expiry/`, { body: { expiry_date: iso(sandboxNow + 365 * DAY) } });
    expect(edge.status, JSON.stringify(edge.body)).toBe(200);
    expect(edge.body.data.expiry_date).toBe('2030-03-01T00:00:00.000000Z');
  });

  it('POST /sandbox/payment-links/: expires_in_seconds 365 days is taken, one second more refused', async () => {
    const orderId = (await h.call('POST', '/pg/orders/', { body: orderBody() })).body.data.order_id;
    const over = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: orderId, expires_in_seconds: 365 * 86_400 + 1 } });
    expect(over.status).toBe(400);
    expect(over.body.error.details.expires_in_seconds).toContain('(365 days)');
    const edge = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: orderId, expires_in_seconds: 365 * 86_400 } });
    expect(edge.status, JSON.stringify(edge.body)).toBe(200);
    expect(edge.body.data.expiry_date).toBe('2030-03-01T00:00:00.000000Z');
  });
});
