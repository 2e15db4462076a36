import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';

// A clock the test moves: link expiry without waiting.
let nowMs = Date.parse('2026-11-21T10:00:00.000Z');
const advance = (seconds: number) => (nowMs += seconds * 1000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock: () => new Date(nowMs) });
});
afterAll(() => h.close());

async function order(amount = '1500.00', as: 'merchant' | 'psp' = 'merchant', headers?: Record<string, string>) {
  const r = await h.call('POST', '/pg/orders/', { body: orderBody({ amount }), as, headers });
  return r.body.data.order_id as string;
}
async function link(orderId: string, expires = 60, as: 'merchant' | 'psp' = 'merchant') {
  const r = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: orderId, expires_in_seconds: expires }, as });
  expect(r.status).toBe(200);
  return r.body.data;
}
const get = (id: string, as: 'merchant' | 'psp' = 'merchant') => h.call('GET', `/pg/payment-links/${id}/`, { as });
const pay = (orderId: string, outcome: string, as: 'merchant' | 'psp' = 'merchant') =>
  h.call('POST', `/sandbox/orders/${orderId}/pay/`, { body: { outcome }, as });

describe('payment links (spec 2.8, 3.1, 4.4)', () => {
  it('a new link: active, no payments, the spec 2.8 shape', async () => {
    const od = await order();
    const l = await link(od, 3600);
    expect(l).toEqual({
      payment_id: l.link_id,
      link_id: expect.stringMatching(/^PR[0-9]{10}$/),
      // beyond 3.5: the amount and the link's order.
      order_id: od,
      amount: '1500.00',
      reference_id: expect.any(String),
      currency: 'INR',
      payment_link: expect.stringMatching(new RegExp(`^${h.sandbox.baseUrl}/p/[A-Za-z0-9_-]+/$`)),
      expiry_date: '2026-11-21T11:00:00.000000Z',
      mop_type: null,
      settlement: { status: 'not_applicable', message: expect.any(String), settlement_details: null },
      buyer: expect.objectContaining({ name: 'Asha Verma', pan_number: null, dob: null }),
      product: { name: 'Scarf', type_of_goods: 'physical_goods', hs_code: null, hs_code_description: null },
      invoice: { number: 'INV-1', date: null, file: null },
      air_waybills: [],
      status: 'active',
      status_message: null,
      created_at: '2026-11-21T10:00:00.000000Z',
      paid_payment_id: null,
      payments: [],
      shares: [],
    });
    expect((await get(l.link_id)).body.data).toEqual(l);
  });

  it('invoice.date shows once added by Update Order', async () => {
    const od = await order();
    const l = await link(od);
    await h.call('PATCH', `/pg/orders/${od}/`, { body: { invoice: { date: '2026-11-01' } } });
    expect((await get(l.link_id)).body.data.invoice).toEqual({ number: 'INV-1', date: '2026-11-01', file: null });
  });

  it('each try is a payment; the paying one becomes paid_payment_id; paid outranks expiry', async () => {
    const od = await order('1500.50');
    const l = await link(od, 60);
    advance(1);
    const failed = await pay(od, 'fail');
    advance(1);
    const ok = await pay(od, 'success');
    const paid = (await get(l.link_id)).body.data;
    expect(paid.status).toBe('paid');
    expect(paid.paid_payment_id).toBe(ok.body.data.payment_id);
    expect(paid.mop_type).toBe('UPI');
    expect(paid.payments).toEqual([
      {
        payment_id: ok.body.data.payment_id,
        status: 'captured',
        mop_type: 'upi',
        amount: '1500.50',
        created_at: '2026-11-21T10:00:02.000000Z',
        payment_completed_at: '2026-11-21T10:00:02.000000Z',
      },
      { payment_id: failed.body.data.payment_id, status: 'failed', mop_type: 'upi', amount: '1500.50', created_at: '2026-11-21T10:00:01.000000Z', payment_completed_at: null },
    ]);
    advance(3600);
    const later = (await get(l.link_id)).body.data;
    expect(later.status).toBe('paid');
    expect(later.status_message).toBeNull();
  });

  it('whole-rupee amounts are written without decimals on link payments', async () => {
    const od = await order('1500.00');
    const l = await link(od);
    await pay(od, 'success');
    expect((await get(l.link_id)).body.data.payments[0].amount).toBe('1500');
  });

  it('an unpaid link expires', async () => {
    const od = await order();
    const l = await link(od, 10);
    advance(11);
    const r = (await get(l.link_id)).body.data;
    expect(r.status).toBe('expired');
    expect(r.expiry_date).toBe(l.expiry_date);
    expect(r.status_message).toBe('Payment link expired');
    // Paying the order now does not go through the expired link.
    await pay(od, 'success');
    expect((await get(l.link_id)).body.data).toMatchObject({ status: 'expired', payments: [] });
    // A clock set back before the expiry never opens it again: its order is paid (the model test's
    // counterexample read it active).
    advance(-20);
    expect((await get(l.link_id)).body.data).toMatchObject({ status: 'expired', payments: [] });
    advance(20);
  });

  it('a deactivated link reads expired, with expiry_date the moment of deactivation', async () => {
    const od = await order();
    const l = await link(od, 3600);
    advance(5);
    const deactivatedAt = new Date(nowMs).toISOString().replace('Z', '000Z');
    const d = await h.call('POST', `/sandbox/payment-links/${l.link_id}/deactivate/`, {});
    expect(d.status).toBe(200);
    expect(d.body.data).toMatchObject({ status: 'expired', expiry_date: deactivatedAt, status_message: 'Payment link was deactivated' });
    advance(5);
    // Deactivating again is refused (vendor 6, N10); the link keeps its moment of deactivation.
    const again = await h.call('POST', `/sandbox/payment-links/${l.link_id}/deactivate/`, {});
    expect(again.body.error.code).toBe('ERR_ORDER_002');
    expect((await h.call('GET', `/pg/payment-links/${l.link_id}/`)).body.data.expiry_date).toBe(deactivatedAt);
  });

  it('a paid link cannot be deactivated', async () => {
    const od = await order();
    const l = await link(od);
    await pay(od, 'success');
    const r = await h.call('POST', `/sandbox/payment-links/${l.link_id}/deactivate/`, {});
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'ERR_ORDER_002', details: { payment: `${l.link_id} is paid: only an active link can be deactivated` } });
    expect((await h.call('POST', '/sandbox/payment-links/', { body: { order_id: od } })).body.error.code).toBe('ERR_LINK_002');
  });

  it('payments: at most the 50 newest, newest first', async () => {
    const od = await order('99.99');
    const l = await link(od, 24 * 3600);
    const ids: string[] = [];
    for (let i = 0; i < 54; i++) {
      advance(1);
      ids.push((await pay(od, 'fail')).body.data.payment_id);
    }
    advance(1);
    ids.push((await pay(od, 'success')).body.data.payment_id);
    const r = (await get(l.link_id)).body.data;
    expect(r.payments).toHaveLength(50);
    expect(r.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual(ids.slice(-50).reverse());
    expect(r.paid_payment_id).toBe(ids.at(-1));
    expect(r.status).toBe('paid');
  });

  it('unknown or foreign links are ERR_PAYMENT_005; a PSP finds its sub-merchant links without X-Merchant-ID', async () => {
    const missing = await get('PR0000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ERR_PAYMENT_005');
    const subs = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    const od = await order('10.00', 'psp', { 'x-merchant-id': subs.body.data.results[0].id });
    const l = await link(od, 60, 'psp');
    expect((await get(l.link_id, 'psp')).status).toBe(200);
    expect((await get(l.link_id, 'merchant')).status).toBe(404);
    const mine = await link(await order());
    expect((await get(mine.link_id, 'psp')).status).toBe(404);
  });

  it('link helpers validate and scope', async () => {
    expect((await h.call('POST', '/sandbox/payment-links/', { body: { order_id: 'OD0' } })).status).toBe(404);
    const bad = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: 'OD0', expires_in_seconds: -1 } });
    expect(bad.body.error.details).toHaveProperty('expires_in_seconds');
    expect((await h.call('POST', '/sandbox/payment-links/PR0000000000/deactivate/', {})).status).toBe(404);
  });
});

describe('the other links of a paid order (issue 21 item 5)', () => {
  it('stop reading active, show no Pay button, refuse payment and cannot be extended', async () => {
    const od = await order();
    const first = await link(od, 3600);
    const second = await link(od, 3600);
    // The pay helper pays through the newest active link: the second.
    expect((await pay(od, 'success')).status).toBe(200);
    expect((await get(second.link_id)).body.data.status).toBe('paid');

    const other = (await get(first.link_id)).body.data;
    expect(other.status).toBe('failed');
    expect(other.status_message).toMatch(/paid by payment PR[0-9]{10}/);
    const listed = (await h.call('GET', '/pg/payment-links/?page=1&page_size=100')).body.data.results.find((l: { link_id: string }) => l.link_id === first.link_id);
    expect(listed.status).toBe('failed');

    const path = new URL(first.payment_link).pathname;
    const page = await h.call('GET', path, { as: 'none' });
    expect(page.status).toBe(410);
    expect(String(page.body)).toContain('cannot be paid');
    expect(String(page.body)).not.toMatch(/<button[^>]*>\s*Pay/i);
    const tried = await h.call('POST', path, { as: 'none', raw: 'outcome=success', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(tried.status).toBe(410);

    const extended = await h.call('POST', `/pg/payment-links/${first.link_id}/extend_expiry/`, { body: { expiry_date: '2027-01-01T00:00:00.000Z' } });
    expect(extended.status).toBe(400);
    expect(extended.body.error.code).toBe('ERR_ORDER_002');
    expect(extended.body.error.details.payment).toContain('failed');
    expect((await get(first.link_id)).body.data.status).toBe('failed');
  });
});
