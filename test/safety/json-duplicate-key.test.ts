// firstDuplicateKey (src/safety/json-duplicate-key.ts): a key twice in one object, at any depth,
// compared as a parser reads it (escapes undone); equal keys in different objects are no duplicate.
import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from '../../src/safety/json-duplicate-key.js';

describe('firstDuplicateKey', () => {
  it.each([
    ['{"event_type":"FORGED","data":{},"event_type":"PAYMENT_SUCCESSFUL"}', { key: 'event_type', path: '' }],
    // Escapes are undone before comparing: \u005f is "_".
    ['{"event_type":"A","event\\u005ftype":"B"}', { key: 'event_type', path: '' }],
    ['{"a\\"b":1,"a\\u0022b":2}', { key: 'a"b', path: '' }],
    ['{"data":{"amount":1,"x":[1,"amount"],"amount":2}}', { key: 'amount', path: 'data' }],
    ['{"data":{"items":[{"n":1},{"n":2,"n":3}]}}', { key: 'n', path: 'data.items[1]' }],
    ['[[{"k":{"a":1}}],{"k":1,"k":2}]', { key: 'k', path: '[1]' }],
    ['{ "a" : 1 ,\n "a" : 2 }', { key: 'a', path: '' }],
    ['{"":1,"":2}', { key: '', path: '' }],
    ['{"__proto__":1,"__proto__":2}', { key: '__proto__', path: '' }],
  ])('%s has a duplicate', (text, found) => {
    JSON.parse(text); // the precondition: text JSON.parse accepts
    expect(firstDuplicateKey(text)).toEqual(found);
  });

  it.each([
    '{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}',
    // A string value equal to a key, and keys' text inside string values, are not keys.
    '{"a":"a","b":"{\\"b\\":1,\\"b\\":2}","c":["a","a"]}',
    '{"a\\\\":1,"a":2}',
    '{"\\ud800":1,"\\udc00":2}',
    '[1,2,3]',
    '"text"',
    '{}',
  ])('%s has none', (text) => {
    JSON.parse(text);
    expect(firstDuplicateKey(text)).toBeUndefined();
  });

  it('10,000 levels deep costs no stack', () => {
    const text = `${'{"a":'.repeat(10_000)}{"b":1,"b":2}${'}'.repeat(10_000)}`;
    expect(firstDuplicateKey(text)?.key).toBe('b');
  });
});
