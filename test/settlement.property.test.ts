// Property tests of the settlement arithmetic (spec 4.6 rules 4-7, rounding of docs/sandbox.md)
// against a reference written here in integer paise with BigInt and its own half-up rounding, so
// the test shares no code with src/settlement.ts or src/money.ts (decimal.js).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeSettlement, forexEquivalent } from '../src/settlement.js';

// ---- the reference: integer paise, nothing else ------------------------------------------------

/** num/den rounded half-up (away from zero on a tie), for num >= 0 and den > 0. */
function halfUp(num: bigint, den: bigint): bigint {
  if (num < 0n) return -halfUp(-num, den);
  return (2n * num + den) / (2n * den);
}

/** 5 % of the amount, then 18 % of the rounded fee; each rounded half-up to the paisa. */
function refPayment(amount: bigint): { fee: bigint; gst: bigint; net: bigint } {
  const fee = halfUp(amount * 5n, 100n);
  const gst = halfUp(fee * 18n, 100n);
  return { fee, gst, net: amount - fee - gst };
}

function refSettlement(payments: bigint[], refunds: bigint[], chargebacks: bigint[]) {
  const rows = payments.map((amount) => ({ amount, ...refPayment(amount) }));
  const total = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
  return {
    settlement_amount: total(rows.map((r) => r.net)) - total(refunds) - total(chargebacks),
    settlement_charges: total(rows.map((r) => r.fee)),
    settlement_gst: total(rows.map((r) => r.gst)),
    rows,
  };
}

/** 123456n → "1234.56"; -590n → "-5.90". */
function rupees(paise: bigint): string {
  const sign = paise < 0n ? '-' : '';
  const abs = paise < 0n ? -paise : paise;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** "1234.56" → 123456n: the output must be exactly 2 decimals, so this parser is strict. */
function paise(text: string): bigint {
  const m = /^(-?)([0-9]+)\.([0-9]{2})$/.exec(text);
  if (!m) throw new Error(`not a 2-decimal amount: ${text}`);
  const v = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return m[1] === '-' ? -v : v;
}

// ---- generators ---------------------------------------------------------------------------------

/** spec part 8: an order amount is > 0 and <= 10,000,000.00. */
const MAX_PAISE = 1_000_000_000;
const amountPaise = fc.oneof(
  fc.integer({ min: 1, max: MAX_PAISE }),
  fc.integer({ min: 1, max: 10_000 }), // small amounts, where the rounding matters most
  fc.constantFrom(1, 9, 10, 11, 19, 20, 500, 1010, 1009, MAX_PAISE),
);
const batch = fc.record({
  payments: fc.array(amountPaise, { minLength: 1, maxLength: 25 }),
  refunds: fc.array(amountPaise, { maxLength: 6 }),
  chargebacks: fc.array(amountPaise, { maxLength: 6 }),
});

function run(b: { payments: number[]; refunds: number[]; chargebacks: number[] }) {
  const s = (n: number) => rupees(BigInt(n));
  return computeSettlement({
    payments: b.payments.map((n, i) => ({ amount: s(n), payment_id: `PR${String(i).padStart(10, '0')}` })),
    refunds: b.refunds.map(s),
    chargebacks: b.chargebacks.map(s),
  });
}

describe('settlement arithmetic against an integer-paise reference', () => {
  it('every figure equals the reference to the paisa', () => {
    fc.assert(
      fc.property(batch, (b) => {
        const got = run(b);
        const ref = refSettlement(b.payments.map(BigInt), b.refunds.map(BigInt), b.chargebacks.map(BigInt));
        expect(got.settlement_amount).toBe(rupees(ref.settlement_amount));
        expect(got.settlement_charges).toBe(rupees(ref.settlement_charges));
        expect(got.settlement_gst).toBe(rupees(ref.settlement_gst));
        expect(got.forex_rate).toBe('96');
        expect(got.payments.map((p) => [p.amount, p.fee, p.gst, p.net])).toEqual(
          ref.rows.map((r) => [rupees(r.amount), rupees(r.fee), rupees(r.gst), rupees(r.net)]),
        );
        expect(got.refunds).toEqual(b.refunds.map((n) => rupees(BigInt(n))));
        expect(got.chargebacks).toEqual(b.chargebacks.map((n) => rupees(BigInt(n))));
      }),
      { numRuns: 500 },
    );
  });

  it('for every payment, fee + GST + net equals the amount', () => {
    fc.assert(
      fc.property(batch, (b) => {
        for (const p of run(b).payments) expect(paise(p.fee) + paise(p.gst) + paise(p.net)).toBe(paise(p.amount));
      }),
      { numRuns: 300 },
    );
  });

  it('the totals are the sums of the rounded per-payment figures', () => {
    fc.assert(
      fc.property(batch, (b) => {
        const s = run(b);
        const sum = (xs: string[]) => xs.reduce((a, x) => a + paise(x), 0n);
        expect(paise(s.settlement_charges)).toBe(sum(s.payments.map((p) => p.fee)));
        expect(paise(s.settlement_gst)).toBe(sum(s.payments.map((p) => p.gst)));
        expect(paise(s.settlement_amount)).toBe(sum(s.payments.map((p) => p.net)) - sum(s.refunds) - sum(s.chargebacks));
      }),
      { numRuns: 300 },
    );
  });

  it('a refund or chargeback debits the total at its full amount, with no fee or GST', () => {
    fc.assert(
      fc.property(batch, amountPaise, fc.boolean(), (b, extra, asRefund) => {
        const before = run(b);
        const after = run(asRefund ? { ...b, refunds: [...b.refunds, extra] } : { ...b, chargebacks: [...b.chargebacks, extra] });
        expect(paise(before.settlement_amount) - paise(after.settlement_amount)).toBe(BigInt(extra));
        expect(after.settlement_charges).toBe(before.settlement_charges);
        expect(after.settlement_gst).toBe(before.settlement_gst);
        expect(after.payments).toEqual(before.payments);
      }),
      { numRuns: 200 },
    );
  });

  it('half-up at the fee step: an exact fee on a half paisa rounds up', () => {
    // amount ≡ 10 (mod 20) paise → amount × 5 % ends in exactly half a paisa.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Math.floor((MAX_PAISE - 10) / 20) }), (k) => {
        const amount = 20 * k + 10;
        const [p] = run({ payments: [amount], refunds: [], chargebacks: [] }).payments;
        expect(paise(p!.fee)).toBe((BigInt(amount) * 5n + 50n) / 100n); // the half goes up
        expect(paise(p!.fee) * 100n - BigInt(amount) * 5n).toBe(50n);
      }),
    );
  });

  it('half-up at the GST step, on the rounded fee: a GST on a half paisa rounds up', () => {
    // fee ≡ 25 (mod 50) paise → fee × 18 % ends in exactly half a paisa; amount = 20 × fee gives that fee exactly.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Math.floor((MAX_PAISE / 20 - 25) / 50) }), (k) => {
        const fee = 50 * k + 25;
        const [p] = run({ payments: [20 * fee], refunds: [], chargebacks: [] }).payments;
        expect(paise(p!.fee)).toBe(BigInt(fee));
        expect(paise(p!.gst) * 100n - BigInt(fee) * 18n).toBe(50n);
      }),
    );
  });

  it('GST is taken on the rounded fee, not on the exact one', () => {
    // 10.10 → exact fee 0.505, GST on it 0.0909 → 0.09; on the rounded 0.51 → 0.0918 → 0.09. Find
    // amounts where the two differ and check the rounded-fee reading wins.
    let differing = 0;
    fc.assert(
      fc.property(amountPaise, (amount) => {
        const a = BigInt(amount);
        const onExact = halfUp(a * 5n * 18n, 10_000n);
        const [p] = run({ payments: [amount], refunds: [], chargebacks: [] }).payments;
        expect(paise(p!.gst)).toBe(refPayment(a).gst);
        if (onExact !== refPayment(a).gst) differing++;
      }),
      { numRuns: 2000 },
    );
    expect(differing).toBeGreaterThan(0); // the property has something to tell apart
  });

  it('the spec check case: 1000.00 less refund 100.00 and chargeback 50.00 → 791.00 / 50.00 / 9.00', () => {
    const ref = refSettlement([100_000n], [10_000n], [5_000n]);
    expect([ref.settlement_amount, ref.settlement_charges, ref.settlement_gst].map(rupees)).toEqual(['791.00', '50.00', '9.00']);
    const s = run({ payments: [100_000], refunds: [10_000], chargebacks: [5_000] });
    expect([s.settlement_amount, s.settlement_charges, s.settlement_gst]).toEqual(['791.00', '50.00', '9.00']);
  });

  it('the USD equivalent is settlement_amount / 96, half-up to the cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_PAISE, max: MAX_PAISE }), (n) => {
        expect(forexEquivalent(rupees(BigInt(n)))).toBe(rupees(halfUp(BigInt(n), 96n)));
      }),
      { numRuns: 500 },
    );
    expect(forexEquivalent('791.00')).toBe('8.24');
  });
});
