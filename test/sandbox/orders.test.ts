import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';
import type { PageRequest } from '../../src/sandbox/pages-hook.js';

let h: Harness;
const pageCalls: PageRequest[] = [];
beforeAll(async () => {
  h = await startHarness({
    pages: (p) => {
      pageCalls.push(p);
      p.res.writeHead(200, { 'content-type': 'text/plain' });
      p.res.end(`${p.kind}:${p.token}`);
    },
  });
});
afterAll(() => h.close());

const card = {
  number: '4111111111111111',
  cardholder_name: 'Asha Verma',
  expiry_month: '12',
  expiry_year: '2099',
  cvv: '123',
  network: 'visa',
  nickname: 'Visa',
  identifier: 'cust-1',
};

describe('POST /pg/orders/ (spec 4.1, 2.6)', () => {
  it('hosted payment: order_id and session_id', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody() });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      success: true,
      message: 'checkout session created',
      data: { order_id: expect.stringMatching(/^OD[0-9]+$/), session_id: expect.any(String) },
    });
  });

  it('S2S UPI intent: a upi://pay intent string', async () => {
    const r = await h.call('POST', '/pg/orders/', {
      body: orderBody({ amount: '1500.50', collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'intent' }),
    });
    expect(r.body.message).toBe('S2S UPI request created');
    const uri = new URL(r.body.data.intent_uri);
    expect(uri.protocol).toBe('upi:');
    expect(uri.searchParams.get('am')).toBe('1500.50');
    expect(uri.searchParams.get('cu')).toBe('INR');
    expect(uri.searchParams.get('tr')).toBe(r.body.data.order_id);
    // vendor N7: expires_at (UTC, whole seconds) and, in a sandbox, test_simulator_url.
    expect(Object.keys(r.body.data).sort()).toEqual(['expires_at', 'intent_uri', 'order_id', 'test_simulator_url']);
    expect(r.body.data.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(r.body.data.test_simulator_url).toMatch(new RegExp(`^${h.sandbox.baseUrl}/checkout/[A-Za-z0-9_-]+/$`));
  });

  it('S2S UPI collection: a message', async () => {
    const r = await h.call('POST', '/pg/orders/', {
      body: orderBody({ collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'collection' }),
    });
    expect(r.body.message).toBe('S2S UPI request created');
    expect(r.body.data).toEqual({ order_id: expect.stringMatching(/^OD/), message: expect.any(String) });
  });

  it('S2S card: acs_template is Base64 of an auto-submitting form to the 3-D Secure page', async () => {
    const r = await h.call('POST', '/pg/orders/', {
      body: orderBody({ collection_mode: 's2s', mop_type: 'credit_card', card_details: card }),
    });
    expect(r.body.message).toBe('S2S card payment request created');
    const html = Buffer.from(r.body.data.acs_template, 'base64').toString('utf8');
    const action = /action="([^"]+)"/.exec(html)![1]!;
    expect(action).toMatch(new RegExp(`^${h.sandbox.baseUrl}/3ds/[A-Za-z0-9_-]+/$`));
    expect(html).toContain('document.forms[0].submit()');
    expect(html).not.toContain(card.number);

    // The hook point: the 3-D Secure page receives the token and finds the order by it.
    const page = await h.call('POST', new URL(action).pathname, { raw: 'order_id=x', as: 'none' });
    expect(page.status).toBe(200);
    const call = pageCalls.at(-1)!;
    expect(call.kind).toBe('3ds');
    expect(call.store.orderByAcsToken(call.token)?.order_id).toBe(r.body.data.order_id);
  });

  it('never stores the card number or CVV (spec 2.5)', async () => {
    await h.call('POST', '/pg/orders/', { body: orderBody({ mop_type: 'debit_card', card_details: { ...card, number: '5555555555554444', cvv: '987' } }) });
    for (const file of [h.dbPath, `${h.dbPath}-wal`]) {
      let bytes = '';
      try {
        bytes = readFileSync(file).toString('latin1');
      } catch {
        continue;
      }
      expect(bytes).not.toContain('5555555555554444');
    }
  });

  it('routes buyer pages to the hook: checkout by session_id and links by token', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const page = await h.call('GET', `/checkout/${r.body.data.session_id}/`, { as: 'none' });
    expect(page.body).toBe(`checkout:${r.body.data.session_id}`);
    expect(pageCalls.at(-1)!.store.orderBySession(r.body.data.session_id)?.order_id).toBe(r.body.data.order_id);
  });

  it('a page completes a payment by token, through the link it came from', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody({ amount: '42.00' }) });
    const link = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: r.body.data.order_id } });
    const token = new URL(link.body.data.payment_link).pathname.split('/')[2]!;
    await h.call('GET', `/p/${token}/`, { as: 'none' });
    const { store, kind } = pageCalls.at(-1)!;
    expect(kind).toBe('link');
    const l = store.linkByToken(token)!;
    expect(store.linkStatus(l)).toBe('active');
    const order = store.order(l.order_id)!;
    expect(store.pageOrder(order)).toEqual({
      order_id: r.body.data.order_id,
      reference_id: expect.any(String),
      amount: '42.00',
      currency: 'INR',
      merchant_name: 'Demo Merchant',
      buyer_name: 'Asha Verma',
      product_name: 'Scarf',
      mop_type: null,
      status: 'payment_pending',
      return_url: 'https://merchant.example/return',
      card_last4: null,
    });
    const payment = store.completeOrderPayment({ orderId: order.order_id, outcome: 'success', linkId: l.link_id, mopType: 'qr' });
    expect(payment).toMatchObject({ status: 'captured', mop_type: 'qr' });
    expect(store.linkStatus(store.linkByToken(token)!)).toBe('paid');
    const read = await h.call('GET', `/pg/payment-links/${l.link_id}/`);
    expect(read.body.data).toMatchObject({ status: 'paid', paid_payment_id: payment.payment_id, mop_type: 'QR' });
    // A closed link refuses further tries.
    expect(() => store.completeOrderPayment({ orderId: order.order_id, outcome: 'success', linkId: l.link_id })).toThrow(/already paid/);
  });

  it('refuses an invalid body with 400 and details keyed by field path', async () => {
    const body = orderBody();
    (body.buyer as any).address.postal_code = '123';
    (body.product as any).hs_code = undefined;
    const r = await h.call('POST', '/pg/orders/', { body });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      success: false,
      error: {
        code: 'ERR_ORDER_002',
        message: 'Validation error',
        details: { 'buyer.address.postal_code': 'must be 6 characters', 'product.hs_code': 'required when type_of_goods is physical_goods' },
      },
    });
  });

  it('an empty body is a validation error naming the body', async () => {
    const r = await h.call('POST', '/pg/orders/', {});
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual({ body: 'required' });
  });

  it('reference_id is unique per merchant while the order is active', async () => {
    const ref = `dup-${Date.now()}`;
    const first = await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: ref }) });
    const again = await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: ref }) });
    expect(again.status).toBe(400);
    // vendor N3: 400 ERR_ORDER_002, details.reference_id saying it already exists.
    expect(again.body.error.code).toBe('ERR_ORDER_002');
    expect(again.body.error.details.reference_id).toContain('already exists');
    expect(again.body.error.details.reference_id).toContain(first.body.data.order_id);
    // Another merchant may use it.
    const sub = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    const other = await h.call('POST', '/pg/orders/', {
      body: orderBody({ reference_id: ref }),
      as: 'psp',
      headers: { 'x-merchant-id': sub.body.data.results[0].id },
    });
    expect(other.status).toBe(201);
    // A failed payment leaves the order payable; a paid one keeps its reference too, so a retry
    // after a timeout cannot charge one merchant order twice (issue 13 item 20).
    await h.call('POST', `/sandbox/orders/${first.body.data.order_id}/pay/`, { body: { outcome: 'fail' } });
    expect((await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: ref }) })).status).toBe(400);
    await h.call('POST', `/sandbox/orders/${first.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    const retry = await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: ref }) });
    expect(retry.status).toBe(400);
    expect(retry.body.error.code).toBe('ERR_ORDER_002');
  });
});

describe('API versions (spec part 9)', () => {
  it('a missing X-API-Version means 3.0.0 (the earlier variant\'s vpa refused)', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody({ vpa: 'asha@okbank' }) });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error.details)).toEqual(['vpa']);
  });

  it('mop_type in either case under every version (issue 13 item 19)', async () => {
    for (const [version, mop] of [['3.0.0', 'UPI'], ['3.0.0', 'upi'], ['2.0.0', 'upi'], ['2.0.0', 'Net_Banking'], ['1.0.0', 'UPI']] as const) {
      const body = orderBody({ mop_type: mop });
      const r = await h.call('POST', '/pg/orders/', { body, headers: { 'x-api-version': version } });
      expect(r.status, `${version} ${mop}: ${JSON.stringify(r.body)}`).toBe(201);
    }
  });

  it('an unsupported version is a 400', async () => {
    for (const v of ['4.0.0', 'latest', '3.0']) {
      const r = await h.call('POST', '/pg/orders/', { body: orderBody(), headers: { 'x-api-version': v } });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('ERR_VERSION_000');
      expect(r.body.error.details['X-API-Version']).toContain(v);
    }
  });

  it('1.x and 2.x take the earlier variant: uppercase mop_type, vpa, optional return_url and invoice', async () => {
    const { return_url: _r, invoice: _i, ...body } = orderBody();
    const collect = { ...body, collection_mode: 's2s', mop_type: 'UPI', upi_flow_type: 'collection' };
    const missingVpa = await h.call('POST', '/pg/orders/', { body: collect, headers: { 'x-api-version': '1.0.0' } });
    expect(missingVpa.status).toBe(400);
    expect(missingVpa.body.error.details).toEqual({ vpa: 'required when upi_flow_type is collection' });
    const ok = await h.call('POST', '/pg/orders/', { body: { ...collect, vpa: 'asha@okbank' }, headers: { 'x-api-version': '2.1.0' } });
    expect(ok.status).toBe(201);
    expect(ok.body.data.message).toContain('asha@okbank');
    const paid = await h.call('POST', `/sandbox/orders/${ok.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    expect(paid.body.data.mop_type).toBe('upi');
    expect(paid.body.data.mop_detail).toEqual({ vpa: 'asha@okbank' });
    expect(paid.body.data.order.opted_mop_type).toBe('upi');
  });

  it('the VPA failure@upi fails the payment (magic value)', async () => {
    const { return_url: _r, invoice: _i, ...body } = orderBody();
    const r = await h.call('POST', '/pg/orders/', {
      body: { ...body, collection_mode: 's2s', mop_type: 'UPI', upi_flow_type: 'collection', vpa: 'failure@upi' },
      headers: { 'x-api-version': '1.0.0' },
    });
    const paid = await h.call('POST', `/sandbox/orders/${r.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    expect(paid.body.data.status).toBe('failed');
    expect(paid.body.data.payment_completed_at).toBeNull();
  });

  it('a card ending 0002 fails the payment (magic value)', async () => {
    const r = await h.call('POST', '/pg/orders/', {
      body: orderBody({ collection_mode: 's2s', mop_type: 'credit_card', card_details: { ...card, number: '4000000000000002' } }),
    });
    const paid = await h.call('POST', `/sandbox/orders/${r.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    expect(paid.body.data.status).toBe('failed');
    expect(paid.body.data.mop_detail).toEqual({ last4: '0002', network: 'visa' });
  });
});

describe('PATCH /pg/orders/{id}/ (spec 4.2)', () => {
  it('nests the envelope and changes only what was sent', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const id = created.body.data.order_id;
    const r = await h.call('PATCH', `/pg/orders/${id}/`, { body: { buyer: { pan_number: 'ABCDE1234F' }, invoice: { date: '2026-03-01' } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message: 'order updated successfully',
      data: {
        success: true,
        message: 'order updated successfully',
        data: { order_id: id, buyer: { pan_number: 'ABCDE1234F', dob: null }, invoice: { number: 'INV-1', date: '2026-03-01' } },
      },
    });
    const again = await h.call('PATCH', `/pg/orders/${id}/`, { body: { buyer: { dob: '1990-05-17' } } });
    expect(again.body.data.data.buyer).toEqual({ pan_number: 'ABCDE1234F', dob: '1990-05-17' });
    const paid = await h.call('POST', `/sandbox/orders/${id}/pay/`, { body: { outcome: 'success' } });
    expect(paid.body.data.order.buyer).toMatchObject({ pan_number: 'ABCDE1234F', dob: '1990-05-17' });
  });

  it('validates the patch', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const r = await h.call('PATCH', `/pg/orders/${created.body.data.order_id}/`, { body: { buyer: { pan_number: 'abc', dob: '1990-02-30' } } });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error.details).sort()).toEqual(['buyer.dob', 'buyer.pan_number']);
    const empty = await h.call('PATCH', `/pg/orders/${created.body.data.order_id}/`, { body: {} });
    expect(empty.status).toBe(400);
  });

  it('an unknown or foreign order is not found', async () => {
    const r = await h.call('PATCH', '/pg/orders/OD000/', { body: { invoice: { number: 'X-1' } } });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('ERR_ORDER_001');
    const mine = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const psp = await h.call('PATCH', `/pg/orders/${mine.body.data.order_id}/`, { body: { invoice: { number: 'X-1' } }, as: 'psp' });
    expect(psp.status).toBe(404);
  });
});
