// PAN verify and LRS quote (vendor 11.6, proposals P3; issue 36), the commands run in-process, on
// the embedded sandbox and on `pgw sandbox serve`: the test values' outcomes, the refusals with
// their HTTP status and code, the worked TCS example, the threshold crossed by the PAN's own
// captured payments, a new financial year on the sandbox clock, and the terminal table.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgwInProcess } from '../helpers/in-process.js';
import { killServes, startServe } from '../helpers/serve-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-lrs-'));
});
afterAll(() => {
  killServes();
  rmSync(dir, { recursive: true, force: true });
});

interface Target {
  configDir: string;
  args: string[];
}

const run = (t: Target, args: string[]) => pgwInProcess([...t.args, ...args], { env: { PGW_CONFIG_DIR: t.configDir } });
async function json<T = Record<string, unknown>>(t: Target, args: string[]): Promise<T> {
  const r = await run(t, [...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}

const ORDER = [
  '--return-url', 'https://shop.example/return', '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com',
  '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001',
  '--product-name', 'Tuition', '--goods', 'service', '--invoice-number',
];

/** A captured INR payment of `amount` on an order whose buyer PAN is `pan`: LRS the PAN has committed. */
async function paid(t: Target, pan: string, amount: string, n: number): Promise<void> {
  const { order_id } = await json<{ order_id: string }>(t, ['order', 'create', '--amount', amount, ...ORDER, `INV-LRS-${n}`]);
  await json(t, ['order', 'update', order_id, '--pan', pan, '--dob', '1990-02-28']);
  await json(t, ['sandbox', 'pay', order_id]);
}

async function scenario(t: Target): Promise<void> {
  // P3 outcomes; a failed match is still data, exit 0
  const verified = await json(t, ['pan', 'verify', '--pan', 'abcde1234f', '--name', 'Asha Verma', '--dob', '1990-02-28']);
  expect(verified).toMatchObject({ verified: true, pan_status: 'VALID', entity_type: 'INDIVIDUAL', reason: null });
  expect(verified.pan_id).toMatch(/^PAN\d{10}$/);
  const again = await json(t, ['pan', 'verify', '--pan', 'ABCDE1234F', '--name', 'Asha Verma', '--dob', '1990-02-28']);
  expect(again.pan_id).toBe(verified.pan_id); // one pan_id per account and PAN
  expect(await json(t, ['pan', 'verify', '--pan', 'ABCCE1234F', '--name', 'Acme Ltd', '--dob', '1990-02-28'])).toMatchObject({ verified: false, entity_type: 'COMPANY', reason: 'NON_INDIVIDUAL_PAN' });
  expect(await json(t, ['pan', 'verify', '--pan', 'ABCHE1234F', '--name', 'A HUF', '--dob', '1990-02-28'])).toMatchObject({ verified: false, entity_type: 'OTHER', reason: 'NON_INDIVIDUAL_PAN' });
  expect(await json(t, ['pan', 'verify', '--pan', 'ABCPE1234F', '--name', 'MISMATCH', '--dob', '1990-02-28'])).toMatchObject({ verified: false, reason: 'NAME_MISMATCH' });
  expect(await json(t, ['pan', 'verify', '--pan', 'ABCPE1234F', '--name', 'Ravi', '--dob', '1900-01-01'])).toMatchObject({ verified: false, reason: 'DOB_MISMATCH' });

  // bad format: the command refuses before sending (exit 2); the gateway answers 400
  const local = await run(t, ['pan', 'verify', '--pan', 'ABC123', '--name', 'Ravi', '--dob', '1990-02-28']);
  expect(local.code).toBe(2);
  expect(local.stderr).toMatch(/--pan: must be a PAN/);
  const remote = await pgwInProcess([...t.args, 'api', 'POST', '/pg/pan/verify/', '--data', '-', '--json'], {
    env: { PGW_CONFIG_DIR: t.configDir },
    input: '{"pan":"ABC123","name":"","dob":"1990-02-30"}',
  });
  expect(remote.code).toBe(1);
  expect(JSON.parse(remote.stderr).error).toMatchObject({ code: 'ERR_VALIDATION_000', status: 400 });
  expect(Object.keys(JSON.parse(remote.stderr).error.details).sort()).toEqual(['dob', 'name', 'pan']);

  // quotes: an unverified PAN and a purpose code not enabled are 400 ERR_LRS_001
  const unverified = await run(t, ['lrs', 'quote', '--pan', 'ABCPE1234F', '--amount', '1000', '--purpose-code', 'S0305', '--json']);
  expect(unverified.code).toBe(1);
  expect(JSON.parse(unverified.stderr).error).toMatchObject({ code: 'ERR_LRS_001', status: 400, details: { pan: expect.stringMatching(/ABCPE1234F is not verified/) } });
  const code = await run(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '1000', '--purpose-code', 'S0802', '--json']);
  expect(code.code).toBe(1);
  expect(JSON.parse(code.stderr).error).toMatchObject({ code: 'ERR_LRS_001', status: 400, details: { purpose_code: expect.stringMatching(/S0802 is not enabled/) } });
  const badAmount = await run(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '10.505', '--purpose-code', 'S0305']);
  expect(badAmount.code).toBe(2);
  expect(badAmount.stderr).toMatch(/--amount: must be a number of rupees with at most 2 decimals/);
  // a withdrawn verification: the last check of a PAN is the one that counts
  await json(t, ['pan', 'verify', '--pan', 'ABCPE5678K', '--name', 'Ravi', '--dob', '1990-02-28']);
  expect((await run(t, ['lrs', 'quote', '--pan', 'ABCPE5678K', '--amount', '1000', '--purpose-code', 'S1107'])).code).toBe(0);
  await json(t, ['pan', 'verify', '--pan', 'ABCPE5678K', '--name', 'MISMATCH', '--dob', '1990-02-28']);
  expect((await run(t, ['lrs', 'quote', '--pan', 'ABCPE5678K', '--amount', '1000', '--purpose-code', 'S1107'])).code).toBe(1);

  // vendor 11.6's worked example: 12,00,000 with nothing committed
  const worked = await json(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '1200000', '--purpose-code', 's0305']);
  expect(worked).toEqual({
    pan: 'ABCDE1234F',
    financial_year: expect.stringMatching(/^\d{4}-\d{2}$/),
    committed_inr: '0.00',
    remittance_inr: '1200000.00',
    taxable_inr: '200000.00',
    tcs_rate: '2%',
    tcs_inr: '4000.00',
    total_payable_inr: '1211080.00',
    tcs_threshold_breached_before: false,
    tcs_threshold_breached_after: true,
    tcs_reason: 'partial_above_threshold',
    refusal_reason: null,
  });
  // a quote reserves nothing: the same quote again is the same
  expect(await json(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '1200000', '--purpose-code', 'S0305'])).toEqual(worked);
  const below = await json(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '500000.50', '--purpose-code', 'S0306']);
  expect(below).toMatchObject({ taxable_inr: '0.00', tcs_inr: '0.00', tcs_reason: 'nil_below_threshold', tcs_threshold_breached_after: false, total_payable_inr: '502950.50' });

  // the PAN's own captured payments count: 9,00,000 committed, then 2,00,000 crosses the threshold
  await paid(t, 'ABCDE1234F', '900000', 1);
  const crossing = await json(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '200000', '--purpose-code', 'S0305']);
  expect(crossing).toMatchObject({ committed_inr: '900000.00', taxable_inr: '100000.00', tcs_inr: '2000.00', tcs_reason: 'partial_above_threshold', tcs_threshold_breached_before: false, tcs_threshold_breached_after: true });
  // past it, the whole remittance is taxable
  await paid(t, 'ABCDE1234F', '200000', 2);
  const past = await json(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '50000', '--purpose-code', 'S0305']);
  expect(past).toMatchObject({ committed_inr: '1100000.00', taxable_inr: '50000.00', tcs_inr: '1000.00', tcs_reason: 'full_amount_taxable', tcs_threshold_breached_before: true, tcs_threshold_breached_after: true });
  // a new financial year (1 April, IST) on the sandbox clock starts from nothing
  const year = Number(String(worked.financial_year).slice(0, 4));
  await json(t, ['sandbox', 'clock', 'set', `${year + 1}-04-01T00:00:00+05:30`]);
  const next = await json(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '50000', '--purpose-code', 'S0305']);
  expect(next).toMatchObject({ financial_year: `${year + 1}-${String((year + 2) % 100).padStart(2, '0')}`, committed_inr: '0.00', tcs_inr: '0.00' });
  await json(t, ['sandbox', 'clock', 'reset']);
}

describe('PAN verify and LRS quote', () => {
  it('on the embedded sandbox', async () => {
    await scenario({ configDir: join(dir, 'embedded'), args: [] });
  }, 120_000);

  it('on pgw sandbox serve', async () => {
    const configDir = join(dir, 'serve');
    const s = await startServe(configDir, '0', ['--db', join(dir, 'serve.db')]);
    const account = s.accounts.find((a) => !a.psp)!;
    const add = await pgwInProcess(['profile', 'add', 'served', '--env', 'sandbox', '--base-url', s.baseUrl, '--client-id', account.client_id, '--client-secret-stdin'], {
      env: { PGW_CONFIG_DIR: configDir },
      input: `${account.client_secret}\n`,
    });
    expect(add.code, add.stderr).toBe(0);
    await scenario({ configDir, args: ['-p', 'served'] });
    await s.stop();
  }, 120_000);

  it('a table on a terminal: the figures with their labels', async () => {
    const t = { configDir: join(dir, 'table'), args: [] };
    await json(t, ['pan', 'verify', '--pan', 'ABCDE1234F', '--name', 'Asha Verma', '--dob', '1990-02-28']);
    const r = await run(t, ['lrs', 'quote', '--pan', 'ABCDE1234F', '--amount', '1200000', '--purpose-code', 'S0305', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^taxable \(INR\)\s+200000\.00$/m);
    expect(r.stdout).toMatch(/^TCS \(INR\)\s+4000\.00$/m);
    expect(r.stdout).toMatch(/^total payable \(INR\)\s+1211080\.00$/m);
    expect(r.stdout).toMatch(/^threshold crossed\s+before no, after yes$/m);
    const v = await run(t, ['pan', 'verify', '--pan', 'ABCPE1234F', '--name', 'MISMATCH', '--dob', '1990-02-28', '-o', 'table']);
    expect(v.stdout).toMatch(/^verified\s+no$/m);
    expect(v.stdout).toMatch(/^reason\s+NAME_MISMATCH$/m);
  }, 60_000);
});
