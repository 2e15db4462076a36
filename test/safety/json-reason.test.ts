// parseJsonText (src/safety/json-reason.ts): JSON.parse, refusing documents nested deeper than
// MAX_JSON_DEPTH, at exactly that boundary, through objects and arrays alike.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonText } from '../../src/safety/json-reason.js';

/** `depth` levels of containers, alternating objects and arrays, around a number. */
function nested(depth: number): string {
  let text = '1';
  for (let level = depth; level >= 1; level--) text = level % 2 === 0 ? `[0,${text}]` : `{"a":1,"b":${text}}`;
  return text;
}

describe('parseJsonText', () => {
  it('takes a document exactly MAX_JSON_DEPTH levels deep, and refuses one level more', () => {
    expect(parseJsonText(nested(MAX_JSON_DEPTH))).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)));
    expect(() => parseJsonText(nested(MAX_JSON_DEPTH + 1))).toThrow(new SyntaxError(`nested more than ${MAX_JSON_DEPTH} levels deep`));
  });

  it('finds the deep part wherever it is: after shallow siblings, in the last key or element', () => {
    const deep = nested(MAX_JSON_DEPTH);
    expect(() => parseJsonText(`{"x":1,"y":[1,2,{"z":3}],"last":${deep}}`)).toThrow(/levels deep/);
    expect(() => parseJsonText(`[1,{"a":[]},${deep}]`)).toThrow(/levels deep/);
    expect(parseJsonText(`{"x":1,"last":${nested(MAX_JSON_DEPTH - 1)}}`)).toBeTypeOf('object');
  });

  it('20,000 levels are refused, not a stack overflow; scalars and malformed text behave as JSON.parse', () => {
    expect(() => parseJsonText(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)).toThrow(/levels deep/);
    expect(parseJsonText('"text"')).toBe('text');
    expect(parseJsonText('null')).toBeNull();
    expect(() => parseJsonText('{"a":')).toThrow(SyntaxError);
  });
});
