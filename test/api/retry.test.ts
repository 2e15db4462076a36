import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter, retryDelay, shouldRetry, type AttemptOutcome } from '../../src/api/retry.js';
import type { HttpMethod } from '../../src/api/types.js';

const policy = DEFAULT_RETRY_POLICY;

describe('shouldRetry', () => {
  const table: [HttpMethod, AttemptOutcome, number, boolean][] = [
    ['GET', { status: 429 }, 0, true],
    ['GET', { status: 502 }, 0, true],
    ['GET', { status: 503 }, 2, true],
    ['GET', { status: 504 }, 0, true],
    ['GET', { status: 503 }, 3, false], // at most 3 retries
    ['GET', { status: 500 }, 0, false],
    ['GET', { status: 501 }, 0, false],
    ['GET', { status: 400 }, 0, false],
    ['GET', { status: 401 }, 0, false],
    ['GET', { status: 404 }, 0, false],
    ['GET', { status: 200 }, 0, false],
    ['GET', { failure: 'connection' }, 0, true],
    ['GET', { failure: 'connection' }, 3, false],
    ['GET', { failure: 'timeout' }, 0, false],
    ['GET', { failure: 'other' }, 0, false],
    ['POST', { status: 502 }, 0, false],
    ['POST', { status: 503 }, 0, false],
    ['POST', { status: 429 }, 0, false],
    ['POST', { failure: 'connection' }, 0, false],
    ['PATCH', { status: 503 }, 0, false],
    ['PATCH', { failure: 'connection' }, 0, false],
    ['PUT', { status: 503 }, 0, false],
    ['DELETE', { status: 503 }, 0, false],
  ];
  it.each(table)('%s %j after %i retries → %s', (method, outcome, done, expected) => {
    expect(shouldRetry(method, outcome, done, policy)).toBe(expected);
  });

  it('follows a smaller maxRetries', () => {
    expect(shouldRetry('GET', { status: 503 }, 1, { ...policy, maxRetries: 1 })).toBe(false);
    expect(shouldRetry('GET', { status: 503 }, 0, { ...policy, maxRetries: 0 })).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['2', 2000],
    [' 10 ', 10_000],
    ['0', 0],
    ['Wed, 01 Jan 2025 00:00:05 GMT', 5000],
    ['Tue, 31 Dec 2024 23:59:00 GMT', 0], // in the past
    ['', undefined],
    ['soon', undefined],
    ['1.5', undefined],
    ['-3', undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('backoffDelay', () => {
  it.each([
    [1, 0, 250],
    [1, 0.999999, 500],
    [2, 0, 500],
    [3, 1, 2000],
    [10, 1, 8000], // capped at maxDelayMs
  ])('retry %i with random %d → %i ms', (retry, r, expected) => {
    expect(backoffDelay(retry, policy, () => r)).toBe(expected);
  });

  it('stays between 50% and 100% of the step whatever random gives', () => {
    for (const r of [-1, 0, 0.3, 0.7, 1, 2, Number.NaN]) {
      const d = backoffDelay(2, policy, () => r);
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(1000);
    }
  });
});

describe('retryDelay', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('honours Retry-After over backoff', () => {
    expect(retryDelay(1, '3', policy, () => 0, now)).toBe(3000);
  });
  it('caps Retry-After at maxRetryAfterMs', () => {
    expect(retryDelay(1, '3600', policy, () => 0, now)).toBe(10_000);
    expect(retryDelay(1, '3600', { ...policy, maxRetryAfterMs: 1500 }, () => 0, now)).toBe(1500);
    expect(retryDelay(1, 'Wed, 01 Jan 2025 01:00:00 GMT', policy, () => 0, now)).toBe(10_000);
  });
  it('falls back to backoff when Retry-After is absent or unreadable', () => {
    expect(retryDelay(2, undefined, policy, () => 1, now)).toBe(1000);
    expect(retryDelay(2, 'later', policy, () => 1, now)).toBe(1000);
  });
});
