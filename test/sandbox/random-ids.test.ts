// Random tokens drawn from a pooled CSPRNG buffer (src/sandbox/ids.ts, issue 23): every token is
// fresh, across the pool's refills too, and a request larger than the pool still works.
import { describe, expect, it } from 'vitest';
import { newHex, newToken } from '../../src/sandbox/ids.js';

describe('pooled random tokens', () => {
  it('hand out each byte once: thousands of tokens across many refills are all distinct', () => {
    // 3,000 × 16 bytes is ~12 refills of the 4 KiB pool; odd sizes make slices straddle its end.
    const tokens = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? newHex(16) : i % 3 === 1 ? newHex(24) : newToken(13)));
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(newHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(newHex(24)).toMatch(/^[0-9a-f]{48}$/);
    expect(newToken(24)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('a token longer than the pool comes straight from the CSPRNG', () => {
    const big = newHex(5000);
    expect(big).toMatch(/^[0-9a-f]{10000}$/);
    expect(big).not.toMatch(/^0+$/);
  });

  it('no two consecutive tokens share their bytes (a slice is never handed out twice)', () => {
    for (let i = 0; i < 600; i++) expect(newHex(16)).not.toBe(newHex(16));
  });
});
