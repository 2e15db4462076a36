// Tables fit the terminal: never wider than the width given, money right-aligned and whole, the
// least important columns truncated with … first, then dropped.
import { afterEach, describe, expect, it } from 'vitest';
import { renderTable, renderDetail } from '../../src/output/render.js';
import { setOutputWidth } from '../../src/output/width.js';
import { visibleWidth } from '../../src/output/fit.js';

const widest = (text: string) => Math.max(...text.trimEnd().split('\n').map(visibleWidth));

const HEAD = ['payment_id', 'status', 'amount', 'method', 'order_id', 'settlement', 'created'];
const ROW = ['PR1234567890', 'captured', '2000.00 INR', 'credit_card (visa, ending 1111)', 'OD1234567890', 'not settled', '2026-11-23 02:40'];

afterEach(() => setOutputWidth(undefined));

describe('renderTable', () => {
  it('keeps natural widths when the table fits', () => {
    const text = renderTable(['id', 'name'], [['PR1', 'Asha']], false, { width: 80 });
    expect(text).toContain('│ PR1 │ Asha │');
  });

  it.each([60, 80, 100, 120])('never draws a line wider than %i columns', (width) => {
    const text = renderTable(HEAD, [ROW, ROW], false, { width });
    expect(widest(text)).toBeLessThanOrEqual(width);
    // The row's ID and its money are never cut.
    expect(text).toContain('PR1234567890');
    expect(text).toContain('2000.00 INR');
  });

  it('truncates the least important column with … before dropping any', () => {
    const text = renderTable(HEAD, [ROW], false, { width: 100 });
    expect(text).toContain('…');
    for (const h of HEAD) expect(text).toContain(h.slice(0, 5));
  });

  it('drops columns when truncating is not enough, the first column last', () => {
    const text = renderTable(HEAD, [ROW], false, { width: 40 });
    expect(widest(text)).toBeLessThanOrEqual(40);
    expect(text).toContain('PR1234567890');
    expect(text).not.toContain('created');
  });

  it('the run width set from io applies to callers that pass no options', () => {
    setOutputWidth(80);
    expect(widest(renderTable(HEAD, [ROW, ROW], false))).toBeLessThanOrEqual(80);
    setOutputWidth(undefined);
    expect(widest(renderTable(HEAD, [ROW, ROW], false))).toBeGreaterThan(80);
  });

  it('right-aligns money, detected from the cells', () => {
    const text = renderTable(['item', 'amount'], [['a', '5.00'], ['b', '1500.00']], false);
    expect(text).toContain('│    5.00 │');
    expect(text).toContain('│ 1500.00 │');
  });

  it('counts colour codes as zero width', () => {
    const red = '\u001b[31mcaptured\u001b[39m';
    const text = renderTable(HEAD, [[ROW[0]!, red, ...ROW.slice(2)]], true, { width: 80 });
    expect(widest(text)).toBeLessThanOrEqual(80);
  });
});

describe('renderDetail', () => {
  it('folds a long value with spaces under its column; a long word stays whole', () => {
    setOutputWidth(40);
    const url = `https://example.test/${'x'.repeat(60)}`;
    const text = renderDetail([{ title: 'T', rows: [['message', 'one two three four five six seven eight nine ten eleven'], ['url', url]] }]);
    for (const line of text.split('\n').filter((l) => !l.includes(url))) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
    expect(text).toContain(url);
    expect(text).toMatch(/\n {11}\S/); // continuation under the value column (2 + 7 + 2)
  });
});
