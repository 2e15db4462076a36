// scripts/decimal-constants.mjs: the build leaves decimal.js's ln(10) and pi as text instead of
// converting them to Decimals when the module loads (issue 23). Every result must stay the same,
// at every precision those constants allow, and past it the same refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Decimal as Original } from 'decimal.js';
// @ts-expect-error: a build script in plain JavaScript, without types
import { withoutConstantConversions } from '../../scripts/decimal-constants.mjs';

const transform = withoutConstantConversions as (source: string) => string;
const source = readFileSync(createRequire(import.meta.url).resolve('decimal.js').replace(/decimal\.js$/, 'decimal.mjs'), 'utf8');

let dir: string;
let Patched: typeof Original;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-decimal-'));
  const file = join(dir, 'decimal.mjs');
  writeFileSync(file, transform(source));
  Patched = ((await import(pathToFileURL(file).href)) as { Decimal: typeof Original }).Decimal;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The operations of decimal.js that read ln(10) or pi, on a constructor of `precision` digits.
 * Past a few hundred digits only the quick ones: asin, atan and ln of small numbers take seconds
 * there, and each reads the same constants the quick ones do.
 */
function results(D: typeof Original, precision: number): string[] {
  const C = D.clone({ precision, rounding: D.ROUND_HALF_UP });
  const run = (f: () => { toString(): string }) => {
    try {
      return f().toString();
    } catch (err) {
      return `throws ${(err as Error).message}`;
    }
  };
  const quick = [
    run(() => C.ln(10)),
    run(() => C.ln('7e300')),
    run(() => C.acos(-1)),
    run(() => C.sin(1)),
    run(() => C.tan('0.5')),
    run(() => C.cos('3.14159')),
  ];
  if (precision > 400) return quick;
  return [
    ...quick,
    run(() => C.ln('0.000123')),
    run(() => C.log10(7)),
    run(() => C.log(1000, 3)),
    run(() => C.exp(C.ln(5))),
    run(() => C.atan(1).times(4)),
    run(() => C.asin('0.5')),
    run(() => C.atan2(1, -1)),
    run(() => new C('123.456').pow('1.5')),
  ];
}

describe('decimal.js with ln(10) and pi left as text', () => {
  it('removes the two conversions and nothing else', () => {
    const out = transform(source);
    expect(source.length - out.length).toBe('LN10 = new Decimal(LN10);'.length + 'PI = new Decimal(PI);'.length);
    expect(out).not.toContain('LN10 = new Decimal(LN10);');
    expect(out).not.toContain('PI = new Decimal(PI);');
    expect(out.replace(/\s/g, '')).toBe(source.replace('LN10 = new Decimal(LN10);', '').replace('PI = new Decimal(PI);', '').replace(/\s/g, ''));
  });

  it('stops the build when decimal.js no longer has a conversion exactly once', () => {
    expect(() => transform(source.replace('PI = new Decimal(PI);', ''))).toThrow(/PI = new Decimal\(PI\);/);
    expect(() => transform(`${source}\nLN10 = new Decimal(LN10);\n`)).toThrow(/LN10 = new Decimal\(LN10\);/);
  });

  // 1013, 1017 and 1025 are the last precisions ln, sin and acos accept with 1,025-digit constants.
  it.each([20, 100, 400, 1013, 1014, 1017, 1018, 1025])('gives the same results as decimal.js at precision %i', (precision) => {
    const expected = results(Original, precision);
    expect(results(Patched, precision)).toEqual(expected);
    expect(expected.filter((r) => !r.startsWith('throws')).length).toBeGreaterThan(0);
  });

  it('refuses past the constants, as decimal.js does', () => {
    const refused = results(Patched, 1026).filter((r) => r.startsWith('throws'));
    expect(results(Patched, 1026)).toEqual(results(Original, 1026));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => /Precision limit exceeded/.test(r))).toBe(true);
  });
});
