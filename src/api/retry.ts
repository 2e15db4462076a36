// When a request may be sent again, and after how long. Pure functions, tested by tables
// (after stripe-node RequestSender._shouldRetry and octokit plugin-retry).
//
// Rules (cli-contract.md, safety rails):
// - Only GET is retried. POST and PATCH are never retried once they may have reached the gateway,
//   and we cannot prove a request did not (a connection can fail after the body was written), so
//   no non-GET request is retried at all. PUT and DELETE follow the same rule: the raw `pgw api`
//   command cannot know what they do on this gateway.
// - GET is retried on connection failures (refused, reset, closed mid-body, DNS) and on 429, 502,
//   503 and 504, at most `maxRetries` times.
// - A timeout is not retried: --timeout is the time the user agreed to wait, and a gateway that did
//   not answer in that time would multiply it by four.
// - Retry-After (seconds or an HTTP date) is honoured, capped at maxRetryAfterMs so a gateway cannot
//   park the CLI for minutes; otherwise exponential backoff with jitter spreads retries out.
import type { HttpMethod, RetryPolicy } from './types.js';

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 10_000,
};

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** How an attempt failed before an HTTP answer was complete. */
export type FailureKind = 'connection' | 'timeout' | 'other';

/** One attempt's outcome: an HTTP status, or a failure without one. */
export interface AttemptOutcome {
  status?: number;
  failure?: FailureKind;
}

/**
 * Whether to send again after `retriesDone` retries (0 after the first attempt).
 */
export function shouldRetry(method: HttpMethod, outcome: AttemptOutcome, retriesDone: number, policy: RetryPolicy): boolean {
  if (method !== 'GET') return false;
  if (retriesDone >= policy.maxRetries) return false;
  if (outcome.failure !== undefined) return outcome.failure === 'connection';
  return outcome.status !== undefined && RETRYABLE_STATUSES.has(outcome.status);
}

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when
 * absent or unreadable. A date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number.parseInt(trimmed, 10) * 1000;
  // Only an HTTP date (it names a weekday or month); Date.parse would accept "1.5" and the like.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Exponential backoff for the n-th retry (1-based), with jitter between 50% and 100% of the step
 * so that many clients failing together do not come back together.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step * (0.5 + 0.5 * clamp01(random())));
}

/** The wait before the n-th retry: Retry-After when the gateway sent one (capped), else backoff. */
export function retryDelay(
  retry: number,
  retryAfter: string | undefined,
  policy: RetryPolicy,
  random: () => number,
  now: number,
): number {
  const asked = parseRetryAfter(retryAfter, now);
  if (asked !== undefined) return Math.min(asked, policy.maxRetryAfterMs);
  return backoffDelay(retry, policy, random);
}

function clamp01(n: number): number {
  if (!Number.isFinite(n) || n < 0) return 0;
  return n >= 1 ? 1 : n;
}
