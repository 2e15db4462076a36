// Tables fit the terminal: never wider than the width given, money right-aligned and whole, the
// least important columns truncated with … first, then dropped.
import { afterEach, describe, expect, it } from 'vitest';
import { renderTable, renderDetail } from '../../src/output/render.js';
import { setOutputWidth, setWideTables } from '../../src/output/width.js';
import { takeHiddenColumnsNote } from '../../src/output/hidden-columns.js';
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

  it('cuts text a little with … before dropping any column', () => {
    const text = renderTable(HEAD, [ROW], false, { width: 110 });
    expect(widest(text)).toBeLessThanOrEqual(110);
    expect(text).toMatch(/│ credit_card \(visa,[^│]*… │/);
    for (const h of HEAD) expect(text).toContain(h);
  });

  it('drops the least important columns when a little is not enough: text keeps 60 % of its width', () => {
    const text = renderTable(HEAD, [ROW], false, { width: 100 });
    expect(widest(text)).toBeLessThanOrEqual(100);
    // The time goes first (it is never cut), then the text is cut no shorter than 60 %.
    expect(text).not.toContain('created');
    expect(text).toMatch(/│ credit_card \(visa, e[^│]*… │/);
  });

  it('drops columns when truncating is not enough, the first column last', () => {
    const text = renderTable(HEAD, [ROW], false, { width: 40 });
    expect(widest(text)).toBeLessThanOrEqual(40);
    expect(text).toContain('PR1234567890');
    expect(text).not.toContain('created');
  });

  it('never cuts a reference or a URL: it is dropped whole when it does not fit', () => {
    const head = ['payment_id', 'status', 'reference_id', 'buyer', 'target'];
    const row = ['PR1234567890', 'captured', 'INV-7781-2026-11-customer-1-2', 'Kaveri Silks and Sarees', 'http://127.0.0.1:4210/hooks/payments'];
    const at80 = renderTable(head, [row], false, { width: 80 });
    expect(widest(at80)).toBeLessThanOrEqual(80);
    expect(at80).toContain('INV-7781-2026-11-customer-1-2');
    expect(at80).not.toMatch(/http:\/\/[^│]*…/);
    // An explicit hint to cut a URL in the middle (events' target) does not cut it either.
    const hinted = renderTable(head, [row], false, { width: 120, columns: [undefined, undefined, undefined, undefined, { cut: 'middle', priority: 1 }] });
    expect(hinted).toContain('http://127.0.0.1:4210/hooks/payments');
    const narrow = renderTable(head, [row], false, { width: 60, columns: [undefined, undefined, undefined, undefined, { cut: 'middle', priority: 1 }] });
    expect(narrow).not.toContain('http');
    expect(narrow).not.toMatch(/INV-[^│]*…/);
  });

  it('drops a time before a reference even when a command ranked the time higher', () => {
    const head = ['payment_id', 'status', 'reference', 'created'];
    const row = ['PR1234567890', 'captured', 'INV-7781-2026-11-customer-0001-2', '2026-11-23 02:40'];
    const text = renderTable(head, [row], false, { width: 70, columns: [{ keep: true, priority: 10 }, { priority: 9 }, { priority: 5 }, { priority: 6 }] });
    expect(text).toContain('INV-7781-2026-11-customer-0001-2');
    expect(text).not.toContain('created');
  });

  it('says which columns it hid, once, for the run to print', () => {
    takeHiddenColumnsNote();
    renderTable(HEAD, [ROW], false, { width: 60 });
    const note = takeHiddenColumnsNote();
    expect(note).toMatch(/^note: \d columns hidden \(.*created.*\): --wide shows them$/);
    expect(takeHiddenColumnsNote()).toBeUndefined();
    renderTable(HEAD, [ROW], false, { width: 200 });
    expect(takeHiddenColumnsNote()).toBeUndefined();
  });

  it('--wide: a table to a terminal keeps every column at its natural width', () => {
    setOutputWidth(80);
    setWideTables(true);
    const text = renderTable(HEAD, [ROW], false);
    setWideTables(false);
    for (const cell of ROW) expect(text).toContain(cell);
    expect(widest(text)).toBeGreaterThan(80);
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
