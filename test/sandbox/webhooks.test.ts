// Webhook deliveries as the gateway makes them (issue 19; vendor 1.1-1.6), checked by a receiver
// written from the vendor's verification recipe, not from pgw's signing code: the raw body's
// HMAC-SHA256 with the account's Encryption Key compared in constant time, and the documented
// fallback (keys sorted at every level, compact, non-ASCII as \uXXXX) recomputing the same value.
import { spawnSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, orderBody, type Harness } from './harness.js';

interface Delivery {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  body: { event_type: string; event_time: string; version: string; sequence_number: string; data: Record<string, any> };
}

/** The vendor's check: HMAC-SHA256 of the raw body, hex, compared in constant time. */
function rawBodyVerifies(raw: Buffer, signature: string, key: string): boolean {
  const expected = createHmac('sha256', key).update(raw).digest('hex');
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature, 'hex'), Buffer.from(expected, 'hex'));
}

/** The vendor's fallback, as its Python recipe does: json.dumps(data, sort_keys=True, separators=(",", ":")). */
function pythonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${pythonDumps(k)}:${pythonDumps((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  if (typeof value === 'string') return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(value);
}

let h: Harness;
let receiver: Server;
let url: string;
let answer = 200;
const received: Delivery[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ raw, headers: req.headers, body: JSON.parse(raw.toString('utf8')) });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The machine's clock under the sandbox clock moves 1 ms per reading, never with real time: a
  // slow machine cannot make a retry fall due early, so the schedule is checked to the second.
  let machineMs = Date.now();
  h = await startHarness({ pollWebhooks: false, clock: () => new Date(machineMs++) });
  const r = await h.call('POST', '/sandbox/webhooks/', { body: { url } });
  expect(r.body.data).toEqual({
    id: expect.stringMatching(/^WH/),
    merchant_id: h.merchant.merchant_id,
    url,
    listener: false,
    created_at: expect.any(String),
    encryption_key: h.merchant.encryption_key,
  });
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

async function waitFor<T>(pick: () => T | undefined, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = pick();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out waiting for a webhook');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const byPayment = (id: string) => () => received.find((e) => e.body.data.payment_id === id);
const advance = (seconds: number) => h.call('POST', '/sandbox/clock/', { body: { advance_seconds: seconds } });

describe('deliveries as the gateway makes them (vendor 1.1, 1.4-1.6)', () => {
  it('every account has an Encryption Key, shown with its credentials', () => {
    expect(h.merchant.encryption_key).toMatch(/^sbx_ek_[0-9a-f]{48}$/);
    expect(h.psp.encryption_key).toMatch(/^sbx_ek_[0-9a-f]{48}$/);
    expect(h.psp.encryption_key).not.toBe(h.merchant.encryption_key);
  });

  it('PAYMENT_SUCCESSFUL: envelope, headers, every field of vendor 1.6 (N12), signed', async () => {
    const ok = await paidOrder(h, '10.50');
    const ev = await waitFor(byPayment(ok.paymentId));
    expect(Object.keys(ev.body).sort()).toEqual(['data', 'event_time', 'event_type', 'sequence_number', 'version']);
    expect(ev.body).toMatchObject({ event_type: 'PAYMENT_SUCCESSFUL', version: '2.0.0' });
    expect(ev.body.event_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(ev.body.sequence_number).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const payment = (await h.call('GET', `/pg/payments/${ok.paymentId}/`)).body.data;
    expect(ev.body.data).toEqual({
      payment_id: ok.paymentId,
      order_id: ok.orderId,
      link_id: null,
      status: 'captured',
      extended_status: 'SUCCESS',
      message: 'Payment successful',
      payment_message: 'Payment successful',
      mop_type: 'upi',
      amount: 10.5,
      merchant_reference_id: expect.any(String),
      bank_ref_num: expect.stringMatching(/^\d+$/),
      payment_completed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      utr: null,
      virtual_account_id: null,
      subscription_id: null,
    });
    expect(ev.body.data.bank_ref_num).toBe(payment.bank_ref_num ?? payment.bank_reference ?? ev.body.data.bank_ref_num);
    expect(ev.headers['content-type']).toBe('application/json');
    expect(ev.headers['user-agent']).toBe('EximPe-Webhook/1.0');
    expect(ev.headers['x-webhook-event']).toBe('PAYMENT_SUCCESSFUL');
    expect(ev.headers['x-webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(rawBodyVerifies(ev.raw, String(ev.headers['x-webhook-signature']), h.merchant.encryption_key)).toBe(true);
    expect(rawBodyVerifies(ev.raw, String(ev.headers['x-webhook-signature']), h.psp.encryption_key)).toBe(false);
  });

  it('X-Webhook-Signature-V2 is t=<X-Webhook-Timestamp>,v2=HMAC(key, t + "." + raw body) (N11)', async () => {
    const ok = await paidOrder(h, '11.00');
    const ev = await waitFor(byPayment(ok.paymentId));
    const t = String(ev.headers['x-webhook-timestamp']);
    const v2 = createHmac('sha256', h.merchant.encryption_key).update(`${t}.`).update(ev.raw).digest('hex');
    expect(ev.headers['x-webhook-signature-v2']).toBe(`t=${t},v2=${v2}`);
  });

  it('PAYMENT_FAILED: the reason in message, link_id always present; a link payment carries link_id', async () => {
    const bad = await paidOrder(h, '10.00', { outcome: 'fail' });
    const failed = await waitFor(byPayment(bad.paymentId));
    expect(failed.body).toMatchObject({ event_type: 'PAYMENT_FAILED', version: '1.0' });
    expect(failed.body.event_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
    // bank_ref_num: a required string on PAYMENT_FAILED's page, in the form the docs show (vendor 3.2).
    expect(failed.body.data).toMatchObject({ status: 'failed', extended_status: 'FAILED', link_id: null, bank_ref_num: `${bad.orderId}-${bad.paymentId}`, amount: 10 });
    expect(failed.body.data.message).toMatch(/declined/i);
    for (const k of ['status', 'message', 'mop_type', 'order_id', 'payment_id', 'bank_ref_num', 'payment_completed_at', 'link_id']) expect(failed.body.data).toHaveProperty(k);

    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const link = await h.call('POST', '/sandbox/payment-links/', { body: { order_id: created.body.data.order_id } });
    const paid = await h.call('POST', `/sandbox/orders/${created.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    const viaLink = await waitFor(byPayment(paid.body.data.payment_id));
    expect(viaLink.body.data.link_id).toBe(link.body.data.link_id);
    expect(viaLink.body.data.payment_id).not.toBe(viaLink.body.data.link_id);
  });

  it('PAYMENT_SETTLED carries data.settlements[] (vendor 1.6)', async () => {
    const p = await paidOrder(h, '1000.00');
    const r = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [p.paymentId] } });
    const s = r.body.data;
    const ev = await waitFor(() => received.find((e) => e.body.event_type === 'PAYMENT_SETTLED' && e.body.data.settlements?.[0]?.settlement_id === s.settlement_id));
    expect(ev.body.version).toBe('1.0');
    expect(ev.body.event_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(ev.body.data).toEqual({
      settlements: [
        {
          settlement_id: s.settlement_id,
          settlement_utr: s.utr_number,
          settlement_done_at: s.settlement_completed_at,
          forex_rate: 96,
          settlement_amount: Number(s.settlement_amount),
        },
      ],
    });
  });

  it('refund events (vendor 1.6): refunds[] with both name sets, each in its page\'s envelope form', async () => {
    const p = await paidOrder(h, '300.00');
    const refund = (await h.call('POST', '/pg/refunds/', { body: { payment_id: p.paymentId, refund_amount: '100.00' } })).body.data;
    const move = (status: string) => h.call('POST', `/pg/refunds/${refund.refund_id}/simulate-status/`, { body: { status } });
    const of = (type: string) => () => received.find((e) => e.body.event_type === type && e.body.data.refunds?.[0]?.refund_id === refund.refund_id);

    await move('PROCESSING');
    const update = await waitFor(of('REFUND_STATUS_UPDATE'));
    expect(update.body.version).toBe('3.0.0');
    expect(update.body.event_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(update.body.data.refunds[0]).toMatchObject({ order_id: p.orderId, refund_id: refund.refund_id, payment_id: p.paymentId, refund_amount: 100, refund_status: 'PROCESSING' });

    await move('FAILED');
    const failed = await waitFor(of('REFUND_FAILED'));
    expect(failed.body.version).toBe('3.0.0');
    expect(failed.body.data.refunds[0]).toMatchObject({ order_id: p.orderId, refund_id: refund.refund_id, payment_id: p.paymentId, refund_amount: 100 });

    await move('REFUNDED');
    const refunded = await waitFor(of('PAYMENT_REFUNDED'));
    expect(refunded.body.version).toBe('1.0');
    expect(refunded.body.event_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(refunded.body.data.refunds[0]).toMatchObject({ payment_request_id: p.paymentId, order_id: p.orderId, refund_id: refund.refund_id, amount: 100, payment_id: p.paymentId, refund_amount: 100 });
    expect(refunded.body.data.refunds[0]).toHaveProperty('bank_arn');
    for (const ev of [update, failed, refunded]) expect(rawBodyVerifies(ev.raw, String(ev.headers['x-webhook-signature']), h.merchant.encryption_key)).toBe(true);
  });

  it('a link that closes unpaid sends PAYMENT_FAILED for the link itself (N13): deactivated, or expired on the sandbox clock', async () => {
    const linkEvents = (linkId: string) => received.filter((e) => e.body.event_type === 'PAYMENT_FAILED' && e.body.data.payment_id === linkId);
    const a = await h.call('POST', '/pg/orders/', { body: orderBody({ amount: '42.00' }) });
    const closed = (await h.call('POST', '/sandbox/payment-links/', { body: { order_id: a.body.data.order_id } })).body.data;
    await h.call('POST', `/sandbox/payment-links/${closed.link_id}/deactivate/`, {});
    const ev = await waitFor(() => linkEvents(closed.link_id)[0]);
    expect(ev.body.data).toMatchObject({ payment_id: closed.link_id, link_id: closed.link_id, order_id: a.body.data.order_id, status: 'failed', amount: 42, bank_ref_num: `${a.body.data.order_id}-${closed.link_id}` });
    expect(ev.body.data.message).toMatch(/deactivated/);

    const b = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const short = (await h.call('POST', '/sandbox/payment-links/', { body: { order_id: b.body.data.order_id, expires_in_seconds: 600 } })).body.data;
    await advance(599);
    expect(linkEvents(short.link_id)).toHaveLength(0);
    await advance(2);
    expect(linkEvents(short.link_id)).toHaveLength(1);
    expect(linkEvents(short.link_id)[0]!.body.data.message).toMatch(/expired/);
    await advance(3600);
    expect(linkEvents(short.link_id)).toHaveLength(1); // announced once
    // A paid link never announces a failure, whatever the clock does.
    const c = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const paidLink = (await h.call('POST', '/sandbox/payment-links/', { body: { order_id: c.body.data.order_id, expires_in_seconds: 60 } })).body.data;
    await h.call('POST', `/sandbox/orders/${c.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    await advance(120);
    expect(linkEvents(paidLink.link_id)).toHaveLength(0);
  });

  it("MERCHANT_APPROVED (vendor 1.6): to the PSP's address, signed with the PSP's key", async () => {
    const pspUrl = `${url}?approvals=1`;
    const reg = (await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: pspUrl } })).body.data;
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string; kyc_status: string }[];
    const pending = subs.find((m) => m.kyc_status !== 'APPROVED')!;
    expect((await h.call('POST', `/sandbox/merchants/${pending.id}/kyc/`, { as: 'psp', body: { kyc_status: 'APPROVED' } })).status).toBe(200);
    const ev = await waitFor(() => received.find((e) => e.body.event_type === 'MERCHANT_APPROVED' && e.body.data.merchant_id === pending.id));
    expect(ev.body.version).toBe('1.0');
    expect(ev.body.event_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    for (const k of ['approved_at', 'merchant_id', 'legal_name', 'trade_name']) expect(ev.body.data).toHaveProperty(k);
    expect(rawBodyVerifies(ev.raw, String(ev.headers['x-webhook-signature']), h.psp.encryption_key)).toBe(true);
    await h.call('DELETE', `/sandbox/webhooks/${reg.id}/`, { as: 'psp' });
  });

  it('every body is what the fallback check re-serialises, so both checks agree', () => {
    expect(received.length).toBeGreaterThan(4);
    for (const ev of received) {
      const sig = String(ev.headers['x-webhook-signature']);
      // The merchant's events with its key; the PSP's (MERCHANT_APPROVED) with the PSP's.
      const key = [h.merchant.encryption_key, h.psp.encryption_key].find((k) => rawBodyVerifies(ev.raw, sig, k));
      expect(key).toBeDefined();
      const again = pythonDumps(JSON.parse(ev.raw.toString('utf8')));
      expect(again).toBe(ev.raw.toString('utf8'));
      expect(createHmac('sha256', key!).update(again).digest('hex')).toBe(sig);
    }
  });

  it('the fallback agrees with Python\'s own json.dumps where python3 is installed', (ctx) => {
    const py = spawnSync('python3', ['-c', 'import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read()), sort_keys=True, separators=(",", ":")))'], {
      input: received[0]!.raw,
    });
    if (py.error || py.status !== 0) return ctx.skip();
    for (const ev of received.slice(0, 3)) {
      const out = spawnSync('python3', ['-c', 'import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read()), sort_keys=True, separators=(",", ":")))'], { input: ev.raw });
      expect(out.stdout.toString('utf8')).toBe(ev.raw.toString('utf8'));
    }
  });

  it("a sub-merchant's events go to its PSP's addresses, signed with the PSP's key; seeded data sends none", async () => {
    const pspUrl = `${url}?psp=1`;
    const reg = await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: pspUrl } });
    expect(reg.body.data.encryption_key).toBe(h.psp.encryption_key);
    const subs = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    const count = received.length;
    const p = await paidOrder(h, '10.00', { as: 'psp', headers: { 'x-merchant-id': subs.body.data.results[0].id } });
    const ev = await waitFor(byPayment(p.paymentId));
    expect(rawBodyVerifies(ev.raw, String(ev.headers['x-webhook-signature']), h.psp.encryption_key)).toBe(true);
    await h.call('POST', '/sandbox/seed/', { body: { payments: 3 } });
    await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 1 } }); // makes anything due
    expect(received.slice(count).filter((e) => e.body.event_type === 'PAYMENT_SUCCESSFUL')).toHaveLength(1);
    await h.call('DELETE', `/sandbox/webhooks/${reg.body.data.id}/`, { as: 'psp' });
  });
});

describe('retries on the gateway schedule, on the sandbox clock (vendor 1.1)', () => {
  it('with a receiver answering 500: nothing before 60 s, then exactly the attempts due at 1, 5, 15 and 60 min, none after the fifth', async () => {
    answer = 500;
    const p = await paidOrder(h, '20.00');
    const mine = () => received.filter((e) => e.body.data.payment_id === p.paymentId).length;
    await waitFor(() => (mine() === 1 ? true : undefined));
    let eventId = '';
    for (const e of (await h.call('GET', '/sandbox/events/?limit=100')).body.data as any[]) {
      const d = (await h.call('GET', `/sandbox/events/${e.id}/`)).body.data;
      if (d.payload.data.payment_id === p.paymentId) eventId = e.id;
    }
    const list = async () => ((await h.call('GET', '/sandbox/events/?limit=100')).body.data as any[]).find((e) => e.id === eventId);
    expect(eventId).toMatch(/^EV/);
    expect(await list()).toMatchObject({ attempts: 1, last_status: 500, status: 'pending' });

    await advance(59);
    expect(mine()).toBe(1);
    await advance(1);
    expect(mine()).toBe(2);
    await advance(239); // 4 min 59 s after the first try
    expect(mine()).toBe(2);
    await advance(1);
    expect(mine()).toBe(3);
    await advance(600);
    expect(mine()).toBe(4);
    await advance(2700);
    expect(mine()).toBe(5);
    expect(await list()).toMatchObject({ attempts: 5, last_status: 500, status: 'failed', next_attempt_at: null });
    await advance(7 * 86_400);
    expect(mine()).toBe(5);

    const detail = (await h.call('GET', `/sandbox/events/${eventId}/`)).body.data;
    expect(detail.deliveries[0].attempts.map((a: any) => a.n)).toEqual([1, 2, 3, 4, 5]);
    expect(detail.body).toBe(received.find((e) => e.body.data.payment_id === p.paymentId)!.raw.toString('utf8'));

    answer = 200;
    const resent = await h.call('POST', `/sandbox/events/${eventId}/resend/`, { body: {} });
    expect(resent.body.data).toMatchObject({ status: 'delivered', attempts: 6, last_status: 200 });
    expect(mine()).toBe(6);
    // The resent bytes are the stored ones: the same sequence_number, the same body.
    const bodies = received.filter((e) => e.body.data.payment_id === p.paymentId).map((e) => e.raw.toString('utf8'));
    expect(new Set(bodies).size).toBe(1);
  });

  it('a 2xx other than 200 is a failure (the guide), retried', async () => {
    answer = 204;
    const p = await paidOrder(h, '21.00');
    await waitFor(byPayment(p.paymentId));
    answer = 200;
    await advance(60);
    expect(received.filter((e) => e.body.data.payment_id === p.paymentId)).toHaveLength(2);
    await advance(3600);
    expect(received.filter((e) => e.body.data.payment_id === p.paymentId)).toHaveLength(2);
  });

  it('the events list filters by status and type; attempts is a number', async () => {
    const delivered = (await h.call('GET', '/sandbox/events/?status=delivered')).body.data as any[];
    expect(delivered.length).toBeGreaterThan(0);
    for (const e of delivered) expect(e.status).toBe('delivered');
    expect((await h.call('GET', '/sandbox/events/?status=pending')).body.data).toEqual([]);
    const settled = (await h.call('GET', '/sandbox/events/?event_type=payment_settled')).body.data as any[];
    expect(settled.length).toBeGreaterThan(0);
    for (const e of settled) {
      expect(e.event_type).toBe('PAYMENT_SETTLED');
      expect(typeof e.attempts).toBe('number');
    }
    expect((await h.call('GET', '/sandbox/events/?status=nope')).status).toBe(400);
    expect((await h.call('GET', '/sandbox/events/EV00000000000000/')).status).toBe(404);
    // Another account's events are as unknown as missing ones.
    expect((await h.call('GET', `/sandbox/events/${settled[0].id}/`, { as: 'psp' })).status).toBe(404);
  });
});

describe('the sandbox clock (GET/POST /sandbox/clock/)', () => {
  it('timestamps follow it; set and reset move it for every rule', async () => {
    const before = (await h.call('GET', '/sandbox/clock/')).body.data;
    expect(before.offset_seconds).toBeGreaterThan(0); // the retry test advanced it
    const set = await h.call('POST', '/sandbox/clock/', { body: { set: '2031-03-01T12:00:00Z' } });
    expect(set.body.data.now.startsWith('2031-03-01T12:00')).toBe(true);
    const p = await paidOrder(h, '12.00');
    expect((await h.call('GET', `/pg/payments/${p.paymentId}/`)).body.data.order.created_at.startsWith('2031-03-01')).toBe(true);
    const ev = await waitFor(byPayment(p.paymentId));
    expect(ev.body.event_time.startsWith('2031-03-01T12:0')).toBe(true);
    expect(Number(ev.headers['x-webhook-timestamp'])).toBeGreaterThanOrEqual(Date.parse('2031-03-01T12:00:00Z') / 1000);
    const reset = (await h.call('POST', '/sandbox/clock/', { body: { reset: true } })).body.data;
    expect(reset.offset_seconds).toBe(0);
    for (const bad of [{}, { advance_seconds: -5 }, { advance_seconds: 1, reset: true }, { set: '2031-02-30' }, { sett: 1 }]) {
      expect((await h.call('POST', '/sandbox/clock/', { body: bad })).status).toBe(400);
    }
  });
});
