// The ID rules of issue 22 items 1-2 (docs/cli.md, "IDs"), unit by unit; the binary's side is test/e2e/ids.test.ts.
import { describe, expect, it } from 'vitest';
import { cleanId, idsFromText, kindOf, otherKind, splitPasted } from '../../src/commands/ids.js';
import { idArgument } from '../../src/commands/parse.js';

describe('IDs as pasted', () => {
  it('splits on commas, semicolons and whitespace and drops quotes, brackets and sentence punctuation', () => {
    expect(splitPasted(`"PR1". (rf2), “OD3”; 'pr4'\u00a0[ST5]: 12345! <CB6>`)).toEqual(['PR1', 'RF2', 'OD3', 'PR4', 'ST5', '12345', 'CB6']);
  });
  it('keeps what could change a path, so it is refused rather than quietly becoming another ID', () => {
    expect(cleanId('../x')).toBe('../x');
    expect(() => idArgument('order_id', '../x')).toThrow('order_id: "../x" is not a valid identifier');
  });
  it('null, undefined and empty (what --query leaves for a missing field) are no IDs: exit 2, named', () => {
    for (const value of ['null', 'NULL', ' undefined ', '"null"']) expect(() => idArgument('order_id', value)).toThrow(/order_id: ".*" is not an ID: it is what --query prints/);
    expect(() => idArgument('order_id', '')).toThrow('order_id is empty');
    expect(() => idArgument('--payment-id', '  ')).toThrow('--payment-id is empty');
    expect(idArgument('order_id', 'nullify')).toBe('nullify');
  });
  it('upper-cases known prefixes only; a UUID keeps its case', () => {
    expect(cleanId('st0649649583')).toBe('ST0649649583');
    expect(cleanId('ab123')).toBe('ab123');
    expect(cleanId('3f2a-bc')).toBe('3f2a-bc');
  });
  it('reads a JSON array, or lines with # comments', () => {
    expect(idsFromText(' ["pr1", 42]\n', 'stdin')).toEqual(['PR1', '42']);
    expect(idsFromText('# ticket 7\nPR1, PR2\n\nPR3.\n', 'stdin')).toEqual(['PR1', 'PR2', 'PR3']);
    expect(() => idsFromText('[{"id":"1"}]', 'stdin')).toThrow('item 1 of the JSON array is an object');
    expect(() => idsFromText('["PR1",["PR2"]]', 'stdin')).toThrow('item 2 of the JSON array is an array, not an ID');
    expect(() => idsFromText('[null]', 'stdin')).toThrow('item 1 of the JSON array is null, not an ID');
    expect(() => idsFromText('[PR1]', 'stdin')).toThrow('not a JSON array of IDs');
  });
});

describe('kinds', () => {
  it('prefix and digits settle the kind; PR does not tell a payment from a link', () => {
    expect(kindOf('RF1')).toBe('refund');
    expect(kindOf('12345')).toBe('merchant');
    expect(kindOf('PRX1')).toBeUndefined();
    expect(otherKind('RF1', 'payment')).toBe('refund');
    expect(otherKind('PR1', 'link')).toBeUndefined();
    expect(otherKind('12345', 'payment')).toBeUndefined();
    expect(otherKind('PR1', 'merchant')).toBe('payment');
  });
});
