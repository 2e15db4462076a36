// The LRS rules of store/lrs.ts (vendor 11.6) at their edges: the financial year turning at
// midnight IST on 1 April, and the TCS rule at the threshold, in exact decimals.
import { describe, expect, it } from 'vitest';
import { Money } from '../../src/money.js';
import { financialYear, tcsFigures } from '../../src/sandbox/store/lrs.js';

const micros = (iso: string) => Date.parse(iso) * 1000;

describe('financialYear', () => {
  it('turns at 1 April 00:00 IST (31 March 18:30 UTC)', () => {
    expect(financialYear(micros('2027-03-31T18:29:59.999Z')).name).toBe('2026-27');
    expect(financialYear(micros('2027-03-31T18:30:00.000Z')).name).toBe('2027-28');
    const fy = financialYear(micros('2026-11-28T00:00:00Z'));
    expect(fy).toEqual({ name: '2026-27', from: micros('2026-03-31T18:30:00Z'), to: micros('2027-03-31T18:30:00Z') });
    expect(financialYear(micros('2099-06-01T00:00:00Z')).name).toBe('2099-00');
  });
});

describe('tcsFigures', () => {
  const f = (committed: string, amount: string) => {
    const r = tcsFigures(new Money(committed), new Money(amount));
    return { taxable: r.taxable.toFixed(2), tcs: r.tcs.toFixed(2), total: r.total.toFixed(2), reason: r.reason, before: r.before, after: r.after };
  };
  it("vendor 11.6's worked example", () => {
    expect(f('0', '1200000')).toEqual({ taxable: '200000.00', tcs: '4000.00', total: '1211080.00', reason: 'partial_above_threshold', before: false, after: true });
  });
  it('up to the threshold exactly: nil; one paisa over: 2% of it, rounded half-up', () => {
    // Reaching it breaches it (the vendor's quote page, issue 42): nothing taxable yet.
    expect(f('400000', '600000')).toMatchObject({ taxable: '0.00', tcs: '0.00', reason: 'nil_below_threshold', before: false, after: true });
    expect(f('0', '1000000')).toMatchObject({ taxable: '0.00', tcs: '0.00', reason: 'nil_below_threshold', before: false, after: true });
    expect(f('0', '999999.99')).toMatchObject({ taxable: '0.00', after: false });
    expect(f('400000', '600000.01')).toMatchObject({ taxable: '0.01', tcs: '0.00', reason: 'partial_above_threshold', after: true });
    expect(f('400000', '600000.25')).toMatchObject({ taxable: '0.25', tcs: '0.01' });
  });
  it('at or past the threshold: the whole amount', () => {
    expect(f('1000000', '100')).toMatchObject({ taxable: '100.00', tcs: '2.00', reason: 'full_amount_taxable', before: true, after: true });
    expect(f('1500000.50', '333.33')).toMatchObject({ taxable: '333.33', tcs: '6.67', reason: 'full_amount_taxable', before: true });
  });
});
