// pgw settle mark (and --dry-run) against undici MockAgent: the request sent, the gateway's
// refusals rendered, the rails, and what the dry run flags. Every stub must be used.
import { describe, expect, it } from 'vitest';
import { useGatewayStub } from '../../helpers/gateway-stub.js';
import { runCli } from '../../helpers/run.js';

const SECRET = 'secret-marker-9876';
const gw = useGatewayStub({ secret: SECRET });
const pgw = gw.pgw;

const json = { headers: { 'content-type': 'application/json' } };
const ok = (data: unknown) => JSON.stringify({ success: true, message: 'ok', data });
const fail = (code: string, message: string, details?: unknown) => JSON.stringify({ success: false, error: { code, message, details } });

function stubMark(status: number, body: string, seen: unknown[] = []) {
  gw.pool.intercept({ path: '/pg/settlements/mark-settled/', method: 'POST' }).reply((req) => {
    seen.push(JSON.parse(String(req.body)));
    return { statusCode: status, data: body, responseOptions: json };
  });
  return seen;
}

const RESULT = {
  settlement_id: 'ST0000000007',
  utr_number: 'UTR000111222',
  settlement_completed_at: '2026-01-15T10:20:30.123456Z',
  forex_rate: '96',
  settlement_amount: '791.00',
  settlement_charges: '50.00',
  settlement_gst: '9.00',
};

describe('settle mark: the request', () => {
  it('sends the three UID lists; amounts after = are for the dry run only; JSON is the data unchanged', async () => {
    const seen = stubMark(200, ok(RESULT));
    const r = await pgw(['settle', 'mark', 'PR0000000001', 'PR0000000002', '--refund', 'RF0000000001=100.00', '--refund', 'RF0000000002', '--chargeback', 'CB0000000001', '--json']);
    expect(r.code).toBe(0);
    expect(seen).toEqual([{ payment_uids: ['PR0000000001', 'PR0000000002'], refund_uids: ['RF0000000001', 'RF0000000002'], chargeback_uids: ['CB0000000001'] }]);
    expect(JSON.parse(r.stdout)).toEqual(RESULT);
  });

  it('without debits sends empty lists; the table shows the figures and the USD equivalent', async () => {
    const seen = stubMark(200, ok(RESULT));
    const r = await pgw(['settle', 'mark', 'PR0000000001', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(seen).toEqual([{ payment_uids: ['PR0000000001'], refund_uids: [], chargeback_uids: [] }]);
    const line = (label: string) => r.stdout.split('\n').find((l) => l.startsWith(label)) ?? '';
    expect(line('settlement_id')).toContain('ST0000000007');
    expect(line('settlement_amount')).toContain('791.00');
    expect(line('USD equivalent')).toContain('8.24');
    expect(r.stderr).toContain('next: pgw settle get ST0000000007');
  });

  it('reads payment IDs from --from-file and stdin', async () => {
    const seen = stubMark(200, ok(RESULT));
    const r = await pgw(['settle', 'mark', '-', '--json'], { input: 'PR0000000001\n# skip\nPR0000000002\n' });
    expect(r.code).toBe(0);
    expect((seen[0] as { payment_uids: string[] }).payment_uids).toEqual(['PR0000000001', 'PR0000000002']);
  });
});

describe('settle mark: bad input is exit 2 and sends nothing', () => {
  it.each([
    [['settle', 'mark'], 'no payment_id given'],
    [['settle', 'mark', 'PR1/../x'], 'payment_id: "PR1/../x" is not a valid identifier'],
    [['settle', 'mark', 'PR1', '--refund', 'RF1=abc'], '--refund: RF1: "abc" is not an amount'],
    [['settle', 'mark', 'PR1', '--chargeback', 'C B'], '--chargeback: "C B" is not a valid identifier'],
    [['settle', 'mark', `PR${'1'.repeat(70)}`], 'payment_uids.0: must be at most 64 characters'],
  ])('%j → %s', async (argv, message) => {
    const r = await pgw([...argv, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('names every bad debit at once', async () => {
    const r = await pgw(['settle', 'mark', 'PR1', '--refund', 'RF1=x', '--refund', 'RF2=-1', '--chargeback', 'CB1=1.001', '--json']);
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stderr);
    expect(Object.keys(error.details)).toEqual(['--refund #1', '--refund #2', '--chargeback']);
  });
});

describe('settle mark: the gateway refuses', () => {
  const DETAILS = { payment_uids: ['PR0000000002 is not captured'], refund_uids: ['RF0000000009 not found'], chargeback_uids: [] };

  it('400 ERR_SERVICE_ERROR_000: exit 1, one readable line per category, empty categories left out', async () => {
    stubMark(400, fail('ERR_SERVICE_ERROR_000', 'Payment gateway error', DETAILS));
    const r = await pgw(['settle', 'mark', 'PR0000000001', 'PR0000000002', '--refund', 'RF0000000009', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      'error: Payment gateway error (ERR_SERVICE_ERROR_000)',
      '  payment_uids: PR0000000002 is not captured',
      '  refund_uids: RF0000000009 not found',
      expect.stringMatching(/^hint: the batch is all or nothing: nothing was settled/),
      '',
    ]);
  });

  it('JSON mode: the error object with the details as the gateway sent them', async () => {
    stubMark(400, fail('ERR_SERVICE_ERROR_000', 'Payment gateway error', DETAILS));
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: 'ERR_SERVICE_ERROR_000', message: 'Payment gateway error (ERR_SERVICE_ERROR_000)', details: DETAILS, status: 400 } });
  });

  it('500: exit 1 with the message, and the POST is not retried', async () => {
    stubMark(500, fail('ERR_INTERNAL_000', 'Settlement processing failed'));
    const r = await pgw(['settle', 'mark', 'PR0000000001', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Settlement processing failed (ERR_INTERNAL_000)');
    expect(r.stderr).not.toContain(SECRET);
  });
});

describe('settle mark --dry-run', () => {
  function stubPayment(id: string, status: number, body: string) {
    gw.pool.intercept({ path: `/pg/payments/${id}/`, method: 'GET' }).reply(status, body, json);
  }
  /** GET /pg/refunds/{id}/ and its settlement (beyond 2.2, 2.3); settledIn names the settlement. */
  function stubRefund(id: string, amount: string, settledIn?: string) {
    gw.pool.intercept({ path: `/pg/refunds/${id}/`, method: 'GET' }).reply(200, ok({ refund_id: id, refund_amount: amount, refund_status: 'completed', settlement_id: settledIn ?? null }), json);
    gw.pool
      .intercept({ path: `/pg/refunds/${id}/settlement/`, method: 'GET' })
      .reply(200, ok(settledIn ? { settlement_status: 'SETTLED', settlement_details: { settlement_id: settledIn } } : { settlement_status: 'PENDING', settlement_details: null }), json);
  }
  function stubRefundMissing(id: string) {
    const body = fail('ERR_REFUND_003', 'Refund not found', { refund_id: `${id} not found` });
    gw.pool.intercept({ path: `/pg/refunds/${id}/`, method: 'GET' }).reply(404, body, json);
    gw.pool.intercept({ path: `/pg/refunds/${id}/settlement/`, method: 'GET' }).reply(404, body, json);
  }
  const payment = (id: string, over: Record<string, unknown> = {}) =>
    ok({ payment_id: id, status: 'captured', order: { order_id: `OD${id.slice(2)}`, amount: '1000.00', currency: 'INR' }, settlement: null, refund: [], ...over });

  it('prints the breakdown in the calc shape with payment_id on each payment; sends no POST', async () => {
    stubPayment('PR0000000001', 200, payment('PR0000000001'));
    stubRefund('RF0000000001', '100.00');
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--refund', 'RF0000000001=100', '--chargeback', 'CB0000000001=50.00', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      settlement_amount: '791.00',
      settlement_charges: '50.00',
      settlement_gst: '9.00',
      forex_rate: '96',
      payments: [{ payment_id: 'PR0000000001', amount: '1000.00', fee: '50.00', gst: '9.00', net: '941.00' }],
      refunds: ['100.00'],
      chargebacks: ['50.00'],
    });
  });

  it('the table names the payments and debits and says nothing was marked', async () => {
    stubPayment('PR0000000001', 200, payment('PR0000000001'));
    stubRefund('RF0000000001', '100.00');
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--refund', 'RF0000000001=100', '--dry-run', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/PR0000000001 .*1000\.00.*50\.00.*9\.00.*941\.00/);
    expect(r.stdout).toMatch(/refund RF0000000001 .*100\.00.*-100\.00/);
    expect(r.stdout).toMatch(/total .*50\.00.*9\.00.*841\.00/);
    expect(r.stderr).toContain('dry run: nothing was marked');
  });

  it('flags not captured, already settled, not found and repeats; exit 1; breakdown of the rest', async () => {
    stubPayment('PR0000000001', 200, payment('PR0000000001', { order: { amount: '10.10' } }));
    stubPayment('PR0000000002', 200, payment('PR0000000002', { status: 'failed' }));
    stubPayment('PR0000000003', 200, payment('PR0000000003', { settlement: { id: 'ST0000000004', settlement_id: 'uuid' }, settlement_status: 'SETTLED' }));
    stubPayment('PR0000000004', 404, fail('ERR_PAYMENT_005', 'Payment not found', { payment_id: 'PR0000000004 not found' }));
    stubRefund('RF1', '1.00');
    const r = await pgw(
      ['settle', 'mark', 'PR0000000001', 'PR0000000002', 'PR0000000003', 'PR0000000004', 'PR0000000001', '--refund', 'RF1=1', '--refund', 'RF1=1', '--dry-run', '--json'],
    );
    expect(r.code).toBe(1);
    const data = JSON.parse(r.stdout);
    expect(data.payments).toEqual([{ payment_id: 'PR0000000001', amount: '10.10', fee: '0.51', gst: '0.09', net: '9.50' }]);
    const { error } = JSON.parse(r.stderr);
    expect(error).toMatchObject({ code: 'DRY_RUN_REFUSED', message: expect.stringContaining('mark-settled would refuse this batch (5 problems)') });
    expect(error.details).toEqual({
      payment_uids: [
        'PR0000000002 is not captured (status failed)',
        'PR0000000003 is already settled (in ST0000000004)',
        'PR0000000004 not found',
        'PR0000000001 appears more than once',
      ],
      refund_uids: ['RF1 appears more than once'],
      chargeback_uids: [],
    });
  });

  it('table mode: the refusals are readable lines on stderr', async () => {
    stubPayment('PR0000000002', 200, payment('PR0000000002', { status: 'pending' }));
    const r = await pgw(['settle', 'mark', 'PR0000000002', '--dry-run', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: dry run: mark-settled would refuse this batch (1 problem); nothing was marked');
    expect(r.stderr).toContain('  payment_uids: PR0000000002 is not captured (status pending)');
    expect(r.stderr).not.toContain('dry run: nothing was marked;');
  });

  it('a payment without a readable order amount is flagged, not guessed', async () => {
    stubPayment('PR0000000005', 200, payment('PR0000000005', { order: { amount: '1,000' } }));
    const r = await pgw(['settle', 'mark', 'PR0000000005', '--dry-run', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).payments).toEqual([]);
    expect(JSON.parse(r.stderr).error.details.payment_uids).toEqual(['PR0000000005: the gateway returned no readable order amount ("1,000")']);
  });

  it('a bare --chargeback is exit 2 naming it, before any look-up (chargebacks have no look-up)', async () => {
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--refund', 'RF0000000001', '--chargeback', 'CB0000000001', '--dry-run', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--chargeback: CB0000000001 needs its amount for a dry run: --chargeback CB0000000001=<amount>');
  });

  it('a bare --refund takes its amount from the refund look-up', async () => {
    stubPayment('PR0000000001', 200, payment('PR0000000001'));
    stubRefund('RF0000000001', '100.00');
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--refund', 'RF0000000001', '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ settlement_amount: '841.00', refunds: ['100.00'] });
  });

  it('warns when a given refund amount differs from the gateway\'s record', async () => {
    stubPayment('PR0000000001', 200, payment('PR0000000001'));
    stubRefund('RF0000000001', '50.00');
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--refund', 'RF0000000001=100', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: RF0000000001: given as 100.00, the gateway records 50.00');
  });

  // issue 13 item 7: the real call refuses these; so does the dry run now.
  it('refuses a refund that is already settled or does not exist, like mark-settled; the breakdown leaves them out', async () => {
    stubPayment('PR0000000001', 200, payment('PR0000000001'));
    stubRefund('RF0000000001', '100.00', 'ST0000000009');
    stubRefundMissing('RF0000000000');
    stubRefund('RF0000000002', '25.00');
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--refund', 'RF0000000001=100', '--refund', 'RF0000000000=10.00', '--refund', 'RF0000000002', '--dry-run', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ refunds: ['25.00'], settlement_amount: '916.00' });
    expect(JSON.parse(r.stderr).error.details.refund_uids).toEqual(['RF0000000001 is already settled (in ST0000000009)', 'RF0000000000 not found']);
  });

  it('an authentication failure on a look-up ends the dry run with exit 4', async () => {
    stubPayment('PR0000000001', 401, fail('ERR_AUTH_001', 'Invalid credentials'));
    const r = await pgw(['settle', 'mark', 'PR0000000001', '--dry-run', '--json']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });
});

describe('rails: sandbox-only commands send nothing on production (exit 6)', () => {
  // No interceptor for the production host, and no network: any request would be exit 3.
  const PROD = { PGW_BASE_URL: 'https://api-pacb.eximpe.com' };

  it.each([
    [['settle', 'mark', 'PR0000000001']],
    [['settle', 'mark', 'PR0000000001', '--refund', 'RF1=1', '--dry-run']],
    [['sub', 'simulate', 'sub-uid-1', '--status', 'SUCCESS']],
    [['sub', 'simulate', 'sub-uid-1', '--status', 'SUCCESS', '--dry-run']],
    [['refund', 'simulate', 'RF0000000001', '--status', 'FAILED']],
    [['refund', 'simulate', 'RF0000000001', '--status', 'REFUNDED', '--dry-run']],
  ])('%j on PGW_BASE_URL=production', async (argv) => {
    const r = await pgw([...argv, '-o', 'table'], { env: PROD });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('PRODUCTION');
    expect(r.stderr).toMatch(/is sandbox only: refused on production profile/);
  });

  it('a stored production profile is refused too', async () => {
    const added = await runCli(['profile', 'add', 'prod', '--env', 'production', '--client-id', 'cid', '--client-secret-stdin'], {
      dispatcher: gw.agent,
      input: 'prod-secret-12345\n',
      env: { PGW_CONFIG_DIR: gw.dir },
    });
    expect(added.code).toBe(0);
    for (const argv of [['settle', 'mark', 'PR0000000001'], ['sub', 'simulate', 'sub-uid-1', '--status', 'FAILED']]) {
      const r = await runCli([...argv, '-p', 'prod', '--json'], { dispatcher: gw.agent, env: { PGW_CONFIG_DIR: gw.dir } });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('"code":"SANDBOX_ONLY"');
    }
  });
});
