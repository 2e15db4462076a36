// A sandbox validates Create Order with zod's runtime for its first bodies and compiled after
// (common.ts `Checked`, issue 23). A client sees no difference: a bad body gets the same 400
// naming every problem, and a good one the same stored order, before and after the switch, under
// either variant of the body (spec 2.1, part 9).
import { describe, expect, it } from 'vitest';
import { Checked } from '../../src/api/schemas/index.js';
import { orderBody, startHarness, type Harness } from './harness.js';

const V2 = { 'x-api-version': '2.0.0' };

const buyerWith = (over: Record<string, unknown>) => ({ ...(orderBody().buyer as object), ...over });

/** Broken four ways at once: the 400 names all four (the cross rule runs although fields failed). */
const badBody = () => orderBody({ amount: '0', currency: undefined, collection_mode: 's2s', buyer: buyerWith({ email: 'not-an-email' }) });

async function answers(h: Harness) {
  const bad = await h.call('POST', '/pg/orders/', { body: badBody() });
  const legacyBody = { ...badBody(), return_url: undefined, upi_flow_type: 'collection' };
  const badLegacy = await h.call('POST', '/pg/orders/', { body: legacyBody, headers: V2 });
  const reference = `kept-${Math.random().toString(36).slice(2)}`;
  const good = await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: reference, buyer: buyerWith({ stray: 'dropped' }) }) });
  expect(good.status).toBe(201);
  const stored = await h.call('GET', `/pg/orders/${good.body.data.order_id}/`);
  const { order_id: _id, reference_id: _ref, created_at: _at, session_id: _s, updated_at: _u, ...order } = stored.body.data;
  return { bad: [bad.status, bad.body], badLegacy: [badLegacy.status, badLegacy.body], order };
}

describe('Create Order validation before and after the sandbox compiles it', () => {
  it('answers the same: the same 400s naming every problem, the same stored order', async () => {
    const h = await startHarness();
    try {
      const before = await answers(h);
      expect(before.bad[0]).toBe(400);
      expect(Object.keys((before.bad[1] as any).error.details).sort()).toEqual(['amount', 'buyer.email', 'currency', 'mop_type']);
      expect((before.badLegacy[1] as any).error.details.vpa).toBeDefined();
      for (let sent = 0; sent < Checked.COMPILE_AFTER; sent += 10) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => h.call('POST', '/pg/orders/', { body: orderBody() })));
        expect(batch.map((r) => r.status)).toEqual(Array(10).fill(201));
      }
      for (let sent = 0; sent < Checked.COMPILE_AFTER; sent += 10) {
        await Promise.all(Array.from({ length: 10 }, () => h.call('POST', '/pg/orders/', { body: orderBody(), headers: V2 })));
      }
      expect(await answers(h)).toStrictEqual(before);
    } finally {
      await h.close();
    }
  });
});
