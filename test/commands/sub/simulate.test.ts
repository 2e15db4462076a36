// pgw sub simulate: against the sandbox over HTTP (and one in production mode), and MockAgent for
// the answers the sandbox cannot give once the CLI has validated the status.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run.js';
import { useGatewayStub } from '../../helpers/gateway-stub.js';
import { startHarness, type Harness } from '../../sandbox/harness.js';
import { parseStatus } from '../../../src/commands/sub/simulate.js';

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => {
  tmp = tempConfigDir();
});
afterEach(() => tmp.cleanup());

describe('parseStatus', () => {
  it.each([
    ['SUCCESS', 'SUCCESS'],
    ['success', 'SUCCESS'],
    [' Failed ', 'FAILED'],
  ])('%j → %s', (input, status) => expect(parseStatus(input)).toBe(status));

  it.each(['OK', '', 'SUCCEEDED', 'pending'])('%j is refused', (input) => expect(() => parseStatus(input)).toThrow(/--status: .* is not one of SUCCESS, FAILED/));
});

describe('sub simulate against the sandbox', () => {
  let h: Harness;
  let prod: Harness;
  beforeAll(async () => {
    h = await startHarness();
    prod = await startHarness({ production: true });
  });
  afterAll(async () => {
    await h.close();
    await prod.close();
  });

  const pgw = (argv: string[], on: () => Harness = () => h) =>
    runCli(argv, {
      env: {
        PGW_CONFIG_DIR: tmp.dir,
        PGW_BASE_URL: on().sandbox.baseUrl,
        PGW_CLIENT_ID: on().merchant.client_id,
        PGW_CLIENT_SECRET: on().merchant.client_secret,
        NO_COLOR: '1',
      },
    });

  async function subscription(amount = '499.00'): Promise<string> {
    const r = await h.call('POST', '/sandbox/subscriptions/', { body: { amount } });
    return r.body.data.uid as string;
  }

  it('SUCCESS makes a captured charge; JSON is the data unchanged', async () => {
    const uid = await subscription();
    const r = await pgw(['sub', 'simulate', uid, '--status', 'SUCCESS', '--json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data).toEqual({ payment_id: expect.stringMatching(/^PR[0-9]{10}$/), payment_status: 'SUCCESS' });
    expect((await h.call('GET', `/pg/payments/${data.payment_id}/`)).body.data).toMatchObject({ status: 'captured', order: { amount: '499.00' } });
  });

  it('lowercase failed with --payment-id flips that payment; the table says so', async () => {
    const uid = await subscription();
    const first = JSON.parse((await pgw(['sub', 'simulate', uid, '--status', 'SUCCESS', '--json'])).stdout);
    const r = await pgw(['sub', 'simulate', uid, '--status', 'failed', '--payment-id', first.payment_id, '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`payment_id +${first.payment_id}`));
    expect(r.stdout).toMatch(/payment_status +FAILED/);
    expect(r.stderr).toContain(`next: pgw payment get ${first.payment_id}`);
    expect((await h.call('GET', `/pg/payments/${first.payment_id}/`)).body.data.status).toBe('failed');
  });

  it('PAYMENT_GATEWAY_API_ERROR (a payment not of this subscription): exit 1, details and a hint', async () => {
    const uid = await subscription();
    const r = await pgw(['sub', 'simulate', uid, '--status', 'SUCCESS', '--payment-id', 'PR0000000000', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: Payment gateway API error (PAYMENT_GATEWAY_API_ERROR)');
    expect(r.stderr).toContain('  error: PR0000000000 is not a payment of subscription');
    expect(r.stderr).toContain("hint: the gateway's upstream failed");
  });

  it('an unknown subscription is exit 5', async () => {
    const r = await pgw(['sub', 'simulate', 'no-such-sub', '--status', 'SUCCESS', '--json']);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'ERR_SUBSCRIPTION_002', status: 404 });
  });

  it('PAYMENT_GATEWAY_ERROR from a gateway answering as production (not caught by the rails: unknown address)', async () => {
    const r = await pgw(['sub', 'simulate', 'any-sub', '--status', 'SUCCESS', '-o', 'table'], () => prod);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: This endpoint is not available in production (PAYMENT_GATEWAY_ERROR)');
    expect(r.stderr).toContain('hint: this gateway answers as production');
  });
});

describe('sub simulate: input and the gateway answers the sandbox cannot give (MockAgent)', () => {
  const gw = useGatewayStub({ secret: 'secret-aaaa-bbbb' });
  const pgw = gw.pgw;

  function stub(status: number, body: unknown, seen: unknown[] = []) {
    gw.pool.intercept({ path: '/pg/subscriptions/sub-1/simulate_payment/', method: 'POST' }).reply((req) => {
      seen.push(JSON.parse(String(req.body)));
      return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { 'content-type': 'application/json' } } };
    });
    return seen;
  }

  it.each([
    [['--status', 'OK'], '--status: "OK" is not one of SUCCESS, FAILED'],
    [['--status', ''], '--status: "" is not one of SUCCESS, FAILED'],
    [[], "required option '--status <status>' not specified"],
    [['--status', 'SUCCESS', '--payment-id', 'PR/../1'], '--payment-id: "PR/../1" is not a valid identifier'],
  ])('%j → exit 2, nothing sent', async (flags, message) => {
    const r = await pgw(['sub', 'simulate', 'sub-1', ...flags, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('--dry-run prints the request, secret redacted, and sends nothing (no interceptor, no network)', async () => {
    const r = await pgw(['sub', 'simulate', 'sub-1', '--status', 'success', '--payment-id', 'PR0000000001', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      method: 'POST',
      url: 'https://gw.test/pg/subscriptions/sub-1/simulate_payment/',
      headers: { 'X-Client-Secret': expect.not.stringContaining('secret-aaaa-bbbb') },
      body: { payment_status: 'SUCCESS', payment_id: 'PR0000000001' },
    });
    expect(r.stdout).not.toContain('secret-aaaa-bbbb');
  });

  it('sends payment_status uppercase and payment_id only when given', async () => {
    const seen = stub(200, { success: true, message: 'payment simulation triggered successfully', data: { payment_id: 'PR0000000001', payment_status: 'FAILED' } });
    stub(200, { success: true, message: 'ok', data: { payment_id: 'PR0000000001', payment_status: 'SUCCESS' } }, seen);
    expect((await pgw(['sub', 'simulate', 'sub-1', '--status', 'failed', '--json'])).code).toBe(0);
    expect((await pgw(['sub', 'simulate', 'sub-1', '--status', 'SUCCESS', '--payment-id', 'PR0000000001', '--json'])).code).toBe(0);
    expect(seen).toEqual([{ payment_status: 'FAILED' }, { payment_status: 'SUCCESS', payment_id: 'PR0000000001' }]);
  });

  it.each([
    [400, 'PAYMENT_GATEWAY_VALIDATION_ERROR', 'Invalid payment_status', { payment_status: 'must be one of SUCCESS, FAILED' }, 'payment_status: must be one of SUCCESS, FAILED', 'accepts --status SUCCESS or --status FAILED only'],
    [400, 'PAYMENT_GATEWAY_ERROR', 'This endpoint is not available in production', { error: 'sandbox only' }, 'error: sandbox only', 'answers as production'],
    [502, 'PAYMENT_GATEWAY_API_ERROR', 'Payment gateway API error', { error: 'upstream timeout' }, 'error: upstream timeout', "upstream failed"],
  ])('%i %s: exit 1, message, details line and hint', async (status, code, message, details, detailLine, hint) => {
    stub(status, { success: false, error: { code, message, details } });
    const r = await pgw(['sub', 'simulate', 'sub-1', '--status', 'SUCCESS', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(`error: ${message} (${code})`);
    expect(lines[1]).toBe(`  ${detailLine}`);
    expect(lines[2]).toContain(hint);
  });

  it('JSON mode: the error object keeps code, details and status', async () => {
    stub(400, { success: false, error: { code: 'PAYMENT_GATEWAY_VALIDATION_ERROR', message: 'Invalid payment_status', details: { payment_status: 'must be one of SUCCESS, FAILED' } } });
    const r = await pgw(['sub', 'simulate', 'sub-1', '--status', 'SUCCESS', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'PAYMENT_GATEWAY_VALIDATION_ERROR', message: 'Invalid payment_status (PAYMENT_GATEWAY_VALIDATION_ERROR)', details: { payment_status: 'must be one of SUCCESS, FAILED' }, status: 400 },
    });
  });
});
