// return_url on create order: the vendor's newest v3 orders file makes it optional (vendor N6),
// spec 2.1 lists it as required for v3. The spec states the rule, so it wins (vendor 0.1 rule 1);
// the earlier variant (X-API-Version 1.x/2.x, spec 2.1 last paragraph) keeps it optional, and the
// hosted checkout then ends on the sandbox's own result page (docs/sandbox.md "Orders (vendor 4)").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  as: 'none' as const,
});

describe('return_url (spec 2.1 over vendor N6)', () => {
  it('v3: a create without return_url is 400 ERR_ORDER_002 naming return_url, and nothing is made', async () => {
    const { return_url: _r, ...body } = orderBody();
    const r = await h.call('POST', '/pg/orders/', { body, headers: { 'x-api-version': '3.0.0' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('ERR_ORDER_002');
    expect(Object.keys(r.body.error.details)).toEqual(['return_url']);
    // The same reference is free: the refused create made no order.
    expect((await h.call('POST', '/pg/orders/', { body: { ...body, return_url: 'https://merchant.example/r' } })).status).toBe(201);
  });

  it('1.x/2.x: a hosted order without return_url is paid on the checkout page and ends on a result page, not a redirect', async () => {
    const { return_url: _r, ...body } = orderBody();
    const created = await h.call('POST', '/pg/orders/', { body, headers: { 'x-api-version': '2.0.0' } });
    expect(created.status).toBe(201);
    const { order_id: orderId, session_id: sessionId } = created.body.data;
    const paid = await h.call('POST', `/checkout/${sessionId}/`, form({ outcome: 'success' }));
    expect(paid.status).toBe(200);
    expect(paid.headers.location).toBeUndefined();
    expect(paid.body).toContain(orderId);
    expect(paid.body).toContain('captured');
  });
});
