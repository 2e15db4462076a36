// pgw trigger against the embedded sandbox (in-process, real HTTP): what it makes for each event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';

let config: { dir: string; cleanup: () => void };
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(() => config.cleanup());

const pgw = (argv: string[]) => runCli(argv, { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' } });
async function json<T = Record<string, any>>(argv: string[]): Promise<T> {
  const r = await pgw([...argv, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

describe('pgw trigger', () => {
  it('PAYMENT_SETTLED: an order, its captured payment, settled; the settlement is readable', async () => {
    const made = await json(['trigger', 'PAYMENT_SETTLED', '--amount', '2000']);
    expect(made).toEqual({
      event: 'PAYMENT_SETTLED',
      order_id: expect.stringMatching(/^OD/),
      payment_id: expect.stringMatching(/^PR[0-9]{10}$/),
      settlement_id: expect.stringMatching(/^ST[0-9]{10}$/),
      amount: '2000.00',
      mop_type: 'upi',
      events: [{ id: expect.stringMatching(/^EV/), event_type: 'PAYMENT_SETTLED', targets: [] }],
    });
    const payment = await json(['payment', 'get', made.payment_id]);
    expect(payment).toMatchObject({ status: 'captured', order: { order_id: made.order_id, amount: '2000.00' }, settlement: { id: made.settlement_id } });
    const settlement = await json(['settle', 'get', made.settlement_id]);
    expect(settlement.settlement_amount).toBe(1882); // 2000 - 100 fee - 18 GST (spec 4.6)
  });

  it('PAYMENT_FAILED with --mop and --link: a failed card payment made through a link', async () => {
    const made = await json(['trigger', 'payment_failed', '--mop', 'credit_card', '--link']);
    expect(made).toMatchObject({ event: 'PAYMENT_FAILED', link_id: expect.stringMatching(/^PR/), mop_type: 'credit_card' });
    expect(made).not.toHaveProperty('settlement_id');
    const payment = await json(['payment', 'get', made.payment_id]);
    expect(payment).toMatchObject({ status: 'failed', mop_type: 'credit_card' });
    const link = await json(['link', 'get', made.link_id]);
    expect(link.payments.map((p: { payment_id: string }) => p.payment_id)).toContain(made.payment_id);
  });

  it('a terminal gets the IDs and the next step', async () => {
    const r = await runCli(['trigger', 'PAYMENT_SUCCESSFUL'], { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^event\s+PAYMENT_SUCCESSFUL$/m);
    expect(r.stdout).toMatch(/^payment_id\s+PR[0-9]{10}$/m);
    // issue 21 item 15: nothing is registered, and it says so instead of claiming a delivery.
    expect(r.stderr).toMatch(/PAYMENT_SUCCESSFUL EV[0-9]+ recorded, but no webhook address is registered for this account: it was sent nowhere/);
    expect(r.stderr).not.toContain('sent to the registered addresses');
  });

  it('a PSP profile must name the sub-merchant (exit 2); with -m it works', async () => {
    const refused = await pgw(['-p', 'local-psp', 'trigger', 'PAYMENT_SUCCESSFUL', '-o', 'table']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('add -m <merchant_id>');
    const subs = await json<{ id: string }[]>(['-p', 'local-psp', 'merchant', 'list']);
    const made = await json(['-p', 'local-psp', '-m', subs[0]!.id, 'trigger', 'PAYMENT_SETTLED']);
    expect(made.settlement_id).toMatch(/^ST/);
  });

  it('with an address registered it names where the event went', async () => {
    await pgw(['sandbox', 'webhook', 'add', 'http://127.0.0.1:9/hooks']);
    const r = await runCli(['trigger', 'PAYMENT_FAILED'], { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' }, tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/PAYMENT_FAILED EV[0-9]+ sent to http:\/\/127\.0\.0\.1:9\/hooks; attempts: pgw events get EV/);
  });

  it('on an existing order and payment: --order pays that order, --payment settles that payment', async () => {
    const order = await json(['trigger', 'PAYMENT_FAILED']);
    const paid = await json(['trigger', 'PAYMENT_SUCCESSFUL', '--order', order.order_id]);
    expect(paid.order_id).toBe(order.order_id);
    expect(paid).not.toHaveProperty('amount');
    const settled = await json(['trigger', 'PAYMENT_SETTLED', '--payment', paid.payment_id]);
    expect(settled).toMatchObject({ payment_id: paid.payment_id, settlement_id: expect.stringMatching(/^ST/) });
    expect(settled).not.toHaveProperty('order_id');
  });

  it('MERCHANT_APPROVED on a PSP profile: a new sub-merchant, approved; or --merchant approves an existing one', async () => {
    const made = await json(['-p', 'local-psp', 'trigger', 'MERCHANT_APPROVED']);
    expect(made).toMatchObject({ event: 'MERCHANT_APPROVED', merchant_id: expect.any(String), events: [{ event_type: 'MERCHANT_APPROVED' }] });
    const detail = await json(['-p', 'local-psp', 'events', 'get', made.events[0].id]);
    expect(detail.payload).toMatchObject({ event_type: 'MERCHANT_APPROVED', version: '1.0', data: { merchant_id: made.merchant_id } });
    expect(detail.payload.event_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    for (const k of ['approved_at', 'legal_name', 'trade_name']) expect(detail.payload.data).toHaveProperty(k);
  });

  it('the refund events: a refund of a new payment moved by simulate-status; --refund moves an existing one', async () => {
    const refunded = await json(['trigger', 'PAYMENT_REFUNDED']);
    expect(refunded).toMatchObject({ event: 'PAYMENT_REFUNDED', refund_id: expect.stringMatching(/^RF/), events: [{ event_type: 'PAYMENT_REFUNDED' }] });
    const update = await json(['trigger', 'REFUND_STATUS_UPDATE', '--refund', refunded.refund_id, '--refund-status', 'ON_HOLD']);
    expect(update).toMatchObject({ refund_id: refunded.refund_id, payment_id: refunded.payment_id });
    const payload = (await json(['events', 'get', update.events[0].id])).payload;
    expect(payload.data.refunds[0]).toMatchObject({ refund_id: refunded.refund_id, refund_status: 'ON_HOLD' });
    const failed = await json(['trigger', 'REFUND_FAILED', '--payment', (await json(['trigger', 'PAYMENT_SUCCESSFUL'])).payment_id]);
    expect(failed.events[0].event_type).toBe('REFUND_FAILED');
  });

  it.each([
    [['PAYMENT_CAPTURED'], /"PAYMENT_CAPTURED" is now PAYMENT_SUCCESSFUL/],
    [['PAYMENT_SUCCESSFUL', '--payment', 'PR1234567890'], /--payment does not apply to PAYMENT_SUCCESSFUL: it starts from --order/],
    [['PAYMENT_SETTLED', '--payment', 'PR1', '--order', 'OD1'], /give one of --order, --payment/],
    [['PAYMENT_SETTLED', '--payment', 'PR1', '--amount', '5'], /leave them out/],
    [['PAYMENT_SETTLED', '--refund-status', 'ON_HOLD'], /--refund-status applies only to REFUND_STATUS_UPDATE/],
    [['MERCHANT_APPROVED', '--order', 'OD1'], /--order does not apply to MERCHANT_APPROVED/],
  ])('bad input %j: exit 2, nothing made', async (args, message) => {
    const r = await pgw(['trigger', ...args, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(JSON.parse((await pgw(['events', 'list', '--json'])).stdout)).toEqual([]);
  });
});
