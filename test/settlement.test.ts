import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Money } from '../src/money.js';
import { computeSettlement, paymentBreakdown } from '../src/settlement.js';

describe('computeSettlement (spec 4.6)', () => {
  it('gives the spec check case: 791.00 / 50.00 / 9.00', () => {
    const s = computeSettlement({ payments: [{ amount: '1000.00' }], refunds: ['100.00'], chargebacks: ['50.00'] });
    expect(s).toEqual({
      settlement_amount: '791.00',
      settlement_charges: '50.00',
      settlement_gst: '9.00',
      forex_rate: '96',
      payments: [{ amount: '1000.00', fee: '50.00', gst: '9.00', net: '941.00' }],
      refunds: ['100.00'],
      chargebacks: ['50.00'],
    });
  });

  it('rounds the fee half-up to 2 decimals: 10.10 → fee 0.51 (0.505), GST 0.09 (0.0918)', () => {
    const s = computeSettlement({ payments: [{ amount: '10.10', payment_id: 'PR0000000001' }] });
    expect(s.payments).toEqual([{ payment_id: 'PR0000000001', amount: '10.10', fee: '0.51', gst: '0.09', net: '9.50' }]);
    expect(s.settlement_amount).toBe('9.50');
  });

  it('rounds GST half-up too: fee 0.25 → GST 0.045 → 0.05', () => {
    // 5.00 × 5 % = 0.25; 0.25 × 18 % = 0.045 → 0.05
    expect(paymentBreakdown('5.00').gst.toFixed(2)).toBe('0.05');
    const s = computeSettlement({ payments: [{ amount: '5.00' }] });
    expect(s.payments[0]).toEqual({ amount: '5.00', fee: '0.25', gst: '0.05', net: '4.70' });
  });

  it('does not round below half: 10.09 → fee 0.50 (0.5045)', () => {
    expect(computeSettlement({ payments: [{ amount: '10.09' }] }).payments[0]).toEqual({ amount: '10.09', fee: '0.50', gst: '0.09', net: '9.50' });
  });

  it('totals are sums of the rounded per-payment figures, not a rounding of the sum', () => {
    // Each 10.10 has fee 0.505 → 0.51; three of them: 1.53 (rounding the total 1.515 would give 1.52).
    const s = computeSettlement({ payments: [{ amount: '10.10' }, { amount: '10.10' }, { amount: '10.10' }] });
    expect(s.settlement_charges).toBe('1.53');
    expect(s.settlement_gst).toBe('0.27');
    expect(s.settlement_amount).toBe('28.50');
  });

  it('normalises whole-rupee and 1-decimal inputs to 2-decimal strings', () => {
    const s = computeSettlement({ payments: [{ amount: '1500' }], refunds: ['10.5'], chargebacks: [] });
    expect(s.payments[0]!.amount).toBe('1500.00');
    expect(s.refunds).toEqual(['10.50']);
    expect(s.settlement_amount).toBe(new Money('1500').minus('75').minus('13.50').minus('10.50').toFixed(2));
  });

  it('reports a negative settlement when debits exceed the nets', () => {
    const s = computeSettlement({ payments: [{ amount: '100.00' }], refunds: ['100.00'] });
    expect(s.settlement_amount).toBe('-5.90');
  });

  it('handles no payments and the maximum order amount exactly', () => {
    expect(computeSettlement({ payments: [] }).settlement_amount).toBe('0.00');
    const s = computeSettlement({ payments: [{ amount: '10000000.00' }] });
    expect(s.payments[0]).toEqual({ amount: '10000000.00', fee: '500000.00', gst: '90000.00', net: '9410000.00' });
  });

  it('refuses non-amounts and negative amounts', () => {
    expect(() => computeSettlement({ payments: [{ amount: 'abc' }] })).toThrow(RangeError);
    expect(() => computeSettlement({ payments: [{ amount: '-1.00' }] })).toThrow(RangeError);
  });

  it('property: amount = fee + gst + net, and the totals add up exactly', () => {
    const amount = fc.integer({ min: 1, max: 1_000_000_000 }).map((paise) => new Money(paise).div(100).toFixed(2));
    fc.assert(
      fc.property(fc.array(amount, { minLength: 1, maxLength: 20 }), fc.array(amount, { maxLength: 5 }), (payments, refunds) => {
        const s = computeSettlement({ payments: payments.map((a) => ({ amount: a })), refunds });
        let nets = new Money(0);
        for (const p of s.payments) {
          expect(new Money(p.fee).plus(p.gst).plus(p.net).toFixed(2)).toBe(p.amount);
          expect(p.fee).toBe(new Money(p.amount).times('0.05').toDecimalPlaces(2, Money.ROUND_HALF_UP).toFixed(2));
          nets = nets.plus(p.net);
        }
        const debits = refunds.reduce((sum, r) => sum.plus(r), new Money(0));
        expect(s.settlement_amount).toBe(nets.minus(debits).toFixed(2));
      }),
    );
  });
});
