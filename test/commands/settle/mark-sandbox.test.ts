// settle mark against the real sandbox over HTTP: a dry run of a random batch equals, to the
// paisa, the real mark-settled that follows it (and Get Settlement's per-payment figures), and the
// sandbox's own refusals come out as the CLI promises.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runCli, tempConfigDir } from '../../helpers/run.js';
import { paidOrder, startHarness, type Harness } from '../../sandbox/harness.js';

let h: Harness;
let tmp: { dir: string; cleanup: () => void };

beforeAll(async () => {
  h = await startHarness();
  tmp = tempConfigDir();
});
afterAll(async () => {
  await h.close();
  tmp.cleanup();
});

function pgw(argv: string[]) {
  return runCli(argv, {
    env: {
      PGW_CONFIG_DIR: tmp.dir,
      PGW_BASE_URL: h.sandbox.baseUrl,
      PGW_CLIENT_ID: h.merchant.client_id,
      PGW_CLIENT_SECRET: h.merchant.client_secret,
      NO_COLOR: '1',
    },
  });
}

const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

async function debit(kind: 'refunds' | 'chargebacks', paymentId: string, amount: string): Promise<string> {
  const r = await h.call('POST', `/sandbox/payments/${paymentId}/${kind}/`, { body: { amount } });
  if (r.status !== 200) throw new Error(`${kind} failed: ${JSON.stringify(r.body)}`);
  return (r.body.data.refund_id ?? r.body.data.chargeback_id) as string;
}

/** A payment of `paise`, with at most one refund and one chargeback that together fit inside it. */
const entry = fc
  .record({
    paise: fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 1_000_000_000 })),
    refundShare: fc.option(fc.double({ min: 0.01, max: 0.5, noNaN: true }), { nil: undefined }),
    chargebackShare: fc.option(fc.double({ min: 0.01, max: 0.5, noNaN: true }), { nil: undefined }),
  })
  .map(({ paise, refundShare, chargebackShare }) => ({
    paise,
    refund: refundShare === undefined ? undefined : Math.max(1, Math.floor(paise * refundShare)),
    chargeback: chargebackShare === undefined ? undefined : Math.max(1, Math.floor(paise * chargebackShare)),
  }))
  // 1-paisa payments cannot carry both a refund and a chargeback of at least 1 paisa.
  .filter((e) => (e.refund ?? 0) + (e.chargeback ?? 0) <= e.paise);

describe('settle mark --dry-run equals the real mark-settled', () => {
  it('for random batches, to the paisa', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 5 }), async (batch) => {
        const payments: string[] = [];
        const refunds: string[] = [];
        const chargebacks: string[] = [];
        for (const e of batch) {
          const { paymentId } = await paidOrder(h, rupees(e.paise));
          payments.push(paymentId);
          if (e.refund !== undefined) refunds.push(`${await debit('refunds', paymentId, rupees(e.refund))}=${rupees(e.refund)}`);
          if (e.chargeback !== undefined) chargebacks.push(`${await debit('chargebacks', paymentId, rupees(e.chargeback))}=${rupees(e.chargeback)}`);
        }
        const args = [...payments, ...refunds.flatMap((r) => ['--refund', r]), ...chargebacks.flatMap((c) => ['--chargeback', c]), '--json'];

        const dry = await pgw(['settle', 'mark', ...args, '--dry-run']);
        if (dry.code !== 0) {
          // Refunds and chargebacks beyond the batch's net would settle a negative amount (I1,
          // docs/sandbox.md "Invariants"): the dry run refuses it, and so does the real call.
          expect(JSON.parse(dry.stderr).error.code, dry.stderr).toBe('DRY_RUN_REFUSED');
          expect(dry.stderr).toMatch(/the batch would settle -/);
          const refused = await pgw(['settle', 'mark', ...args]);
          expect(refused.code, refused.stderr).toBe(1);
          expect(JSON.parse(refused.stderr).error.code).toBe('ERR_SERVICE_ERROR_000');
          return;
        }
        expect(dry.code, dry.stderr).toBe(0);
        expect(dry.stderr).toBe('');
        const predicted = JSON.parse(dry.stdout);

        const real = await pgw(['settle', 'mark', ...args]);
        expect(real.code, real.stderr).toBe(0);
        const settled = JSON.parse(real.stdout);
        for (const key of ['settlement_amount', 'settlement_charges', 'settlement_gst', 'forex_rate']) expect(settled[key]).toBe(predicted[key]);

        // Per payment, the settlement's transactions carry what the dry run predicted.
        const got = await pgw(['settle', 'get', settled.settlement_id, '--json']);
        const captures = JSON.parse(got.stdout).transactions.filter((t: { settlement_type: string }) => t.settlement_type === 'capture');
        const fixed = (n: number) => n.toFixed(2);
        expect(
          captures.map((t: Record<string, number | string>) => ({
            payment_id: t.transaction_id,
            amount: fixed(t.transaction_amount as number),
            fee: fixed(t.merchant_service_fee as number),
            gst: fixed(t.merchant_service_tax as number),
            net: fixed(t.merchant_net_amount as number),
          })),
        ).toEqual(predicted.payments);

        // And now the same dry run flags every payment as already settled.
        const again = await pgw(['settle', 'mark', ...payments, '--dry-run', '--json']);
        expect(again.code).toBe(1);
        expect(JSON.parse(again.stderr).error.details.payment_uids).toEqual(payments.map((id) => expect.stringContaining(`${id} is already settled (in ${settled.settlement_id})`)));
      }),
      { numRuns: 6 },
    );
  });
});

describe('settle mark: the sandbox refuses', () => {
  it('a failed payment: the dry run flags it, the real call is exit 1 with the per-category line', async () => {
    const good = await paidOrder(h, '250.00');
    const bad = await paidOrder(h, '99.00', { outcome: 'fail' });
    const dry = await pgw(['settle', 'mark', good.paymentId, bad.paymentId, 'PR9999999999', '--dry-run', '--json']);
    expect(dry.code).toBe(1);
    expect(JSON.parse(dry.stderr).error.details.payment_uids).toEqual([`${bad.paymentId} is not captured (status failed)`, 'PR9999999999 not found']);

    const real = await pgw(['settle', 'mark', good.paymentId, bad.paymentId, '-o', 'table']);
    expect(real.code).toBe(1);
    expect(real.stdout).toBe('');
    expect(real.stderr).toContain('error: Payment gateway error (ERR_SERVICE_ERROR_000)');
    expect(real.stderr).toContain(`  payment_uids: ${bad.paymentId} is not captured`);
    expect(real.stderr).not.toContain('refund_uids');
    // Atomic: the good payment is still unsettled.
    const check = await pgw(['settle', 'mark', good.paymentId, '--dry-run', '--json']);
    expect(check.code).toBe(0);
  });

  it('an unknown refund UID is named under refund_uids', async () => {
    const good = await paidOrder(h, '10.00');
    const r = await pgw(['settle', 'mark', good.paymentId, '--refund', 'RF0000009999', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  refund_uids: RF0000009999 not found');
  });

  it('settle get shows what mark settled', async () => {
    const p = await paidOrder(h, '1000.00');
    const refund = await debit('refunds', p.paymentId, '100.00');
    const chargeback = await debit('chargebacks', p.paymentId, '50.00');
    const marked = await pgw(['settle', 'mark', p.paymentId, '--refund', refund, '--chargeback', chargeback, '--json']);
    const { settlement_id, settlement_amount } = JSON.parse(marked.stdout);
    expect(settlement_amount).toBe('791.00');
    const r = await pgw(['settle', 'get', settlement_id, '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/settlement_amount +791\.00/);
    expect(r.stdout).toMatch(new RegExp(`${p.paymentId} .*1000\\.00.*50\\.00.*9\\.00.*941\\.00`));
    expect(r.stdout).toMatch(/total .*1000\.00.*50\.00.*9\.00.*791\.00/);
  });
});
