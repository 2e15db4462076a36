import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, orderBody, type Harness } from './harness.js';

interface Received {
  event: string;
  merchant_id: string;
  created_at: string;
  data: Record<string, any>;
}

let h: Harness;
let receiver: Server;
let url: string;
const received: Received[] = [];
let failNext = 0;
let hits = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits++;
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end();
        return;
      }
      received.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  h = await startHarness({ webhookRetryDelaysMs: [20, 40, 80] });
  const r = await h.call('POST', '/sandbox/webhooks/', { body: { url } });
  expect(r.body.data).toEqual({ id: expect.stringMatching(/^WH/), merchant_id: h.merchant.merchant_id, url, listener: false, created_at: expect.any(String) });
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

async function waitFor<T>(pick: () => T | undefined, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = pick();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out waiting for a webhook');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('webhooks (spec part 6)', () => {
  it('PAYMENT_CAPTURED and PAYMENT_FAILED carry payment_id', async () => {
    const ok = await paidOrder(h, '10.00');
    const ev = await waitFor(() => received.find((e) => e.data.payment_id === ok.paymentId));
    expect(ev).toMatchObject({ event: 'PAYMENT_CAPTURED', merchant_id: h.merchant.merchant_id, data: { order_id: ok.orderId, status: 'captured', amount: '10.00' } });
    expect(ev.data).not.toHaveProperty('link_id');
    const bad = await paidOrder(h, '10.00', { outcome: 'fail' });
    expect(await waitFor(() => received.find((e) => e.data.payment_id === bad.paymentId))).toMatchObject({ event: 'PAYMENT_FAILED' });
  });

  it('a payment through a link carries link_id too', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const link = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: created.body.data.order_id } });
    const paid = await h.call('POST', `/sandbox/orders/${created.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    const ev = await waitFor(() => received.find((e) => e.data.payment_id === paid.body.data.payment_id));
    expect(ev.data.link_id).toBe(link.body.data.link_id);
    expect(ev.data.payment_id).not.toBe(ev.data.link_id);
  });

  it('PAYMENT_SETTLED carries the new settlement, and a failed delivery is retried', async () => {
    const p = await paidOrder(h, '1000.00');
    failNext = 2;
    const before = hits;
    const r = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [p.paymentId] } });
    const ev = await waitFor(() => received.find((e) => e.event === 'PAYMENT_SETTLED' && e.data.settlement_id === r.body.data.settlement_id));
    expect(ev.data).toMatchObject({ ...r.body.data, payment_ids: [p.paymentId], refund_ids: [], chargeback_ids: [] });
    expect(hits - before).toBeGreaterThanOrEqual(3);
  });

  it('an unreachable address never blocks or undoes the operation', async () => {
    await h.call('POST', '/sandbox/webhooks/', { body: { url: 'http://127.0.0.1:1/unreachable' } });
    const p = await paidOrder(h, '50.00');
    const started = Date.now();
    const r = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [p.paymentId] } });
    expect(r.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await h.call('GET', `/pg/payments/${p.paymentId}/`)).body.data.settlement.id).toBe(r.body.data.settlement_id);
  });

  it("a PSP's address receives its sub-merchants' events; seeded data sends none", async () => {
    const pspHook = `${url}?psp=1`;
    await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: pspHook } });
    const subs = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    const count = received.length;
    const p = await paidOrder(h, '10.00', { as: 'psp', headers: { 'x-merchant-id': subs.body.data.results[0].id } });
    await waitFor(() => received.find((e) => e.data.payment_id === p.paymentId));
    await h.call('POST', '/sandbox/seed/', { body: { payments: 3 } });
    await new Promise((r) => setTimeout(r, 100));
    expect(received.slice(count).filter((e) => e.event === 'PAYMENT_CAPTURED')).toHaveLength(1);
  });
});
