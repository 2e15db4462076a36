// The pieces under the merchant verbs, without HTTP: the field catalogue over the shared schemas,
// reading --file, the content hash and the resume plan.
import { describe, expect, it } from 'vitest';
import { companyDetailsShape, settlementDetailsShape } from '../../../src/api/schemas/merchants.js';
import { FIELDS, fieldAt, parseFieldText, suggestField } from '../../../src/commands/merchant/fields.js';
import { parseMerchantInput } from '../../../src/commands/merchant/input.js';
import { contentHash, readResults } from '../../../src/commands/merchant/results.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planResume } from '../../../src/commands/merchant/resume.js';
import { ValidationError } from '../../../src/errors.js';

describe('field catalogue', () => {
  it('has exactly the fields of the shared schemas, required as the schemas say', () => {
    const want = [...Object.keys(companyDetailsShape).map((k) => `company_details.${k}`), ...Object.keys(settlementDetailsShape).map((k) => `settlement_details.${k}`)];
    expect(FIELDS.map((f) => f.path).sort()).toEqual(want.sort());
    expect(fieldAt('company_details.legal_name')!.required).toBe(true);
    expect(fieldAt('company_details.purpose_code')!.required).toBe(false);
    expect(fieldAt('settlement_details.bank_swift_code')!.required).toBe(false);
    expect(fieldAt('company_details.same_as_registered_address')!.kind).toBe('boolean');
    expect(fieldAt('company_details.hs_codes')!.kind).toBe('list');
  });

  it('parses typed text by kind', () => {
    const hs = fieldAt('company_details.hs_codes')!;
    expect(parseFieldText(hs, ' 62141000 ,85176290,, ')).toEqual({ value: ['62141000', '85176290'] });
    expect(parseFieldText(hs, '["1"]')).toEqual({ value: ['1'] });
    const same = fieldAt('company_details.same_as_registered_address')!;
    expect(parseFieldText(same, 'No')).toEqual({ value: false });
    expect(parseFieldText(same, 'TRUE')).toEqual({ value: true });
    expect(parseFieldText(fieldAt('company_details.tax_id')!, ' T-1 ')).toEqual({ value: ' T-1 ' });
  });

  it('suggests a near field name, and nothing for a far one', () => {
    expect(suggestField('company_details', 'brandname')).toBe('brand_name');
    expect(suggestField('settlement_details', 'bank_swift')).toBe(undefined);
    expect(suggestField('company_details', 'zzzzzz')).toBe(undefined);
  });
});

describe('parseMerchantInput', () => {
  it('one object is one merchant, or a batch of one when asked', () => {
    expect(parseMerchantInput('m.json', '{"a":1}')).toEqual({ kind: 'single', name: 'm.json', value: { a: 1 } });
    expect(parseMerchantInput('m.json', '{"a":1}', true)).toMatchObject({ kind: 'batch', entries: [{ n: 1, value: { a: 1 } }] });
    expect(parseMerchantInput('m.jsonl', '{"a":1}\n')).toMatchObject({ kind: 'batch', unit: 'line', entries: [{ n: 1 }] });
  });

  it('an array is a batch numbered by item; JSON Lines by physical line, blank lines skipped', () => {
    expect(parseMerchantInput('a.json', '[{"a":1},{"a":2}]')).toMatchObject({ unit: 'item', entries: [{ n: 1 }, { n: 2 }] });
    const lines = parseMerchantInput('stdin', '{"a":1}\n\n{"a":2}\n{oops\n');
    expect(lines).toMatchObject({ kind: 'batch', unit: 'line' });
    const entries = (lines as { entries: unknown[] }).entries;
    expect(entries).toEqual([{ n: 1, value: { a: 1 } }, { n: 3, value: { a: 2 } }, { n: 4, parseError: expect.stringContaining('not valid JSON') }]);
  });

  it('a broken single document gives its own JSON error, not one per line', () => {
    expect(() => parseMerchantInput('m.json', '{\n  "a": 1,\n  "b": \n}')).toThrow(/^--file: m\.json is not valid JSON: unexpected character near line 4$/);
    expect(() => parseMerchantInput('m.json', '{"tax_id": "SECRET-ISH-123",}')).toThrow(/^--file: m\.json is not valid JSON: Expected double-quoted property name at line 1, column 29$/);
    expect(() => parseMerchantInput('m.json', '  \n')).toThrow('--file: m.json is empty');
    expect(() => parseMerchantInput('m.json', '[]')).toThrow('--file: m.json is an empty array');
  });
});

describe('contentHash', () => {
  it('ignores key order and formatting, not values', () => {
    expect(contentHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(contentHash(JSON.parse('{ "b": {"d":"x", "c":[1,2]}, "a": 1 }')));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
    expect(contentHash({ a: [1, 2] })).not.toBe(contentHash({ a: [2, 1] }));
  });
});

describe('planResume', () => {
  const h = (s: string) => contentHash(s);
  const entries = [1, 2, 3].map((n) => ({ n, hash: h(`m${n}`) }));

  it('skips created lines (by content, preferring the same line); errors are tried again', () => {
    const plan = planResume(entries, { lines: [{ line: 1, hash: h('m1'), id: '11' }, { line: 2, hash: h('m2'), error: { code: 'X', message: 'x', details: null, status: 400 } }], unreadable: [] }, 'r.jsonl', 'line');
    expect([...plan.done]).toEqual([[1, { id: '11', from: 1 }]]);
    expect(plan.uncertain.size).toBe(0);
  });

  it('a created merchant whose line now holds something else is refused, all such lines at once', () => {
    const prior = { lines: [{ line: 2, hash: h('old2'), id: '22' }, { line: 3, hash: h('old3'), id: '33' }], unreadable: [] };
    try {
      planResume(entries, prior, 'r.jsonl', 'line');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).problems.map((p) => p.path)).toEqual(['line 2', 'line 3']);
    }
  });

  it('holds back uncertain attempts, and warns of records it cannot place', () => {
    const prior = { lines: [{ line: 2, hash: h('m2'), uncertain: true as const, error: { code: 'INTERRUPTED', message: 'interrupted', details: null, status: null } }, { line: 9, hash: h('gone'), id: '99' }], unreadable: [4] };
    const plan = planResume(entries, prior, 'r.jsonl', 'line');
    expect([...plan.uncertain.keys()]).toEqual([2]);
    expect(plan.warnings).toEqual(['r.jsonl: merchant 99 (line 9) was created earlier and is no longer in the input', 'r.jsonl: line 4 is not a result record and was ignored']);
  });

  it('an uncertain attempt later created is simply done', () => {
    const prior = { lines: [{ line: 2, hash: h('m2'), uncertain: true as const }, { line: 2, hash: h('m2'), id: '22' }], unreadable: [] };
    const plan = planResume(entries, prior, 'r.jsonl', 'line');
    expect(plan.uncertain.size).toBe(0);
    expect(plan.done.get(2)).toEqual({ id: '22', from: 2 });
  });
});

describe('readResults: attempts written before each request (issue 21 item 4)', () => {
  const read = (records: unknown[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'pgw-results-'));
    try {
      const path = join(dir, 'r.jsonl');
      writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      return readResults(path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const h = (s: string) => contentHash(s);

  it('an attempt without an outcome is uncertain; one followed by its outcome is that outcome', () => {
    const prior = read([
      { account: { gateway: 'g', client_id: 'c', merchant_id: null } },
      { line: 1, hash: h('a'), attempt: true },
      { line: 1, hash: h('a'), id: '11' },
      { line: 2, hash: h('b'), attempt: true },
      { line: 2, hash: h('b'), error: { code: 'ERR_MERCHANT_001', message: 'bad', details: null, status: 400 } },
      { line: 3, hash: h('c'), attempt: true },
    ]);
    expect(prior.lines).toEqual([
      { line: 1, hash: h('a'), id: '11' },
      { line: 2, hash: h('b'), error: { code: 'ERR_MERCHANT_001', message: 'bad', details: null, status: 400 } },
      { line: 3, hash: h('c'), attempt: true, uncertain: true },
    ]);
    const plan = planResume([{ n: 1, hash: h('a') }, { n: 2, hash: h('b') }, { n: 3, hash: h('c') }], prior, 'r.jsonl', 'line');
    expect([...plan.done.keys()]).toEqual([1]);
    expect([...plan.uncertain.keys()]).toEqual([3]); // line 2 was refused outright: it may be sent again
  });
});
