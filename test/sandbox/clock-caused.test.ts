// issue 42 item 5: a clock move answers after everything that fell due has happened, and says
// what it caused (POST /sandbox/clock/ `caused`): attempts by their answer, the events now failed,
// links and verifications expired, the refunds issued with their amounts. And the outbox drain:
// a process that closes while one attempt is on the wire still makes the next one that fell due.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
let receiver: Server;
let url: string;
const hits: { at: number; type: string }[] = [];
let delayMs = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ at: Date.now(), type: String(req.headers['x-webhook-event']) });
      setTimeout(() => res.writeHead(500).end(), delayMs);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  h = await startHarness({ pollWebhooks: false });
  expect((await h.call('POST', '/sandbox/webhooks/', { body: { url } })).status).toBe(200);
});

afterAll(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

const settle = () => new Promise((r) => setTimeout(r, 100));

describe('a clock move reports what it caused', () => {
  it('a week: the retries of a failing delivery, a link expired, a verification expired and refunded in full', async () => {
    const { paymentId } = await paidOrder(h, '1500.00');
    // A card payment's review with the 7-day deadline (11.10 P9).
    expect((await h.call('POST', `/pg/payments/${paymentId}/simulate-verification/`, { body: { status: 'ACTION_REQUIRED', message: 'Send the invoice' } })).status).toBe(200);
    const order = (await h.call('POST', '/pg/orders/', { body: orderBody({ amount: '700.00' }) })).body.data.order_id as string;
    const link = (await h.call('POST', '/sandbox/payment-links/', { body: { order_id: order, expires_in_seconds: 86_400 } })).body.data.link_id as string;
    await settle();
    const before = hits.length;

    const moved = await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 7 * 86_400 + 60 } });
    expect(moved.status).toBe(200);
    const caused = moved.body.data.caused;
    // Answered after every attempt that fell due: none arrives after the answer.
    const atAnswer = hits.length;
    await settle();
    expect(hits.length).toBe(atAnswer);
    expect(caused.deliveries).toEqual({ attempted: atAnswer - before, delivered: 0, failed: atAnswer - before });
    // PAYMENT_SUCCESSFUL and VERIFICATION_NEEDED (ACTION_REQUIRED) had 4 retries each left.
    expect(caused.events_failed.map((e: any) => [e.event_type, e.about, e.attempts, e.last_status])).toEqual([
      ['PAYMENT_SUCCESSFUL', paymentId, 5, 500],
      ['VERIFICATION_NEEDED', paymentId, 5, 500],
    ]);
    expect(caused.links_expired).toEqual([{ link_id: link, order_id: order, amount: '700.00', expired_at: expect.any(String) }]);
    expect(caused.verifications_expired).toEqual([{ payment_id: paymentId, amount: '1500.00', refund_id: expect.stringMatching(/^RF/), refund_amount: '1500.00' }]);
    expect(caused.refunds).toEqual([{ refund_id: caused.verifications_expired[0].refund_id, payment_id: paymentId, amount: '1500.00', reason: 'verification expired' }]);
    expect(caused.refunded_total).toBe('1500.00');
    expect(caused.events_sent.map((e: any) => [e.event_type, e.about]).sort()).toEqual([
      ['PAYMENT_FAILED', link],
      ['VERIFICATION_NEEDED', paymentId],
    ]);
    expect(caused.subscription_payments).toEqual([]);

    // What it reports is what the log holds: the failed events are listed as failed.
    const failed = (await h.call('GET', '/sandbox/events/?status=failed')).body.data.map((e: any) => e.id);
    expect(failed).toEqual(expect.arrayContaining(caused.events_failed.map((e: any) => e.id)));

    // Nothing more fell due: the next move causes nothing.
    const again = (await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 1 } })).body.data.caused;
    expect(again).toMatchObject({ deliveries: { attempted: 0, delivered: 0, failed: 0 }, links_expired: [], verifications_expired: [], refunds: [], refunded_total: '0.00' });
  });

  it("another account's tree is not reported, and a move back causes nothing", async () => {
    const back = (await h.call('POST', '/sandbox/clock/', { body: { reset: true }, as: 'psp' })).body.data.caused;
    expect(back.deliveries.attempted).toBe(0);
    expect(back.links_expired).toEqual([]);
  });
});

describe('closing: what fell due while an attempt was on the wire is still made', () => {
  it('two events recorded while the first is being delivered both go out before the process stops', async () => {
    const other = await startHarness({ pollWebhooks: false, dbPath: h.dbPath });
    delayMs = 400;
    try {
      const seen = hits.length;
      const order = (await other.call('POST', '/pg/orders/', { body: orderBody() })).body.data.order_id as string;
      await other.call('POST', `/sandbox/orders/${order}/pay/`, { body: { outcome: 'success' } });
      await new Promise((r) => setTimeout(r, 50)); // the first attempt is on the wire
      const second = (await other.call('POST', '/pg/orders/', { body: orderBody() })).body.data.order_id as string;
      await other.call('POST', `/sandbox/orders/${second}/pay/`, { body: { outcome: 'fail' } });
      await other.close();
      expect(hits.slice(seen).map((x) => x.type)).toEqual(['PAYMENT_SUCCESSFUL', 'PAYMENT_FAILED']);
    } finally {
      delayMs = 0;
    }
  });
});
