// Shared pieces of the request schemas (used by the CLI before sending and by the sandbox on
// receipt, so the spec's rules live in one place) and the two helpers that turn a zod failure
// into field-path problems.
import * as z from 'zod';
import { Money, isAmountString } from '../../money.js';
import { isRealDate } from './dates.js';

export { isRealDate };

export interface Problem {
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; data: T } | { ok: false; problems: Problem[] };

const ARTICLE: Record<string, string> = { object: 'an object', array: 'an array', int: 'a whole number' };

/** Missing keys read "required"; wrong types "must be a string" rather than zod's wording. */
export const errorMap: z.core.$ZodErrorMap = (iss) => {
  if (iss.code !== 'invalid_type') return undefined;
  if (iss.input === undefined) return 'required';
  return `must be ${ARTICLE[iss.expected] ?? `a ${iss.expected}`}`;
};

/** A schema-level message that still says "required" when the field is missing. */
export function msg(text: string): (iss: { input?: unknown }) => string {
  return (iss) => (iss.input === undefined ? 'required' : text);
}

/** zod issues → `{path, message}` with dotted paths (`buyer.address.postal_code`, `company_details.hs_codes.1`). */
export function problemsFrom(error: z.ZodError | { issues: readonly z.core.$ZodIssue[] }): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((p) => String(p)).join('.');
    const key = `${path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message: issue.message });
  }
  return out;
}

export function validate<S extends z.ZodType>(schema: S, body: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(body, { error: errorMap });
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, problems: problemsFrom(result.error) };
}

/** Run a sub-schema from inside a refinement, re-reporting its issues relative to `path`. */
export function nestedIssues(schema: z.ZodType, value: unknown, path: PropertyKey[]): z.core.$ZodIssue[] {
  const r = schema.safeParse(value, { error: errorMap });
  if (r.success) return [];
  return r.error.issues.map((iss) => ({ ...iss, path: [...path, ...iss.path] }));
}

/** Run object-level refinements even when a field failed, so every problem is reported at once. */
export const always = { when: (p: { value: unknown }) => typeof p.value === 'object' && p.value !== null };

import { MAX_ORDER_AMOUNT } from './limits.js';
export { MAX_ORDER_AMOUNT } from './limits.js';

/** spec 2.1 / part 8: decimal string, at most 2 decimals, > 0 and <= 10,000,000.00. */
export const orderAmount = z
  .string()
  .refine(isAmountString, 'must be a decimal string with at most 2 decimals, e.g. "1500.00"')
  .refine((v) => !isAmountString(v) || new Money(v).gt(0), 'must be greater than 0')
  .refine((v) => !isAmountString(v) || new Money(v).lte(MAX_ORDER_AMOUNT), 'must be at most 10000000.00');

/** A positive 2-decimal amount (sandbox refund and chargeback bodies: the payment bounds them). */
export const positiveAmount = z
  .string()
  .refine(isAmountString, 'must be a decimal string with at most 2 decimals, e.g. "100.00"')
  .refine((v) => !isAmountString(v) || new Money(v).gt(0), 'must be greater than 0');

export const realDate = z.string().refine(isRealDate, 'must be a real date in the form YYYY-MM-DD');

/** spec 2.2 pan_number (Update Order): five letters, four digits, one letter. */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
export const panNumber = z.string().regex(PAN_PATTERN, 'must be a PAN: 5 capital letters, 4 digits, 1 capital letter (e.g. ABCDE1234F)');

/** http(s) address; HTTPS recommended by spec 2.1 but the sandbox runs on http://127.0.0.1. */
export const httpUrl = z.url({ protocol: /^https?$/, error: msg('must be an http:// or https:// address') });

export function maxLen(n: number): z.ZodString {
  return z.string().max(n, `must be at most ${n} characters`);
}

export function requiredText(n: number): z.ZodString {
  return z.string().trim().min(1, 'must not be empty').max(n, `must be at most ${n} characters`);
}

// In a file of its own so the sandbox can read the header without loading zod.
export { apiMajor } from './version.js';
