// pgw payment get: against the sandbox over real HTTP (one ID, several, stdin, --from-file, the
// first failure's exit code), a counting server for --concurrency, MockAgent for other answers.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { formatTime } from '../../../src/output/time.js';
import { paidOrder } from '../../sandbox/harness.js';
import { runCli, tempConfigDir } from '../../helpers/run.js';
import { useGatewayStub } from '../../helpers/gateway-stub.js';
import { startCountingGateway, useHarness } from './lookup-harness.js';

const t = useHarness();
const GREEN = '\u001b[32m';

describe('one payment', () => {
  it('a terminal: a readable summary, status in colour, local time', async () => {
    const { paymentId, orderId, payment } = await paidOrder(t.h, '1234.50');
    const r = await t.pgw(['payment', 'get', paymentId], { tty: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Payment ${paymentId}`);
    expect(r.stdout).toContain(`${GREEN}captured`);
    expect(r.stdout).toMatch(/amount\s+1234\.50 INR/);
    expect(r.stdout).toMatch(/method\s+upi \(buyer@upi\)/);
    expect(r.stdout).toMatch(new RegExp(`order_id\\s+${orderId}`));
    expect(r.stdout).toMatch(/name\s+Asha Verma/);
    expect(r.stdout).toMatch(/name\s+Scarf/);
    expect(r.stdout).toMatch(/settlement_id\s+not settled/);
    expect(r.stdout).toMatch(/refunds\s+none/);
    expect(r.stdout).toContain(formatTime(payment.created_date, true)!);
    expect(r.stdout).not.toContain(payment.created_date); // not the ISO text
  });

  it('JSON: the data unchanged, ISO timestamps', async () => {
    const { paymentId } = await paidOrder(t.h);
    const direct = await t.h.call('GET', `/pg/payments/${paymentId}/`);
    const r = await t.pgw(['payment', 'get', paymentId]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(direct.body.data);
  });

  it('piped with -o table: no colour, ISO time', async () => {
    const { paymentId, payment } = await paidOrder(t.h);
    const r = await t.pgw(['payment', 'get', paymentId, '-o', 'table']);
    expect(r.stdout).not.toContain('\u001b[');
    expect(r.stdout).toContain(payment.created_date);
  });

  it('refunds and the settlement are shown', async () => {
    const { paymentId } = await paidOrder(t.h, '1000.00');
    const refund = await t.h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '100.00' } });
    const settled = await t.h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paymentId] } });
    expect(settled.status).toBe(200);
    const r = await t.pgw(['payment', 'get', paymentId, '-o', 'table']);
    expect(r.stdout).toMatch(new RegExp(`${refund.body.data.refund_id}\\s+100\\.00 INR\\s+initiated`));
    expect(r.stdout).toMatch(/settlement_id\s+ST[0-9]{10}\n/);
    // This payment's own figures (spec 4.6 rule 4), never the batch's amount.
    expect(r.stdout).toMatch(/fee\s+50\.00 INR/);
    expect(r.stdout).toMatch(/gst\s+9\.00 INR/);
    expect(r.stdout).toMatch(/net\s+941\.00 INR/);
    expect(r.stdout).toMatch(/utr\s+\S+/);
  });

  it('a failed payment is red; a card shows network and last 4', async () => {
    const order = await t.h.call('POST', '/pg/orders/', {
      body: {
        ...(await import('../../sandbox/harness.js')).orderBody(),
        collection_mode: 's2s',
        mop_type: 'credit_card',
        card_details: { number: '4111111111110002', cardholder_name: 'A', expiry_month: '12', expiry_year: '2099', cvv: '123', network: 'visa', nickname: 'n', identifier: 'i' },
      },
    });
    const paid = await t.h.call('POST', `/sandbox/orders/${order.body.data.order_id}/pay/`, { body: { outcome: 'success' } });
    const r = await t.pgw(['payment', 'get', paid.body.data.payment_id], { tty: true });
    expect(r.stdout).toContain('\u001b[31mfailed');
    expect(r.stdout).toMatch(/method\s+credit_card \(visa, ending 0002\)/);
  });

  it('unknown: exit 5 with the gateway message', async () => {
    const r = await t.pgw(['payment', 'get', 'PR0000000000', '-o', 'table']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Payment not found (ERR_PAYMENT_005)');
  });

  it('wrong credentials: exit 4', async () => {
    const r = await t.pgw(['payment', 'get', 'PR0000000001'], { env: { PGW_CLIENT_SECRET: 'nope-nope-nope' } });
    expect(r.code).toBe(4);
  });
});

describe('several payments', () => {
  it('a table, one row each, in the order given', async () => {
    const a = await paidOrder(t.h, '10.00');
    const b = await paidOrder(t.h, '20.00');
    const r = await t.pgw(['payment', 'get', b.paymentId, a.paymentId], { tty: true, columns: 120 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('payment_id');
    expect(r.stdout.indexOf(b.paymentId)).toBeLessThan(r.stdout.indexOf(a.paymentId));
    // One money form (contract): 2 decimals, right-aligned, the currency in its own column.
    expect(r.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/│ +20\.00 │ INR +│/);
    expect(r.stdout).toContain(formatTime(a.payment.created_date, true)!);
  });

  it('at 80 columns no line is wider than the terminal; IDs and amounts stay whole', async () => {
    const a = await paidOrder(t.h, '10.00');
    const b = await paidOrder(t.h, '2000.00');
    const r = await t.pgw(['payment', 'get', b.paymentId, a.paymentId], { tty: true, columns: 80 });
    expect(r.code).toBe(0);
    const plain = r.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    for (const line of plain.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(plain).toContain(b.paymentId);
    expect(plain).toContain(a.orderId);
    expect(plain).toMatch(/│ +2000\.00 │/); // right-aligned, 2 decimals (its currency column may give way first)
  });

  it('JSON: an array in the order given, each the data unchanged', async () => {
    const a = await paidOrder(t.h);
    const b = await paidOrder(t.h);
    const r = await t.pgw(['payment', 'get', a.paymentId, b.paymentId]);
    expect(JSON.parse(r.stdout).map((p: any) => p.payment_id)).toEqual([a.paymentId, b.paymentId]);
  });

  it('- reads IDs from stdin (one per line; blanks and # comments skipped)', async () => {
    const a = await paidOrder(t.h);
    const b = await paidOrder(t.h);
    const r = await t.pgw(['payment', 'get', '-'], { input: `# today\n${a.paymentId}\n\n  ${b.paymentId}  \n` });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((p: any) => p.payment_id)).toEqual([a.paymentId, b.paymentId]);
  });

  it('--from-file, after the arguments; one ID from a file is still a list', async () => {
    const a = await paidOrder(t.h);
    const b = await paidOrder(t.h);
    const cfg = tempConfigDir();
    try {
      const file = join(cfg.dir, 'ids.txt');
      writeFileSync(file, `${b.paymentId}\n`);
      const r = await t.pgw(['payment', 'get', a.paymentId, '--from-file', file]);
      expect(JSON.parse(r.stdout).map((p: any) => p.payment_id)).toEqual([a.paymentId, b.paymentId]);
      const one = await t.pgw(['payment', 'get', '--from-file', file]);
      expect(JSON.parse(one.stdout)).toHaveLength(1);
    } finally {
      cfg.cleanup();
    }
  });

  it('a failure: the rows that worked are printed, one error line per failed ID, the exit code of the first failure', async () => {
    const a = await paidOrder(t.h);
    const r = await t.pgw(['payment', 'get', 'PR0000000000', a.paymentId, 'PR0000000009', '-o', 'table']);
    expect(r.code).toBe(5);
    expect(r.stdout).toContain(a.paymentId);
    expect(r.stdout).not.toContain('PR0000000000');
    expect(r.stderr).toContain('error: PR0000000000: Payment not found (ERR_PAYMENT_005)');
    expect(r.stderr).toContain('error: PR0000000009: Payment not found');
  });

  it('JSON: the array of those that worked; one error object per line with its id', async () => {
    const a = await paidOrder(t.h);
    const r = await t.pgw(['payment', 'get', a.paymentId, 'PR0000000000']);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).map((p: any) => p.payment_id)).toEqual([a.paymentId]);
    expect(JSON.parse(r.stderr.trim())).toMatchObject({ error: { id: 'PR0000000000', code: 'ERR_PAYMENT_005', status: 404 } });
  });

  it('a progress bar on stderr in a terminal for 10 or more, none when piped', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, async () => (await paidOrder(t.h)).paymentId));
    const tty = await t.pgw(['payment', 'get', ...ids], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('fetching 10 payment_ids [');
    const piped = await t.pgw(['payment', 'get', ...ids, '-o', 'table']);
    expect(piped.stderr).toBe('');
  });
});

describe('refused before any request (exit 2)', () => {
  it.each([
    ['no ID', [], 'no payment_id given'],
    ['an ID that would change the path', ['PR1/../x'], 'is not a valid identifier'],
    ['--concurrency 0', ['PR1', 'PR2', '--concurrency', '0'], '--concurrency: must be between 1 and 64'],
    ['--concurrency 65', ['PR1', 'PR2', '--concurrency', '65'], '--concurrency: must be between 1 and 64'],
    ['--concurrency abc', ['PR1', 'PR2', '--concurrency', 'abc'], 'is not a whole number'],
    ['a missing --from-file', ['--from-file', '/nonexistent/ids'], 'cannot read /nonexistent/ids'],
  ])('%s', async (_what, args, message) => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    try {
      const r = await t.pgw(['payment', 'get', ...args, '-o', 'table'], { dispatcher: agent, env: { PGW_BASE_URL: 'https://gw.test' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    } finally {
      await agent.close();
    }
  });
});

describe('--concurrency: at most N in flight over the keep-alive pool', () => {
  it.each([
    ['the default, 8', [], 8],
    ['--concurrency 3', ['--concurrency', '3'], 3],
    ['--concurrency 1', ['--concurrency', '1'], 1],
  ])('%s', async (_what, args, limit) => {
    // Two full rounds and one more: enough to reach the bound twice and to see it is never passed.
    const ids = Array.from({ length: limit * 2 + 1 }, (_, i) => `PR${String(i).padStart(10, '0')}`);
    const gw = await startCountingGateway({ limit, expected: ids.length, idKey: 'payment_id' });
    try {
      const r = await t.pgw(['payment', 'get', ...ids, ...args], { env: { PGW_BASE_URL: gw.baseUrl } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).map((p: any) => p.payment_id)).toEqual(ids);
      expect(gw.total).toBe(ids.length);
      expect(gw.maxInFlight).toBe(limit);
    } finally {
      await gw.close();
    }
  });
});

describe('answers the sandbox does not give (MockAgent)', () => {
  const gw = useGatewayStub({ clientId: 'c', secret: 'sk_marker_pay_1' });
  const pgw = (argv: string[]) => gw.pgw([...argv, '-o', 'table']);
  const answer = (id: string, status: number, body: unknown) =>
    gw.pool.intercept({ path: `/pg/payments/${id}/`, method: 'GET' }).reply(status, JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

  it('the exit code is that of the first failure in the order given, not the first to finish', async () => {
    answer('PR1', 400, { success: false, error: { code: 'ERR_X', message: 'Bad' } });
    answer('PR2', 404, { success: false, error: { code: 'ERR_PAYMENT_005', message: 'Payment not found' } });
    answer('PR3', 200, { success: true, message: 'ok', data: { payment_id: 'PR3', status: 'captured' } });
    const r = await pgw(['payment', 'get', 'PR1', 'PR2', 'PR3']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('PR3');
    answer('PR2', 404, { success: false, error: { code: 'ERR_PAYMENT_005', message: 'Payment not found' } });
    answer('PR1', 400, { success: false, error: { code: 'ERR_X', message: 'Bad' } });
    expect((await pgw(['payment', 'get', 'PR2', 'PR1'])).code).toBe(5);
  });

  it('the spec 2.7 example shape: settled, with refunds, unknown fields kept in JSON', async () => {
    const data = {
      payment_id: 'PR0000000042',
      order: { order_id: 'OD42', reference_id: 'r', amount: '1500.00', currency: 'INR', opted_mop_type: 'upi', buyer: { name: 'B' }, product: { name: 'P' }, status: 'payment_successful' },
      settlement: { id: 'ST0000000001', settlement_id: 'a-b-c', settlement_amount: '15.20', settlement_currency: 'USD', utr_number: 'UTR1', number_of_transactions: 1 },
      refund: [{ refund_id: 'RF1', amount: '10.00', status: 'processed' }],
      mop_type: 'upi',
      mop_detail: { vpa: 'b@upi' },
      status: 'captured',
      created_date: '2026-01-02T03:04:05.123456Z',
      gateway_extra: { x: 1 },
    };
    answer('PR0000000042', 200, { success: true, message: 'ok', data });
    const r = await pgw(['payment', 'get', 'PR0000000042']);
    expect(r.stdout).toMatch(/settlement_id\s+ST0000000001\n/);
    expect(r.stdout).not.toContain('15.20');
    expect(r.stdout).toMatch(/RF1\s+10\.00 INR\s+processed/);
    answer('PR0000000042', 200, { success: true, message: 'ok', data });
    const json = await gw.pgw(['payment', 'get', 'PR0000000042']);
    expect(JSON.parse(json.stdout)).toEqual(data);
  });
});

describe('a gateway whose data is not a resource', () => {
  it('is exit 1 with one line, not an empty summary', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://gw.test').intercept({ path: '/pg/payments/PR1234567890/', method: 'GET' }).reply(200, { success: true, message: 'ok', data: 'oops' });
    const config = tempConfigDir();
    try {
      const r = await runCli(['payment', 'get', 'PR1234567890', '-o', 'table'], {
        dispatcher: agent,
        env: { PGW_CONFIG_DIR: config.dir, PGW_BASE_URL: 'https://gw.test', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_marker_0123456789' },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe("error: unexpected response for PR1234567890: the envelope's data is not an object\n");
    } finally {
      config.cleanup();
    }
  });
});
