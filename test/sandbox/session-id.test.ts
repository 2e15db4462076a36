// session_id (vendor N7): 64 hex characters, as the vendor's newest v3 orders file gives it; spec
// 2.6 says only "string", so the vendor decides (vendor 0.1 rule 2). Sessions made before were
// `session_` + 32 hex: their rows must keep their checkout pages.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';
import { openRaw } from '../helpers/sqlite.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ pollWebhooks: false });
});
afterAll(() => h.close());

const SESSION = /^[0-9a-f]{64}$/;
const form = (outcome: string) => ({ as: 'none' as const, raw: `outcome=${outcome}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describe('session_id (vendor N7)', () => {
  it('a hosted order answers a session_id of 64 lowercase hex characters, and its checkout page opens', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody() });
    expect(r.status).toBe(201);
    expect(r.body.data.session_id).toMatch(SESSION);
    expect((await h.call('GET', `/checkout/${r.body.data.session_id}/`, { as: 'none' })).status).toBe(200);
  });

  it('an S2S UPI intent order gets one too: the session in its test_simulator_url', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody({ collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'intent' }) });
    expect(r.status).toBe(201);
    expect(r.body.data.session_id).toBeUndefined();
    const session = new URL(r.body.data.test_simulator_url).pathname.split('/')[2];
    expect(session).toMatch(SESSION);
  });

  it('an order saved with the earlier form (session_ + 32 hex) keeps its checkout page and is paid there', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const old = `session_${randomBytes(16).toString('hex')}`;
    const db = openRaw(h.dbPath);
    try {
      db.prepare('UPDATE orders SET session_id = ? WHERE order_id = ?').run(old, r.body.data.order_id);
    } finally {
      db.close();
    }
    expect((await h.call('GET', `/checkout/${old}/`, { as: 'none' })).status).toBe(200);
    const paid = await h.call('POST', `/checkout/${old}/`, form('success'));
    expect(paid.status).toBe(303);
    expect((await h.call('GET', `/pg/orders/${r.body.data.order_id}/`)).body.data.status).toBe('payment_successful');
  });
});
