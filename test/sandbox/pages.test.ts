// The buyer pages over plain HTTP: what a browser would get, without the browser.
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

async function hostedOrder(over: Record<string, unknown> = {}): Promise<{ orderId: string; sessionId: string }> {
  const created = await h.call('POST', '/pg/orders/', { body: orderBody(over) });
  expect(created.status).toBe(201);
  return { orderId: created.body.data.order_id, sessionId: created.body.data.session_id };
}

describe('hosted checkout page', () => {
  it('shows the order with Pay and Fail buttons', async () => {
    const { orderId, sessionId } = await hostedOrder({ amount: '1234.50' });
    const page = await h.call('GET', `/checkout/${sessionId}/`, { as: 'none' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('INR 1234.50');
    expect(page.body).toContain(orderId);
    expect(page.body).toMatch(/value="success"[^>]*>Pay</);
    expect(page.body).toMatch(/value="fail"[^>]*>Fail</);
  });

  it('Pay captures the payment and returns the buyer to return_url with the outcome', async () => {
    const { orderId, sessionId } = await hostedOrder();
    const res = await h.call('POST', `/checkout/${sessionId}/`, form({ outcome: 'success', mop_type: 'credit_card' }));
    expect(res.status).toBe(303);
    const location = new URL(String(res.headers.location));
    expect(location.origin + location.pathname).toBe('https://merchant.example/return');
    expect(location.searchParams.get('order_id')).toBe(orderId);
    expect(location.searchParams.get('status')).toBe('captured');
    const payment = await h.call('GET', `/pg/payments/${location.searchParams.get('payment_id')}/`);
    expect(payment.body.data.status).toBe('captured');
    expect(payment.body.data.mop_type).toBe('credit_card');
  });

  it('Fail records a failed payment and the order stays payable', async () => {
    const { sessionId } = await hostedOrder();
    const failed = await h.call('POST', `/checkout/${sessionId}/`, form({ outcome: 'fail' }));
    expect(new URL(String(failed.headers.location)).searchParams.get('status')).toBe('failed');
    const again = await h.call('GET', `/checkout/${sessionId}/`, { as: 'none' });
    expect(again.status).toBe(200);
  });

  it('a paid order cannot be paid twice from its page', async () => {
    const { sessionId } = await hostedOrder();
    await h.call('POST', `/checkout/${sessionId}/`, form({ outcome: 'success' }));
    const second = await h.call('POST', `/checkout/${sessionId}/`, form({ outcome: 'success' }));
    expect(second.status).toBe(400);
    expect(second.body).toContain('already paid');
  });

  it('an unknown session is a 404 page, and order data is escaped', async () => {
    expect((await h.call('GET', '/checkout/nope/', { as: 'none' })).status).toBe(404);
    const { sessionId } = await hostedOrder({ product: { name: '<script>alert(1)</script>', type_of_goods: 'service' } });
    const page = await h.call('GET', `/checkout/${sessionId}/`, { as: 'none' });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;');
  });
});

describe('3-D Secure page', () => {
  const card = (number: string) => ({
    collection_mode: 's2s',
    mop_type: 'credit_card',
    card_details: {
      number,
      cardholder_name: 'Asha Verma',
      expiry_month: '12',
      expiry_year: '2030',
      cvv: '123',
      network: 'visa',
      nickname: 'personal',
      identifier: 'cust-1',
    },
  });

  async function acsAction(number: string): Promise<{ orderId: string; action: string }> {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody(card(number)) });
    expect(created.status).toBe(201);
    const html = Buffer.from(created.body.data.acs_template, 'base64').toString('utf8');
    const action = /action="([^"]+)"/.exec(html)![1]!;
    return { orderId: created.body.data.order_id, action: new URL(action).pathname };
  }

  it('the acs form lands on an Approve / Decline page that shows only the last 4 digits', async () => {
    const { action } = await acsAction('4111111111111111');
    const page = await h.call('POST', action, form({ order_id: 'x' }));
    expect(page.status).toBe(200);
    expect(page.body).toContain('Card ending 1111');
    expect(page.body).not.toContain('4111111111111111');
    expect(page.body).toMatch(/>Approve</);
    expect(page.body).toMatch(/>Decline</);
  });

  it('Approve captures; the magic card ending 0002 fails whatever is clicked', async () => {
    const ok = await acsAction('4111111111111111');
    const approved = await h.call('POST', ok.action, form({ outcome: 'success' }));
    expect(new URL(String(approved.headers.location)).searchParams.get('status')).toBe('captured');
    const bad = await acsAction('4000000000000002');
    const declined = await h.call('POST', bad.action, form({ outcome: 'success' }));
    expect(new URL(String(declined.headers.location)).searchParams.get('status')).toBe('failed');
  });
});

describe('payment-link page', () => {
  async function link(): Promise<{ linkId: string; path: string }> {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const l = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: created.body.data.order_id } });
    expect(l.status).toBe(200);
    return { linkId: l.body.data.link_id, path: new URL(l.body.data.payment_link).pathname };
  }

  it('pays through the link, and the link then reads paid', async () => {
    const { linkId, path } = await link();
    expect((await h.call('GET', path, { as: 'none' })).status).toBe(200);
    const paid = await h.call('POST', path, form({ outcome: 'success' }));
    const paymentId = new URL(String(paid.headers.location)).searchParams.get('payment_id');
    const read = await h.call('GET', `/pg/payment-links/${linkId}/`);
    expect(read.body.data.status).toBe('paid');
    expect(read.body.data.paid_payment_id).toBe(paymentId);
  });

  it('a deactivated link shows that it cannot be paid', async () => {
    const { linkId, path } = await link();
    await h.call('POST', `/sandbox/payment-links/${linkId}/deactivate/`);
    const page = await h.call('GET', path, { as: 'none' });
    expect(page.status).toBe(410);
    expect(page.body).toContain('expired');
    const tried = await h.call('POST', path, form({ outcome: 'success' }));
    expect(tried.status).toBe(410);
  });
});
