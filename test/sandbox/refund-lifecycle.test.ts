// The refund lifecycle of vendor 2 over real HTTP: a refund starts `initiated`, simulate-status
// walks it through every status with the event of vendor 2.4 (none on a repeat), the list filters
// and pages at the top level, Get Payment lists it, and mark-settled debits only the statuses of
// docs/sandbox.md ("Refund lifecycle").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';

interface Received { type: string; data: Record<string, any> }

let h: Harness;
let prod: Harness;
let receiver: Server;
const received: Received[] = [];
let nowMs = Date.parse('2026-11-20T10:00:00.000Z');

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const e = JSON.parse(body);
      // The envelope belongs to issue 19 (event or event_type); the data is this issue's.
      received.push({ type: e.event_type ?? e.event, data: e.data });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  h = await startHarness({ clock: () => new Date(nowMs) });
  prod = await startHarness({ production: true });
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await h.call('POST', '/sandbox/webhooks/', { body: { url } })).status).toBeLessThan(300);
});
afterAll(async () => {
  await h.close();
  await prod.close();
  await new Promise((r) => receiver.close(r));
});

/** Events of one refund seen so far; settles once the sandbox has had time to deliver (no timing asserted). */
async function eventsOf(refundId: string, expected: number): Promise<Received[]> {
  const mine = () => received.filter((e) => JSON.stringify(e.data).includes(refundId));
  for (let i = 0; i < 300 && mine().length < expected; i++) await new Promise((r) => setTimeout(r, 10));
  // a little longer, so an event that should not come would have come
  await new Promise((r) => setTimeout(r, 50));
  return mine();
}

const simulate = (id: string, body: unknown, who: Harness = h) => who.call('POST', `/pg/refunds/${id}/simulate-status/`, { body });

describe('refund lifecycle (vendor 2)', () => {
  it('create: starts initiated with the documented fields; Get Refund and Get Payment agree', async () => {
    const { paymentId } = await paidOrder(h, '500.00');
    const r = await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '120.50' } });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Refund request processed successfully');
    expect(r.body.data).toMatchObject({
      refund_id: expect.stringMatching(/^RF[0-9]{10}$/),
      payment_id: paymentId,
      refund_status: 'initiated',
      refund_amount: 120.5,
      message: 'Refund Request Queued',
      status_message: 'Refund Request Queued',
      bank_ref_num: null,
      refunded_at: null,
    });
    const got = await h.call('GET', `/pg/refunds/${r.body.data.refund_id}/`);
    expect(got.body.data).toEqual(r.body.data);
    const payment = (await h.call('GET', `/pg/payments/${paymentId}/`)).body.data;
    expect(payment.refund).toEqual([
      {
        refund_id: r.body.data.refund_id,
        payment_id: paymentId,
        refund_amount: 120.5,
        refund_status: 'initiated',
        message: 'Refund Request Queued',
        status_message: 'Refund Request Queued',
        bank_ref_num: null,
        refunded_at: null,
        created_at: r.body.data.created_at,
      },
    ]);
  });

  it('simulate-status walks every status: lowercase out, the right event per transition, none on a repeat', async () => {
    const { paymentId, orderId } = await paidOrder(h, '300.00');
    const refund = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '100.00' } })).body.data;
    const id = refund.refund_id as string;

    const same = await simulate(id, { status: 'INITIATED' });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ refund_status: 'initiated', refund_amount: '100.00', settlement_details: {}, reference_id: null });

    const walk: [string, string | null, string][] = [
      ['PROCESSING', 'REFUND_STATUS_UPDATE', 'Refund processing'],
      ['REFUNDED', 'PAYMENT_REFUNDED', 'Simulated refund settled'],
      ['REFUNDED', null, 'Simulated refund settled'],
      ['FAILED', 'REFUND_FAILED', 'Simulated refund failed'],
      ['REVERSED', 'REFUND_STATUS_UPDATE', 'Refund reversed'],
      ['ON_HOLD', 'REFUND_STATUS_UPDATE', 'Refund on hold'],
      ['BANK_REJECTED_REFUND', 'REFUND_STATUS_UPDATE', 'Refund rejected by bank'],
      ['INITIATED', null, 'Refund initiated'],
    ];
    let refundedAt: string | null = null;
    let expectedEvents = 0;
    for (const [status, event, message] of walk) {
      nowMs += 1000;
      const r = await simulate(id, { status });
      expect(r.status, status).toBe(200);
      expect(r.body.message).toBe('Refund status updated successfully');
      expect(r.body.data.refund_status).toBe(status.toLowerCase());
      expect(r.body.data.message).toBe(message);
      if (status === 'REFUNDED' && refundedAt === null) refundedAt = r.body.data.refunded_at;
      // rule 4: stamped once, never cleared
      if (refundedAt !== null) expect(r.body.data.refunded_at).toBe(refundedAt);
      if (event) expectedEvents++;
    }
    expect(refundedAt).toMatch(/^2026-11-20T10:00:0\d\.\d{6}Z$/);
    const events = await eventsOf(id, expectedEvents);
    expect(events.map((e) => e.type)).toEqual(walk.filter(([, e]) => e !== null).map(([, e]) => e));
    expect(events[0]!.data.refunds[0]).toMatchObject({ refund_id: id, payment_id: paymentId, order_id: orderId, refund_amount: 100, refund_status: 'PROCESSING', comments: 'Refund processing' });
    expect(events[1]!.data.refunds[0]).toMatchObject({ payment_request_id: paymentId, payment_id: paymentId, order_id: orderId, refund_id: id, amount: 100, refund_amount: 100, refund_completed_at: refundedAt });
    expect(events[2]!.data.refunds[0]).toMatchObject({ refund_id: id, payment_id: paymentId, order_id: orderId, refund_amount: 100, comments: 'Simulated refund failed' });
    expect(events[2]!.data.refunds[0].refund_status).toBeUndefined();
    expect(events.slice(3).map((e) => e.data.refunds[0].refund_status)).toEqual(['REVERSED', 'ON_HOLD', 'BANK_REJECTED_REFUND']);
  });

  it('status_message travels in comments; bank_ref_num is stamped and kept when omitted', async () => {
    const { paymentId } = await paidOrder(h, '50.00');
    const id = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId } })).body.data.refund_id;
    const r = await simulate(id, { status: 'REFUNDED', status_message: 'Done by the bank', bank_ref_num: 'ARN123' });
    expect(r.body.data).toMatchObject({ refund_status: 'refunded', message: 'Done by the bank', refund_amount: '50.00' });
    expect((await h.call('GET', `/pg/refunds/${id}/`)).body.data).toMatchObject({ bank_ref_num: 'ARN123', message: 'Done by the bank', status_message: 'Done by the bank' });
    await simulate(id, { status: 'PROCESSING' });
    expect((await h.call('GET', `/pg/refunds/${id}/`)).body.data.bank_ref_num).toBe('ARN123');
    const events = await eventsOf(id, 2);
    expect(events[0]!.data.refunds[0]).toMatchObject({ comments: 'Done by the bank', bank_arn: 'ARN123' });
  });

  it('refusals: ERR_REFUND_002 by cause, a bare 404 for unknown or foreign refunds, 400 in production', async () => {
    const { paymentId } = await paidOrder(h, '40.00');
    const id = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId } })).body.data.refund_id;
    const lower = await simulate(id, { status: 'refunded' });
    expect(lower.status).toBe(400);
    expect(lower.body.error).toEqual({ code: 'ERR_REFUND_002', message: 'Validation error', details: { status: '"refunded" is not a valid choice.' } });
    expect((await simulate(id, {})).body.error.details).toEqual({ status: 'This field is required.' });
    expect((await simulate(id, { status: 'DONE' })).body.error.details).toEqual({ status: '"DONE" is not a valid choice.' });

    const unknown = await simulate('RF0000000000', { status: 'FAILED' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not found.' });
    const foreign = await h.call('POST', `/pg/refunds/${id}/simulate-status/`, { body: { status: 'FAILED' }, as: 'psp' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Not found.' });

    const other = await h.call('POST', '/sandbox/orders/' + (await h.call('POST', '/pg/orders/', { body: (await import('./harness.js')).orderBody({ amount: '10.00' }) })).body.data.order_id + '/pay/', { body: { outcome: 'success', gateway: 'razorpay' } });
    const offSim = (await h.call('POST', '/pg/refunds/', { body: { payment_id: other.body.data.payment_id } })).body.data.refund_id;
    expect((await simulate(offSim, { status: 'FAILED' })).body.error).toEqual({ code: 'ERR_REFUND_002', message: 'Validation error', details: { refund_uid: `${offSim} is not on the simulator gateway` } });

    const inProd = await prod.call('POST', '/pg/refunds/RF0000000000/simulate-status/', { body: { status: 'FAILED' } });
    expect(inProd.status).toBe(400);
    expect(inProd.body.error).toEqual({ code: 'ERR_REFUND_002', message: 'Validation error', details: { error: 'Refund status simulation is not available in production' } });
  });

  it('list: filters, newest first, the page at the top level and under data', async () => {
    const a = await paidOrder(h, '90.00');
    const b = await paidOrder(h, '80.00');
    nowMs += 86_400_000;
    const r1 = (await h.call('POST', '/pg/refunds/', { body: { payment_id: a.paymentId, refund_amount: '10.00' } })).body.data;
    nowMs += 1000;
    const r2 = (await h.call('POST', '/pg/refunds/', { body: { payment_id: a.paymentId, refund_amount: '11.00' } })).body.data;
    const r3 = (await h.call('POST', '/pg/refunds/', { body: { payment_id: b.paymentId, refund_amount: '12.00' } })).body.data;
    const byPayment = await h.call('GET', `/pg/refunds/?payment_id=${a.paymentId}`);
    expect(byPayment.status).toBe(200);
    expect(byPayment.body).toMatchObject({ count: 2, page: 1, page_size: 250, next: null, previous: null });
    expect(byPayment.body.results.map((r: any) => r.refund_id)).toEqual([r2.refund_id, r1.refund_id]);
    expect(byPayment.body.data.results).toEqual(byPayment.body.results);
    expect(byPayment.body.results[0]).toMatchObject({ refund_amount: 11, refund_status: 'initiated', refunded_at: null, message: 'Refund Request Queued', payment_id: a.paymentId });

    const order = (await h.call('GET', `/pg/orders/${b.orderId}/`)).body.data;
    const byRef = await h.call('GET', `/pg/refunds/?reference_id=${order.reference_id}`);
    expect(byRef.body.results.map((r: any) => r.refund_id)).toEqual([r3.refund_id]);

    const day = new Date(nowMs).toISOString().slice(0, 10);
    const today = await h.call('GET', `/pg/refunds/?from_date=${day}&to_date=${day}&page_size=2`);
    expect(today.body.count).toBe(3);
    expect(today.body.results).toHaveLength(2);
    expect(today.body.next).toContain('page=2');
    expect((await h.call('GET', '/pg/refunds/?to_date=2026-01-01')).body.count).toBe(0);
    expect((await h.call('GET', '/pg/refunds/?from_date=2026-13-01')).status).toBe(400);
    // scoping: the PSP sees none of the merchant's refunds
    expect((await h.call('GET', `/pg/refunds/?payment_id=${a.paymentId}`, { as: 'psp' })).body.count).toBe(0);
  });

  it('mark-settled debits initiated, processing, on_hold and refunded refunds, never failed, reversed or bank-rejected', async () => {
    const { paymentId } = await paidOrder(h, '1000.00');
    const mk = async (amount: string, status?: string) => {
      const id = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: amount } })).body.data.refund_id as string;
      if (status) expect((await simulate(id, { status })).status).toBe(200);
      return id;
    };
    const failed = await mk('100.00', 'FAILED');
    const reversed = await mk('100.00', 'REVERSED');
    const rejected = await mk('100.00', 'BANK_REJECTED_REFUND');
    const processing = await mk('100.00', 'PROCESSING');
    const initiated = await mk('50.00');
    // The three that gave nothing back do not count against what is left to refund: 1000 − 100 − 50 = 850 is left.
    const rest = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId } })).body.data;
    expect(rest.refund_amount).toBe(850);
    expect((await simulate(rest.refund_id, { status: 'FAILED' })).status).toBe(200);

    for (const id of [failed, reversed, rejected]) {
      const refused = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paymentId], refund_uids: [id] } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('ERR_SERVICE_ERROR_000');
      expect(refused.body.error.details.refund_uids[0]).toMatch(new RegExp(`^${id} is (failed|reversed|bank_rejected_refund): only initiated, processing, on_hold, refunded refunds are debited$`));
      expect((await h.call('GET', `/pg/refunds/${id}/settlement/`)).body.data.settlement_status).toBe('NOT_APPLICABLE');
    }
    const ok = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paymentId], refund_uids: [processing, initiated] } });
    expect(ok.status).toBe(200);
    // 941.00 net − 100.00 − 50.00
    expect(ok.body.data.settlement_amount).toBe('791.00');
    const after = await simulate(processing, { status: 'REFUNDED' });
    expect(after.body.data.settlement_details).toMatchObject({ settlement_id: ok.body.data.settlement_id, transaction_amount: '100.00', merchant_net_amount: '-100.00' });
  });
});
