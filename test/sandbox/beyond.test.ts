// The operations of gateway-api-beyond.md 1-5 over real HTTP: shapes the vendor's client reads,
// scoping (a PSP reaches its sub-merchants' resources, anything else is not found) and state shared
// with the spec's operations (a refund made here is what Get Payment lists and mark-settled debits;
// a link made here has a buyer page that pays it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';

let nowMs = Date.parse('2026-11-21T10:00:00.000Z');
let h: Harness;
let subA: string;
let subB: string;
beforeAll(async () => {
  h = await startHarness({ clock: () => new Date(nowMs) });
  const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results;
  [subA, subB] = [subs[0].id, subs[1].id];
  // The second seeded sub-merchant is PENDING: approved here, since only an APPROVED one collects (issue 45).
  await h.call('POST', `/sandbox/merchants/${subB}/kyc/`, { as: 'psp', body: { kyc_status: 'APPROVED' } });
});
afterAll(() => h.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('orders (beyond 1)', () => {
  it('details: the order with its payments newest first, each with its settlement', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody({ amount: '250.00' }) });
    const orderId = created.body.data.order_id;
    await h.call('POST', `/sandbox/orders/${orderId}/pay/`, { body: { outcome: 'fail' } });
    nowMs += 1000;
    const paid = await h.call('POST', `/sandbox/orders/${orderId}/pay/`, { body: { outcome: 'success' } });
    const r = await h.call('GET', `/pg/orders/${orderId}/`);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    const d = r.body.data;
    expect(d).toMatchObject({
      order_id: orderId,
      amount: '250.00',
      currency: 'INR',
      status: 'payment_successful',
      created_at: expect.stringMatching(TIMESTAMP),
      buyer: expect.objectContaining({ name: 'Asha Verma', address: expect.objectContaining({ postal_code: '560001' }) }),
      product: expect.objectContaining({ name: 'Scarf', hs_code: '62141000' }),
      invoice: { number: 'INV-1', date: '2026-01-15', file: null },
      air_waybills: [],
    });
    expect(d.payments.map((p: { status: string }) => p.status)).toEqual(['captured', 'failed']);
    expect(d.payments[0]).toMatchObject({ payment_id: paid.body.data.payment_id, settlement: { status: 'pending', settlement_details: null } });
    // Not captured: no settlement key (vendor 4.1: an optional object, never null).
    expect(d.payments[1]).not.toHaveProperty('settlement');

    await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paid.body.data.payment_id] } });
    const after = (await h.call('GET', `/pg/orders/${orderId}/`)).body.data.payments[0].settlement;
    expect(after).toMatchObject({
      status: 'settled',
      settlement_details: {
        settlement_id: expect.stringMatching(/^ST[0-9]{10}$/),
        merchant_net_amount: '235.25',
        // vendor C7: both name sets
        merchant_service_fee: '12.50',
        merchant_service_fee_cents: 1250,
        merchant_service_tax: '2.25',
        merchant_service_tax_cents: 225,
        settlement_completed_at: expect.stringMatching(TIMESTAMP),
        settlement_completed_date: expect.stringMatching(TIMESTAMP),
        merchant_transaction_id: `${orderId}-${paid.body.data.payment_id}`,
      },
    });
  });

  it('status: status and status_message; terminal payment_successful once paid', async () => {
    const orderId = (await h.call('POST', '/pg/orders/', { body: orderBody() })).body.data.order_id;
    const fresh = (await h.call('GET', `/pg/orders/${orderId}/status/`)).body;
    expect(fresh.message).toBe('Order status fetched successfully');
    expect(fresh.data).toEqual({ order_id: orderId, status: 'payment_pending', status_message: null, created_at: expect.stringMatching(TIMESTAMP), updated_at: expect.stringMatching(TIMESTAMP) });
    nowMs += 1000;
    await h.call('POST', `/sandbox/orders/${orderId}/pay/`, { body: { outcome: 'fail' } });
    expect((await h.call('GET', `/pg/orders/${orderId}/status/`)).body.data.status).toBe('failed');
    nowMs += 1000;
    await h.call('POST', `/sandbox/orders/${orderId}/pay/`, { body: { outcome: 'success' } });
    const paid = (await h.call('GET', `/pg/orders/${orderId}/status/`)).body.data;
    expect(paid).toMatchObject({ status: 'payment_successful', status_message: 'Payment successful' });
    expect(paid.updated_at > paid.created_at).toBe(true);
  });

  it("another merchant's order is not found; a PSP reaches its sub-merchant's with or without X-Merchant-ID", async () => {
    const mine = (await h.call('POST', '/pg/orders/', { body: orderBody() })).body.data.order_id;
    const r = await h.call('GET', `/pg/orders/${mine}/`, { as: 'psp' });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'ERR_ORDER_001' } });
    const theirs = (await h.call('POST', '/pg/orders/', { body: orderBody(), as: 'psp', headers: { 'x-merchant-id': subA } })).body.data.order_id;
    expect((await h.call('GET', `/pg/orders/${theirs}/`, { as: 'psp' })).status).toBe(200);
    expect((await h.call('GET', `/pg/orders/${theirs}/`, { as: 'psp', headers: { 'x-merchant-id': subA } })).status).toBe(200);
    expect((await h.call('GET', `/pg/orders/${theirs}/`, { as: 'psp', headers: { 'x-merchant-id': subB } })).status).toBe(404);
    expect((await h.call('GET', `/pg/orders/${theirs}/status/`)).status).toBe(404);
  });
});

describe('refunds (beyond 2)', () => {
  it('create → get → Get Payment lists it → mark-settled debits it → its settlement reads SETTLED', async () => {
    const { paymentId } = await paidOrder(h, '1000.00');
    const created = await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '100', callback_url: 'https://shop.example/refunds' } });
    expect(created.status).toBe(200);
    const refund = created.body.data;
    expect(refund).toMatchObject({
      refund_id: expect.stringMatching(/^RF[0-9]{10}$/),
      payment_id: paymentId,
      refund_amount: 100,
      refund_status: 'initiated',
      callback_url: 'https://shop.example/refunds',
      bank_ref_num: null,
    });
    expect((await h.call('GET', `/pg/refunds/${refund.refund_id}/`)).body.data).toEqual(refund);
    const payment = (await h.call('GET', `/pg/payments/${paymentId}/`)).body.data;
    expect(payment.refund).toEqual([expect.objectContaining({ refund_id: refund.refund_id, refund_amount: 100, refund_status: 'initiated', created_at: refund.created_at })]);
    expect((await h.call('GET', `/pg/refunds/${refund.refund_id}/settlement/`)).body.data).toEqual({ settlement_status: 'PENDING', settlement_details: null });

    const marked = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paymentId], refund_uids: [refund.refund_id] } });
    expect(marked.body.data.settlement_amount).toBe('841.00'); // 1000 - 50 - 9 - 100
    const s = (await h.call('GET', `/pg/refunds/${refund.refund_id}/settlement/`)).body.data;
    expect(s).toMatchObject({ settlement_status: 'SETTLED', settlement_details: { settlement_id: marked.body.data.settlement_id, merchant_net_amount: -100 } });
    expect((await h.call('GET', `/pg/refunds/${refund.refund_id}/`)).body.data.settlement_id).toBe(marked.body.data.settlement_id);
    const again = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [(await paidOrder(h)).paymentId], refund_uids: [refund.refund_id] } });
    expect(again.body.error.details.refund_uids).toEqual([`${refund.refund_id} is already settled`]);
  });

  it('an omitted refund_amount refunds what is left; then nothing is left', async () => {
    const { paymentId } = await paidOrder(h, '500.00');
    await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '120.50' } });
    const rest = await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId } });
    expect(rest.body.data.refund_amount).toBe(379.5);
    const none = await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId } });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('ERR_REFUND_004');
    const over = await h.call('POST', '/pg/refunds/', { body: { payment_id: (await paidOrder(h, '10.00')).paymentId, refund_amount: '10.01' } });
    expect(over.body.error).toMatchObject({ code: 'ERR_REFUND_002', details: { amount: expect.stringContaining('at most 10.00') } });
  });

  it('validation: payment_id required, amount a decimal string, callback an http(s) address', async () => {
    const r = await h.call('POST', '/pg/refunds/', { body: { refund_amount: '1.234', callback_url: 'ftp://x' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('ERR_REFUND_002');
    expect(Object.keys(r.body.error.details).sort()).toEqual(['callback_url', 'payment_id', 'refund_amount']);
  });

  it("scoping: another merchant's payment and refund are not found", async () => {
    const { paymentId } = await paidOrder(h);
    const refundId = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '1' } })).body.data.refund_id;
    expect((await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId }, as: 'psp' })).status).toBe(404);
    expect((await h.call('GET', `/pg/refunds/${refundId}/`, { as: 'psp' })).body.error.code).toBe('ERR_REFUND_003');
    expect((await h.call('GET', `/pg/refunds/${refundId}/settlement/`, { as: 'psp' })).status).toBe(404);
    expect((await h.call('GET', '/pg/refunds/RF0000000000/')).status).toBe(404);
  });
});

describe('settlement of one payment (beyond 4.2)', () => {
  it('PENDING while captured, SETTLED with details after mark-settled, NOT_APPLICABLE when failed', async () => {
    const { paymentId, orderId } = await paidOrder(h, '200.00');
    expect((await h.call('GET', `/pg/payments/${paymentId}/settlement/`)).body.data).toEqual({ settlement_status: 'PENDING', settlement_details: null });
    await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paymentId] } });
    const s = (await h.call('GET', `/pg/payments/${paymentId}/settlement/`)).body.data;
    const reference = (await h.call('GET', `/pg/orders/${orderId}/`)).body.data.reference_id;
    expect(s).toMatchObject({ settlement_status: 'SETTLED', settlement_details: { merchant_transaction_id: reference, merchant_net_amount: 188.2, settlement_completed_date: expect.stringMatching(TIMESTAMP) } });
    const failed = await paidOrder(h, '200.00', { outcome: 'fail' });
    expect((await h.call('GET', `/pg/payments/${failed.paymentId}/settlement/`)).body.data.settlement_status).toBe('NOT_APPLICABLE');
    expect((await h.call('GET', `/pg/payments/${paymentId}/settlement/`, { as: 'psp' })).status).toBe(404);
  });
});

describe('payment links (beyond 3)', () => {
  const linkBody = (over: Record<string, unknown> = {}) => ({
    amount: '1499.00',
    reference_id: `lk${Math.random().toString(36).slice(2, 12)}`,
    buyer: { name: 'Jane Roe', email: 'jane@example.com', phone: '+14155550100', address: { city: 'San Francisco', state: 'CA', postal_code: '94103' } },
    product: { description: 'Annual plan', type_of_goods: 'service' },
    expiry_date: '2026-11-28T10:00:00.000Z',
    ...over,
  });

  it('create: data.payment_link, amount, order_id; Get Payment Link agrees; the buyer page pays it', async () => {
    const r = await h.call('POST', '/pg/payment-links/', { body: linkBody() });
    expect(r.status).toBe(201);
    const l = r.body.data;
    expect(l).toMatchObject({
      link_id: expect.stringMatching(/^PR[0-9]{10}$/),
      order_id: expect.stringMatching(/^OD[0-9]+$/),
      amount: '1499.00',
      currency: 'INR',
      status: 'active',
      expiry_date: '2026-11-28T10:00:00.000000Z',
      payment_link: expect.stringMatching(new RegExp(`^${h.sandbox.baseUrl}/p/[A-Za-z0-9_-]+/$`)),
    });
    expect((await h.call('GET', `/pg/payment-links/${l.link_id}/`)).body.data).toEqual(l);
    const page = await h.call('GET', new URL(l.payment_link).pathname, { as: 'none' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('1499.00');
    const paid = await h.call('POST', new URL(l.payment_link).pathname, { as: 'none', raw: 'outcome=success', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(paid.status).toBeLessThan(400);
    const after = (await h.call('GET', `/pg/payment-links/${l.link_id}/`)).body.data;
    expect(after.status).toBe('paid');
    expect(after.paid_payment_id).toMatch(/^PR[0-9]{10}$/);
    expect((await h.call('GET', `/pg/orders/${l.order_id}/`)).body.data.status).toBe('payment_successful');
  });

  it('create: what the vendor client may leave out; the earlier top-level description; what it must send', async () => {
    const minimal = await h.call('POST', '/pg/payment-links/', { body: { amount: '10.00', reference_id: 'abc123', description: 'Old client' } });
    expect(minimal.status).toBe(201);
    // 365 days by default (vendor N9; was 7)
    expect(minimal.body.data.expiry_date).toBe(new Date(nowMs + 365 * 86_400_000).toISOString().replace('Z', '000Z'));
    const bad = await h.call('POST', '/pg/payment-links/', { body: { amount: '0', reference_id: 'x y', expiry_date: '2020-01-01T00:00:00.000Z' } });
    expect(bad.status).toBe(400);
    // No description anywhere is no refusal: neither the spec nor the docs require one (vendor 6).
    expect(Object.keys(bad.body.error.details).sort()).toEqual(['amount', 'reference_id']);
    const past = await h.call('POST', '/pg/payment-links/', { body: linkBody({ expiry_date: '2020-01-01T00:00:00.000Z' }) });
    expect(past.body.error.details).toEqual({ expiry_date: 'must be in the future' });
    // issue 21 item 10: a time that does not exist is refused, never rolled over into March.
    for (const impossible of ['2027-02-30T00:00:00.000Z', '2026-12-31T24:00:00.000Z', '2026-12-01T10:61:00Z', '2026-12-01T10:00:00+25:00']) {
      const r = await h.call('POST', '/pg/payment-links/', { body: linkBody({ expiry_date: impossible }) });
      expect(r.status, impossible).toBe(400);
      expect(Object.keys(r.body.error.details), impossible).toEqual(['expiry_date']);
    }
    const dup = await h.call('POST', '/pg/payment-links/', { body: linkBody({ reference_id: 'abc123' }) });
    expect(dup.body.error.code).toBe('ERR_ORDER_002');
  });

  it('list: newest first, paged, scoped; page at data', async () => {
    const psp = { as: 'psp' as const, headers: { 'x-merchant-id': subB } };
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      nowMs += 1000;
      made.push((await h.call('POST', '/pg/payment-links/', { body: linkBody(), ...psp })).body.data.link_id);
    }
    const first = await h.call('GET', '/pg/payment-links/?page=1&page_size=2', psp);
    expect(first.body.data).toMatchObject({ count: 3, page: 1, page_size: 2, previous: null, next: expect.stringContaining('page=2') });
    expect(first.body.data.results.map((x: { payment_id: string }) => x.payment_id)).toEqual([made[2], made[1]]);
    expect(first.body.data.results[0]).toMatchObject({ status: 'active', amount: '1499.00', currency: 'INR', buyer: { name: 'Jane Roe', email: 'jane@example.com' } });
    const second = await h.call('GET', '/pg/payment-links/?page=2&page_size=2', psp);
    expect(second.body.data.results.map((x: { payment_id: string }) => x.payment_id)).toEqual([made[0]]);
    expect(second.body.data.next).toBeNull();
    const mine = await h.call('GET', '/pg/payment-links/?page_size=100');
    expect(mine.body.data.results.some((x: { payment_id: string }) => made.includes(x.payment_id))).toBe(false);
    expect((await h.call('GET', '/pg/payment-links/?page_size=101')).status).toBe(400);
  });

  it('extend: later than now and the current expiry; an expired or deactivated link is refused (ERR_ORDER_002 details.payment)', async () => {
    const l = (await h.call('POST', '/pg/payment-links/', { body: linkBody({ expiry_date: '2026-12-01T00:00:00.000Z' }) })).body.data;
    const earlier = await h.call('POST', `/pg/payment-links/${l.link_id}/extend_expiry/`, { body: { expiry_date: '2026-11-30T00:00:00.000Z' } });
    expect(earlier.status).toBe(400);
    expect(earlier.body.error.details.expiry_date).toContain('later than the current expiry');
    const ext = await h.call('POST', `/pg/payment-links/${l.link_id}/extend_expiry/`, { body: { expiry_date: '2026-12-15T00:00:00.000Z' } });
    expect(ext.body).toMatchObject({ success: true, message: expect.any(String), data: { expiry_date: '2026-12-15T00:00:00.000000Z', status: 'active' } });
    nowMs = Date.parse('2026-12-16T00:00:00.000Z');
    expect((await h.call('GET', `/pg/payment-links/${l.link_id}/`)).body.data.status).toBe('expired');
    const late = await h.call('POST', `/pg/payment-links/${l.link_id}/extend_expiry/`, { body: { expiry_date: '2026-12-20T00:00:00.000Z' } });
    expect(late.status).toBe(400);
    expect(late.body.error).toEqual({ code: 'ERR_ORDER_002', message: 'Validation error', details: { payment: `${l.link_id} is expired: only an active link can be extended` } });
    expect((await h.call('GET', `/pg/payment-links/${l.link_id}/`)).body.data.status).toBe('expired');
    const expiredOff = await h.call('POST', `/pg/payment-links/${l.link_id}/deactivate/`, { headers: { 'content-type': 'application/json' } });
    expect(expiredOff.body.error).toEqual({ code: 'ERR_ORDER_002', message: 'Validation error', details: { payment: `${l.link_id} is expired: only an active link can be deactivated` } });

    nowMs = Date.parse('2026-11-25T00:00:00.000Z');
    const l2 = (await h.call('POST', '/pg/payment-links/', { body: linkBody({ amount: 99.5 }) })).body.data;
    expect(l2.amount).toBe('99.50');
    const off = await h.call('POST', `/pg/payment-links/${l2.link_id}/deactivate/`, { headers: { 'content-type': 'application/json' } });
    expect(off.body).toMatchObject({ success: true, data: { status: 'expired', status_message: 'Payment link was deactivated' } });
    const reopen = await h.call('POST', `/pg/payment-links/${l2.link_id}/extend_expiry/`, { body: { expiry_date: '2026-12-25T00:00:00.000Z' } });
    expect(reopen.body.error.details.payment).toContain('only an active link can be extended');
    expect((await h.call('POST', `/pg/payment-links/${l2.link_id}/deactivate/`)).body.error.code).toBe('ERR_ORDER_002');
    expect((await h.call('POST', `/pg/payment-links/${l2.link_id}/deactivate/`, { as: 'psp' })).status).toBe(404);

    const shared = await h.call('POST', `/pg/payment-links/${l2.link_id}/share/`, { body: { email: ['asha@example.com'], phone: ['+919876543210'] } });
    expect(shared.status).toBe(200);
    expect((await h.call('GET', `/pg/payment-links/${l2.link_id}/`)).body.data.shares).toEqual([
      { email: ['asha@example.com'], phone: ['+919876543210'], shared_at: expect.stringMatching(TIMESTAMP), sent: false },
    ]);
    expect((await h.call('POST', `/pg/payment-links/${l2.link_id}/share/`, { body: {} })).body.error.code).toBe('ERR_ORDER_002');
    expect((await h.call('POST', `/pg/payment-links/${l2.link_id}/share/`, { body: { phone: ['12345'] } })).body.error.details).toHaveProperty('phone.0');
    expect((await h.call('POST', `/pg/payment-links/${l2.link_id}/share/`, { body: { email: ['a@b.co'] }, as: 'psp' })).status).toBe(404);
    const badTime = await h.call('POST', `/pg/payment-links/${l.link_id}/extend_expiry/`, { body: { expiry_date: 'next week' } });
    expect(Object.keys(badTime.body.error.details)).toEqual(['expiry_date']);
  });
});

describe('settlements list (beyond 4.1)', () => {
  it('the page both in data and at the top level; date filters; scoped', async () => {
    nowMs = Date.parse('2027-01-10T12:00:00.000Z');
    const a = await paidOrder(h, '100.00', { as: 'psp', headers: { 'x-merchant-id': subA } });
    const s1 = (await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [a.paymentId] }, as: 'psp' })).body.data;
    nowMs = Date.parse('2027-01-12T23:59:00.000Z');
    const b = await paidOrder(h, '300.00', { as: 'psp', headers: { 'x-merchant-id': subA } });
    const s2 = (await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [b.paymentId] }, as: 'psp' })).body.data;

    const r = await h.call('GET', '/pg/settlements/?page=1&settlement_completed_date__gte=2027-01-10', { as: 'psp' });
    expect(r.status).toBe(200);
    const { success, message, data, ...top } = r.body;
    expect(success).toBe(true);
    expect(typeof message).toBe('string');
    expect(top).toEqual(data);
    expect(data).toMatchObject({ count: 2, page: 1, page_size: 250, next: null, previous: null });
    expect(data.results).toEqual([
      { settlement_id: s2.settlement_id, utr_number: s2.utr_number, settlement_completed_date: s2.settlement_completed_at, settlement_amount: 282.3, settlement_currency: 'INR', forex_rate: 96, number_of_transactions: 1 },
      expect.objectContaining({ settlement_id: s1.settlement_id, settlement_amount: 94.1 }),
    ]);
    const day = await h.call('GET', '/pg/settlements/?settlement_completed_date__gte=2027-01-12&settlement_completed_date__lte=2027-01-12', { as: 'psp' });
    expect(day.body.results.map((x: { settlement_id: string }) => x.settlement_id)).toEqual([s2.settlement_id]);
    const before = await h.call('GET', '/pg/settlements/?settlement_completed_date__lte=2027-01-11', { as: 'psp', headers: { 'x-merchant-id': subA } });
    expect(before.body.data.results.map((x: { settlement_id: string }) => x.settlement_id)).toEqual([s1.settlement_id]);
    const other = await h.call('GET', '/pg/settlements/?settlement_completed_date__gte=2027-01-10', { as: 'psp', headers: { 'x-merchant-id': subB } });
    expect(other.body.data.count).toBe(0);
    expect((await h.call('GET', '/pg/settlements/?settlement_completed_date__gte=2027-01-10')).body.count).toBe(0);
    const bad = await h.call('GET', '/pg/settlements/?settlement_completed_date__gte=2027-02-30', { as: 'psp' });
    expect(bad.body.error.details).toHaveProperty('settlement_completed_date__gte');
  });
});

describe('sub-merchant details (beyond 5.1)', () => {
  it('the sub-merchant as created, kyc_status, account number masked to its last 4; others not found', async () => {
    const r = await h.call('GET', `/partners/merchants/${subA}/`, { as: 'psp' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id: subA,
      kyc_status: 'APPROVED',
      company_details: expect.objectContaining({ brand_name: 'Demo Sub-merchant One' }),
      settlement_details: expect.objectContaining({ bank_account_number: '********6789', settlement_currency: 'INR' }),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(JSON.stringify(r.body)).not.toContain('000123456789');
    expect((await h.call('GET', `/partners/merchants/${h.merchant.merchant_id}/`, { as: 'psp' })).status).toBe(404);
    expect((await h.call('GET', `/partners/merchants/${subA}/`)).status).toBe(403);
  });

  it("the vendor client's international sub-merchant: no monthly value, US ZIP, 13-character SWIFT", async () => {
    const body = {
      settlement_details: {
        bank_account_number: '987654321012', bank_account_name: 'Acme Inc', bank_swift_code: 'CHASINUS33XXX', bank_name: 'Chase',
        bank_branch_name: '', bank_address: '', bank_city: 'New York', bank_state: 'NY', bank_country: 'United States', bank_pincode: '10017', routing_number: '021000021',
      },
      company_details: {
        legal_name: 'Acme Inc', brand_name: 'Acme', registration_number: 'C123', international_org_type: 'Private Limited Company', tax_id: '94-8765432',
        website: 'https://acme.example', monthly_avg_transaction_volume: '100', communication_address: '1 Market St', communication_city: 'San Francisco',
        communication_state: 'CA', communication_country: 'United States', communication_pincode: '94103', same_as_registered_address: true,
        registered_address: '1 Market St', registered_city: 'San Francisco', registered_state: 'CA', registered_country: 'United States', registered_pincode: '94103',
        business_category: 'goods_merchant', business_mode: 'b2b', hs_codes: ['85176290'], category: '', description_of_products_and_services: 'Widgets', agreement_details: '',
      },
    };
    const r = await h.call('POST', '/partners/merchants/', { body, as: 'psp' });
    expect(r.status).toBe(201);
    expect(r.body.data.settlement_details.settlement_currency).toBe('USD');
    // beyond 5.2: the client reads the new ID at the top level.
    expect(r.body.merchant_id).toBe(r.body.data.id);
    expect(r.body.id).toBe(r.body.data.id);
    const got = await h.call('GET', `/partners/merchants/${r.body.data.id}/`, { as: 'psp' });
    expect(got.body.data).toMatchObject({ kyc_status: 'PENDING', settlement_details: { bank_pincode: '10017', bank_account_number: '********1012' } });
  });

  it("vendor C13: the browser client's company/contact/bank/business keys beside the docs' shape, from the same data", async () => {
    const body = {
      settlement_details: {
        bank_account_number: '555544443333', bank_account_name: 'Borealis Ltd', bank_name: 'Nordbank', bank_address: '9 Quay Road', bank_country: 'United Kingdom',
      },
      company_details: {
        legal_name: 'Borealis Ltd', brand_name: 'Borealis', registration_number: 'UK-778', international_org_type: 'Private Limited Company', tax_id: 'GB-12',
        website: 'https://borealis.example', monthly_avg_transaction_volume: 'BETWEEN_5_K_AND_20_K', same_as_registered_address: true,
        registered_address: '4 Dock St', registered_city: 'Leith', registered_state: 'Edinburgh', registered_country: 'United Kingdom', registered_pincode: 'EH6 6',
        business_category: 'SaaS / subscriptions / recurring billing', business_mode: 'b2b', purpose_code: 'P0802', payment_terms: 'net 30',
        email: 'ops@borealis.example', phone_number: '+447700900123',
      },
    };
    const created = await h.call('POST', '/partners/merchants/', { body, as: 'psp' });
    expect(created.status).toBe(201);
    const got = (await h.call('GET', `/partners/merchants/${created.body.data.id}/`, { as: 'psp' })).body.data;
    expect(got.company).toEqual({
      legal_name: 'Borealis Ltd', company_type: 'Private Limited Company', registration_number: 'UK-778', tax_id: 'GB-12',
      address: '4 Dock St, Leith, Edinburgh, EH6 6', country: 'United Kingdom',
    });
    expect(got.contact).toEqual({ email: 'ops@borealis.example', phone_number: '+447700900123' });
    expect(got.bank).toEqual({ bank_account_number: '********3333', bank_name: 'Nordbank', bank_address: '9 Quay Road' });
    expect(got.business).toEqual({ business_category: 'SaaS / subscriptions / recurring billing', purpose_code: 'P0802', commodity: null, payment_terms: 'net 30', website: 'https://borealis.example' });
    expect(got).toMatchObject({ registration_documents: [], business_licenses: [], other_documents: [], kyc_status: 'PENDING', created_at: expect.stringMatching(TIMESTAMP) });
    // The partner API's shape is unchanged beside them.
    expect(got.company_details).toMatchObject({ legal_name: 'Borealis Ltd', email: 'ops@borealis.example', registered_city: 'Leith' });
    expect(got.settlement_details).toMatchObject({ bank_account_number: '********3333', settlement_currency: 'USD' });
    expect(JSON.stringify(got)).not.toContain('555544443333');
    // A seeded sub-merchant has the contact the docs require (vendor 7.1), in both shapes.
    const seeded = (await h.call('GET', `/partners/merchants/${subA}/`, { as: 'psp' })).body.data;
    expect(seeded.contact).toEqual({ email: seeded.company_details.email, phone_number: seeded.company_details.phone_number });
    expect(seeded.contact.email).toMatch(/@/);
  });
});
