// pgw settle calc: the offline calculator, in-process. No profile, no network, no config dir.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { runCli, tempConfigDir } from '../../helpers/run.js';

let agent: MockAgent;
let tmp: { dir: string; cleanup: () => void };
let configDir: string;
let embeddedStarts: number;

beforeEach(() => {
  // Any request at all would fail: no interceptors and no network.
  agent = new MockAgent();
  agent.disableNetConnect();
  tmp = tempConfigDir();
  configDir = join(tmp.dir, 'never-created');
  embeddedStarts = 0;
});

afterEach(async () => {
  await agent.close();
  tmp.cleanup();
});

function calc(args: string[], opts: { tty?: boolean; output?: string[] } = {}) {
  return runCli(['settle', 'calc', ...args, ...(opts.output ?? [])], {
    tty: opts.tty,
    dispatcher: agent,
    // A profile that does not exist: resolving any profile would be exit 2.
    env: { PGW_CONFIG_DIR: configDir, PGW_PROFILE: 'no-such-profile', NO_COLOR: '1' },
    startEmbedded: async () => {
      embeddedStarts++;
      throw new Error('settle calc must not start the sandbox');
    },
  });
}

const CHECK_CASE = ['--payment', '1000.00', '--refund', '100.00', '--chargeback', '50.00'];

describe('settle calc: the spec 4.6 check case', () => {
  it('JSON is the contract shape, every amount a 2-decimal string: 791.00 / 50.00 / 9.00', async () => {
    const r = await calc(CHECK_CASE, { output: ['--json'] });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const data = JSON.parse(r.stdout);
    expect(data).toEqual({
      settlement_amount: '791.00',
      settlement_charges: '50.00',
      settlement_gst: '9.00',
      forex_rate: '96',
      payments: [{ amount: '1000.00', fee: '50.00', gst: '9.00', net: '941.00' }],
      refunds: ['100.00'],
      chargebacks: ['50.00'],
    });
    // The contract fixes the keys: no USD or other extra field in JSON.
    expect(Object.keys(data)).toEqual(['settlement_amount', 'settlement_charges', 'settlement_gst', 'forex_rate', 'payments', 'refunds', 'chargebacks']);
  });

  it('the table shows each payment, each debit, the totals and the USD equivalent at 96', async () => {
    const r = await calc(CHECK_CASE, { tty: true });
    expect(r.code).toBe(0);
    const line = (label: string) => r.stdout.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line('payment 1')).toMatch(/1000\.00.*50\.00.*9\.00.*941\.00/);
    expect(line('refund 1')).toMatch(/100\.00.*0\.00.*0\.00.*-100\.00/);
    expect(line('chargeback 1')).toMatch(/50\.00.*-50\.00/);
    expect(line('total')).toMatch(/50\.00.*9\.00.*791\.00/);
    expect(line('settlement_amount')).toMatch(/791\.00$/);
    expect(line('settlement_charges')).toMatch(/50\.00$/);
    expect(line('settlement_gst')).toMatch(/9\.00$/);
    expect(line('forex_rate')).toMatch(/96$/);
    // 791.00 / 96 = 8.2395833… → 8.24
    expect(line('USD equivalent')).toContain('8.24');
  });

  it('--query reads a figure raw', async () => {
    const r = await calc([...CHECK_CASE, '--query', 'settlement_amount']);
    expect(r).toMatchObject({ code: 0, stdout: '791.00\n' });
  });
});

describe('settle calc: offline', () => {
  it('needs no profile, sends nothing, starts no sandbox and writes no config dir', async () => {
    const r = await calc(CHECK_CASE, { output: ['--json'] });
    expect(r.code).toBe(0);
    expect(embeddedStarts).toBe(0);
    expect(existsSync(configDir)).toBe(false);
  });

  it('the check has teeth: a networked verb on the same set-up fails on the missing profile', async () => {
    const r = await runCli(['settle', 'get', 'ST0000000001'], { dispatcher: agent, env: { PGW_CONFIG_DIR: configDir, PGW_PROFILE: 'no-such-profile' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no-such-profile');
  });
});

describe('settle calc: input', () => {
  it('normalises amounts and repeats flags in order', async () => {
    const r = await calc(['--payment', '10.1', '--payment', '1500', '--refund', '5', '--refund', '0.5'], { output: ['--json'] });
    const data = JSON.parse(r.stdout);
    expect(data.payments.map((p: { amount: string }) => p.amount)).toEqual(['10.10', '1500.00']);
    expect(data.refunds).toEqual(['5.00', '0.50']);
    expect(data.payments[0]).toEqual({ amount: '10.10', fee: '0.51', gst: '0.09', net: '9.50' });
  });

  it('names every bad amount at once, exit 2, nothing on stdout', async () => {
    const r = await calc(['--payment', 'abc', '--payment', '-5', '--payment', '10000000.01', '--refund', '1.234', '--chargeback', '0'], { output: ['-o', 'table'] });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: invalid amounts: 5 problems');
    expect(r.stderr).toContain('--payment #1: "abc" is not an amount');
    expect(r.stderr).toContain('--payment #2: "-5" is not an amount');
    expect(r.stderr).toContain('--payment #3: "10000000.01" is more than 10000000.00');
    expect(r.stderr).toContain('--refund: "1.234" is not an amount');
    expect(r.stderr).toContain('--chargeback: "0" must be greater than 0');
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack
  });

  it('needs at least one payment (mark-settled settles at least 1)', async () => {
    const r = await calc(['--refund', '10'], { output: ['--json'] });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('--payment: at least one payment amount is required') });
  });

  it('accepts the largest order amount exactly', async () => {
    const r = await calc(['--payment', '10000000.00'], { output: ['--json'] });
    expect(JSON.parse(r.stdout).payments[0]).toEqual({ amount: '10000000.00', fee: '500000.00', gst: '90000.00', net: '9410000.00' });
  });
});

describe('settle calc: through the CLI, against an integer-paise reference', () => {
  // The same reference as test/settlement.property.test.ts, written again: no shared code.
  const halfUp = (num: bigint, den: bigint) => (2n * num + den) / (2n * den);
  const rupees = (p: bigint) => `${p < 0n ? '-' : ''}${(p < 0n ? -p : p) / 100n}.${String((p < 0n ? -p : p) % 100n).padStart(2, '0')}`;

  it('settlement figures match for random batches', async () => {
    const amount = fc.integer({ min: 1, max: 100_000_000 });
    await fc.assert(
      fc.asyncProperty(fc.array(amount, { minLength: 1, maxLength: 6 }), fc.array(amount, { maxLength: 3 }), async (payments, refunds) => {
        const args = [...payments.flatMap((p) => ['--payment', rupees(BigInt(p))]), ...refunds.flatMap((d) => ['--refund', rupees(BigInt(d))])];
        const r = await calc(args, { output: ['--json'] });
        expect(r.code).toBe(0);
        let fees = 0n;
        let gsts = 0n;
        let nets = 0n;
        for (const p of payments.map(BigInt)) {
          const fee = halfUp(p * 5n, 100n);
          const gst = halfUp(fee * 18n, 100n);
          fees += fee;
          gsts += gst;
          nets += p - fee - gst;
        }
        const debits = refunds.reduce((a, d) => a + BigInt(d), 0n);
        const data = JSON.parse(r.stdout);
        expect([data.settlement_amount, data.settlement_charges, data.settlement_gst]).toEqual([rupees(nets - debits), rupees(fees), rupees(gsts)]);
      }),
      { numRuns: 25 },
    );
  });
});
