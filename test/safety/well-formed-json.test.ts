// wellFormedJsonText (src/safety/well-formed-json.ts): parsing the rewritten text gives what
// toWellFormed() makes of every string and key of the parsed value: each lone surrogate one U+FFFD,
// pairs kept; nothing else changes, lengths included (issue 31 item 10).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wellFormedJsonText } from '../../src/safety/well-formed-json.js';

/** What the rule says the parsed value is: toWellFormed() on every string and key. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toWellFormed(), wellFormed(v)]));
  return value;
}

/** Strings with surrogates alone, in pairs and reversed, among ordinary and escaped characters. */
const text = fc.array(fc.constantFrom('a', '\\', '"', 'u', 'd800', '\ud800', '\udc00', '\udbff', '\udfff', '\u{1f600}', '\u20b9', '\n'), { maxLength: 12 }).map((parts) => parts.join(''));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(text, tie('value'), { maxKeys: 3 })),
})).value;

describe('wellFormedJsonText', () => {
  it('parses to toWellFormed() of every string and key, whatever JSON.stringify wrote', () => {
    fc.assert(
      fc.property(json, (value) => {
        const written = JSON.stringify(value);
        const rewritten = wellFormedJsonText(written);
        expect(rewritten.length).toBe(written.length);
        expect(JSON.parse(rewritten)).toEqual(wellFormed(JSON.parse(written)));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['"\\ud800"', '"\\ufffd"'],
    ['"\\uD800\\uDC00"', '"\\uD800\\uDC00"'],
    ['"\\uDC00\\uD800"', '"\\ufffd\\ufffd"'],
    // An escaped backslash, then the text "ud800": no escape there.
    ['"\\\\ud800"', '"\\\\ud800"'],
    ['"\\\\\\ud800"', '"\\\\\\ufffd"'],
    ['"\\ud800\\\\udc00"', '"\\ufffd\\\\udc00"'],
    ['{"\\ud800":1}', '{"\\ufffd":1}'],
    ['"\\u0041\\n"', '"\\u0041\\n"'],
  ])('%s → %s', (input, output) => {
    expect(wellFormedJsonText(input)).toBe(output);
  });

  it('leaves text with no surrogate escape as it is, the same string', () => {
    const body = '{"a":"\u20b9 \\u20b9","b":[1,2]}';
    expect(wellFormedJsonText(body)).toBe(body);
  });
});
