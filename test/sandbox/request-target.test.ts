// The sandbox splits the common request target itself (issue 7: `new URL` per request was ~3 µs of
// a GET); whatever it splits must come out exactly as URL would give it, and the rest goes to URL.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { requestTarget } from '../../src/sandbox/server.js';

function viaUrl(target: string): { path: string; query: [string, string][] } {
  const url = new URL(target, 'http://sandbox.invalid');
  return { path: url.pathname, query: [...url.searchParams] };
}

const char = fc.constantFrom(...'abce2XYZ019-._~/%?#&=+ :@!$\'()*,;"<>`{}|\\^é'.split(''));
const target = fc.array(char, { maxLength: 40 }).map((cs) => `/${cs.join('')}`);

describe('requestTarget', () => {
  it('agrees with URL on path and query for any target', () => {
    fc.assert(
      fc.property(target, (t) => {
        let expected: ReturnType<typeof viaUrl> | undefined;
        try {
          expected = viaUrl(t);
        } catch {
          expected = undefined;
        }
        if (!expected) return;
        const got = requestTarget(t);
        expect({ path: got.path, query: [...got.query] }).toEqual(expected);
      }),
      { numRuns: 20000 },
    );
  });

  it('splits a long hostile target in one pass (no backtracking blow-up)', () => {
    const hostile = `/${'a.'.repeat(20_000)}!`;
    expect(requestTarget(hostile).path).toBe(viaUrl(hostile).path);
    expect(requestTarget(`/${'a/'.repeat(20_000)}`).path).toBe(`/${'a/'.repeat(20_000)}`);
  });

  it.each([
    ['/pg/payments/PR0000000001/', '/pg/payments/PR0000000001/', []],
    ['/partners/merchants/?page=2&page_size=10', '/partners/merchants/', [['page', '2'], ['page_size', '10']]],
    ['/pg/../sandbox/reset/', '/sandbox/reset/', []],
    ['/pg/./a/.../b/..', '/pg/a/.../', []],
    ['/pg/payments/%50R1/', '/pg/payments/%50R1/', []],
    ['/a//b/?x=1#frag', '/a//b/', [['x', '1']]],
  ])('%s → %s', (t, path, query) => {
    const got = requestTarget(t);
    expect(got.path).toBe(path);
    expect([...got.query]).toEqual(query);
  });
});
