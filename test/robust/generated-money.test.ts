// Money strings (src/money.ts, spec 2.1 / 4.6 rule 7): every 2-decimal string survives parse and
// format unchanged, shorter spellings normalise to it, the JSON-number form of Get Settlement
// (spec 2.9) reads back the same, and rounding is half-up, checked against integer arithmetic.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { amountAsJsonValue, formatAmount, formatLinkAmount, isAmountString, parseAmount, round2 } from '../../src/money.js';
import { amountForms, paise, paiseText } from './helpers-gen-text.js';
import { runs } from './helpers.js';

/** Up to 15 significant digits: the range a double holds exactly enough to print back. */
const safePaise = fc.oneof(paise, fc.bigInt(0n, 10n ** 15n - 1n));
const hugePaise = fc.bigInt(0n, 10n ** 36n);

describe('money strings round-trip through parse and format', () => {
  it('a 2-decimal string is unchanged by formatAmount, parseAmount and toFixed(2)', () => {
    fc.assert(
      fc.property(fc.oneof(safePaise, hugePaise), fc.boolean(), (p, negative) => {
        const text = paiseText(negative && p > 0n ? -p : p);
        if (!negative) expect(isAmountString(text)).toBe(true);
        expect(formatAmount(text)).toBe(text);
        expect(formatAmount(parseAmount(text))).toBe(text);
        expect(parseAmount(text).toFixed(2)).toBe(text);
        expect(round2(parseAmount(text)).toFixed(2)).toBe(text);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('shorter spellings and JSON numbers normalise to the 2-decimal string', () => {
    fc.assert(
      fc.property(safePaise.chain((p) => fc.tuple(fc.constant(p), amountForms(p))), ([p, form]) => {
        expect(formatAmount(form)).toBe(paiseText(p));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('the JSON-number form (Get Settlement) reads back as the same string', () => {
    fc.assert(
      fc.property(safePaise, (p) => {
        const text = paiseText(p);
        const n = amountAsJsonValue(text);
        expect(typeof n).toBe('number');
        expect(formatAmount(n)).toBe(text);
        expect(formatAmount(JSON.parse(JSON.stringify(n)) as number)).toBe(text);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('link amounts: whole rupees without decimals, paise when present (spec 2.8)', () => {
    fc.assert(
      fc.property(safePaise, (p) => {
        expect(formatLinkAmount(paiseText(p))).toBe(p % 100n === 0n ? String(p / 100n) : paiseText(p));
      }),
      { numRuns: runs(1000) },
    );
  });

  it('more decimals round half-up to 2, as integer arithmetic says', () => {
    const withDecimals = fc.tuple(fc.oneof(fc.bigInt(0n, 10n ** 15n), fc.bigInt(0n, 10_000n)), fc.integer({ min: 3, max: 8 }));
    fc.assert(
      fc.property(withDecimals, fc.boolean(), ([units, places], negative) => {
        const scale = 10n ** BigInt(places);
        const abs = `${units / scale}.${String(units % scale).padStart(places, '0')}`;
        const drop = 10n ** BigInt(places - 2);
        const rounded = (units + drop / 2n) / drop; // half-up, away from zero, on the magnitude
        const sign = negative && rounded > 0n ? '-' : ''; // never "-0.00"
        expect(formatAmount(`${negative ? '-' : ''}${abs}`)).toBe(`${sign}${paiseText(rounded)}`);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('only digits with at most 2 decimals are amount strings', () => {
    const notAmount = fc.oneof(
      fc.tuple(fc.bigInt(0n, 10n ** 12n), fc.integer({ min: 3, max: 6 })).map(([r, n]) => `${r}.${'5'.repeat(n)}`),
      paise.map((p) => `-${paiseText(p)}`),
      paise.map((p) => ` ${paiseText(p)}`),
      paise.map((p) => `${paiseText(p)}e2`),
      paise.map((p) => paiseText(p).replace('.', ',')),
      fc.constantFrom('', '.', '1.', '.50', '1e3', 'NaN', 'Infinity', '0x10', '1_000.00', '१२३.००'),
    );
    fc.assert(
      fc.property(notAmount, (text) => {
        expect(isAmountString(text), text).toBe(false);
      }),
      { numRuns: runs(1000) },
    );
  });
});
