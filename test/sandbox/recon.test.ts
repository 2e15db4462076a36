// GET /pg/settlements/{uid}/recon/ (vendor 5.2) and the settlements list's two spellings of its
// date filters (vendor 5.1, C9), over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
let nowMs = Date.parse('2026-11-12T08:00:00.000Z');
beforeAll(async () => {
  h = await startHarness({ clock: () => new Date(nowMs) });
});
afterAll(() => h.close());

describe('settlement recon (vendor 5.2)', () => {
  it('captures, refunds and chargebacks of the settlement, newest first, with the documented fields; paged', async () => {
    const a = await paidOrder(h, '1000.00');
    nowMs += 1000;
    const b = await paidOrder(h, '200.00');
    nowMs += 1000;
    const refund = (await h.call('POST', '/pg/refunds/', { body: { payment_id: a.paymentId, refund_amount: '100.00' } })).body.data.refund_id;
    nowMs += 1000;
    const cb = (await h.call('POST', `/sandbox/payments/${b.paymentId}/chargebacks/`, { body: { amount: '50.00' } })).body.data.chargeback_id;
    const marked = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [a.paymentId, b.paymentId], refund_uids: [refund], chargeback_uids: [cb] } });
    const st = marked.body.data.settlement_id as string;

    const r = await h.call('GET', `/pg/settlements/${st}/recon/`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Settlement transactions retrieved successfully');
    expect(r.body.data).toMatchObject({ count: 4, page: 1, page_size: 250, next: null, previous: null });
    const rows = r.body.data.results;
    expect(rows.map((x: any) => [x.settlement_type, x.transaction_id])).toEqual([
      ['chargeback', cb],
      ['refund', refund],
      ['capture', b.paymentId],
      ['capture', a.paymentId],
    ]);
    expect(rows[3]).toEqual({
      settlement_type: 'capture',
      transaction_id: a.paymentId,
      settlement_id: st,
      settlement_completed_at: marked.body.data.settlement_completed_at,
      settlement_currency: 'INR',
      transaction_currency: 'INR',
      transaction_amount: '1000.00',
      merchant_net_amount: '941.00',
      total_processing_fee: '50.00',
      total_service_tax: '9.00',
      mop_type: 'UPI',
      created_at: expect.any(String),
    });
    expect(rows[1]).toMatchObject({ transaction_amount: '100.00', merchant_net_amount: '-100.00', total_processing_fee: '0.00', total_service_tax: '0.00' });
    expect(rows[1]).not.toHaveProperty('settlement_completed_at');
    expect(rows[0]).toMatchObject({ merchant_net_amount: '-50.00', settlement_completed_at: marked.body.data.settlement_completed_at });

    const p2 = await h.call('GET', `/pg/settlements/${st}/recon/?page=2&page_size=3`);
    expect(p2.body.data.results.map((x: any) => x.transaction_id)).toEqual([a.paymentId]);
    expect(p2.body.data.previous).toContain('page=1');
    expect((await h.call('GET', `/pg/settlements/${st}/recon/?page_size=1001`)).status).toBe(400);
  });

  it('scoping: another merchant gets ERR_SETTLEMENT_002; a PSP sees its sub-merchant\'s rows, narrowed by X-Merchant-ID', async () => {
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results;
    const [subA, subB] = [subs[0].id, subs[1].id];
    const p = await paidOrder(h, '300.00', { as: 'psp', headers: { 'x-merchant-id': subA } });
    const st = (await h.call('POST', '/pg/settlements/mark-settled/', { as: 'psp', headers: { 'x-merchant-id': subA }, body: { payment_uids: [p.paymentId] } })).body.data.settlement_id;
    expect((await h.call('GET', `/pg/settlements/${st}/recon/`, { as: 'psp' })).body.data.count).toBe(1);
    expect((await h.call('GET', `/pg/settlements/${st}/recon/`, { as: 'psp', headers: { 'x-merchant-id': subA } })).body.data.count).toBe(1);
    const narrowed = await h.call('GET', `/pg/settlements/${st}/recon/`, { as: 'psp', headers: { 'x-merchant-id': subB } });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data).toMatchObject({ count: 0, results: [] });
    const foreign = await h.call('GET', `/pg/settlements/${st}/recon/`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('ERR_SETTLEMENT_002');
  });
});

describe('settlements list date filters (vendor 5.1, C9)', () => {
  it('from_date / to_date and settlement_completed_date__gte / __lte select the same; forex_rate a number', async () => {
    nowMs = Date.parse('2026-12-01T10:00:00.000Z');
    const p = await paidOrder(h, '10.00');
    const st = (await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [p.paymentId] } })).body.data.settlement_id;
    const ids = async (q: string) => (await h.call('GET', `/pg/settlements/${q}`)).body.results.map((s: any) => s.settlement_id);
    expect(await ids('?from_date=2026-12-01&to_date=2026-12-01')).toEqual([st]);
    expect(await ids('?settlement_completed_date__gte=2026-12-01&settlement_completed_date__lte=2026-12-01')).toEqual([st]);
    expect(await ids('?to_date=2026-11-30')).not.toContain(st);
    const one = (await h.call('GET', '/pg/settlements/?from_date=2026-12-01')).body.results[0];
    expect(one.forex_rate).toBe(96);
    expect((await h.call('GET', '/pg/settlements/?from_date=2026-12-01&settlement_completed_date__gte=2026-12-02')).status).toBe(400);
    expect((await h.call('GET', '/pg/settlements/?from_date=2026-12-02&to_date=2026-12-01')).status).toBe(400);
  });
});
