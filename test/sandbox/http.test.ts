import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';

let h: Harness;
const logs: string[] = [];
beforeAll(async () => {
  h = await startHarness({
    log: (l) => logs.push(l),
    pages: ({ kind }) => {
      if (kind === 'link') throw new Error('page exploded');
    },
  });
});
afterAll(() => h.close());

describe('HTTP edges', () => {
  it('a body over 1 MiB: 413 envelope', async () => {
    const big = JSON.stringify({ ...orderBody(), pad: 'x'.repeat(1024 * 1024 + 10) });
    const r = await h.call('POST', '/pg/orders/', { raw: big, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ success: false, error: { code: 'ERR_REQUEST_001', message: 'Request body too large', details: { body: 'at most 1048576 bytes' } } });
  });

  it('a body just under 1 MiB is read', async () => {
    const body = JSON.stringify({ ...orderBody(), pad: 'x'.repeat(1024 * 1024 - 2000) });
    const r = await h.call('POST', '/pg/orders/', { raw: body });
    expect(r.status).toBe(201);
  });

  it('malformed JSON: 400 envelope', async () => {
    const r = await h.call('POST', '/pg/orders/', { raw: '{"amount": "1.00",' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('ERR_REQUEST_000');
    expect(r.body.error.message).toBe('Malformed JSON');
  });

  it('malformed JSON is described without quoting any of the body back', async () => {
    const r = await h.call('POST', '/pg/orders/', { raw: '{"card_details":{"number":"4000001234567899","cvv":"739","n": x}}' });
    expect(r.status).toBe(400);
    expect(r.body.error.details.body).toMatch(/^not valid JSON: /);
    expect(JSON.stringify(r.body)).not.toMatch(/4000001234567899|7899|739/);
  });

  it('JSON of the wrong shape is a validation error, not a crash', async () => {
    for (const raw of ['[]', '"text"', '42', 'null', '{"buyer": []}']) {
      const r = await h.call('POST', '/pg/orders/', { raw });
      expect(r.status, raw).toBe(400);
      expect(r.body.error.code).toBe('ERR_ORDER_002');
    }
  });

  it('unknown route: 404 envelope; a missing trailing slash gets a hint', async () => {
    const r = await h.call('GET', '/pg/nothing/');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('ERR_NOT_FOUND_000');
    const noSlash = await h.call('POST', '/pg/orders', { body: orderBody() });
    expect(noSlash.status).toBe(404);
    expect(noSlash.body.error.details.path).toContain('/pg/orders/');
    // Unknown routes answer 404 even without credentials.
    expect((await h.call('GET', '/', { as: 'none' })).status).toBe(404);
  });

  it('wrong method: 405 with Allow', async () => {
    const r = await h.call('DELETE', '/pg/orders/');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
    expect(r.body.error.code).toBe('ERR_METHOD_000');
  });

  it('an unexpected failure: 500 envelope, logged, and the server keeps serving', async () => {
    const r = await h.call('GET', '/p/sometoken/', { as: 'none' });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ success: false, error: { code: 'ERR_SERVICE_ERROR_000', message: 'Payment gateway error', details: { error: 'An unexpected error occurred. Please try again later' } } });
    expect(logs.some((l) => l.includes('page exploded'))).toBe(true);
    expect((await h.call('GET', '/pg/payments/PR1/')).status).toBe(404);
  });

  it('garbage on the socket gets a 400 and does not crash the server', async () => {
    const port = new URL(h.sandbox.baseUrl).port;
    const reply = await new Promise<string>((resolve) => {
      const s = connect(Number(port), '127.0.0.1', () => s.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      s.on('data', (d) => (text += d.toString()));
      s.on('close', () => resolve(text));
      s.on('error', () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect((await h.call('GET', '/pg/payments/PR1/')).status).toBe(404);
  });

  it('fuzz: random bodies on every POST route never produce a 500', async () => {
    const routes = [
      '/pg/orders/',
      '/pg/settlements/mark-settled/',
      '/pg/subscriptions/x/simulate_payment/',
      '/sandbox/orders/OD1/pay/',
      '/sandbox/payments/PR1/refunds/',
      '/sandbox/payments/PR1/chargebacks/',
      '/sandbox/payment-links/',
      '/sandbox/subscriptions/',
      '/sandbox/webhooks/',
      '/sandbox/seed/',
    ];
    const samples = ['{}', '{"a":1}', '[1,2]', '{"payment_uids":[{}]}', '{"amount":{}}', '{"outcome":null}', '{"payments":"9"}', '{"order_id":5}', '{"url":7}', '\u0000', '{"payment_status":["SUCCESS"]}'];
    for (const path of routes) {
      for (const raw of samples) {
        const r = await h.call('POST', path, { raw });
        expect(r.status, `${path} ${raw}`).toBeLessThan(500);
        expect(r.body.success, `${path} ${raw}`).toBeDefined();
      }
    }
  });

  it('every response is JSON with the envelope', async () => {
    const r = await h.call('POST', '/pg/orders/', { body: orderBody() });
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(logs.some((l) => /^POST \/pg\/orders\/ → 201/.test(l))).toBe(true);
  });
});
