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

/**
 * A schema for bodies validated by the thousand (the sandbox's create order, issue 23: validation
 * was about a quarter of a create's CPU in `sandbox serve`), built twice from one definition.
 * `report` is the schema as written: its refinements marked `always` run even after a field
 * failed, so an invalid body hears of every problem at once. Once it has proved hot, a second
 * build is compiled by zod (z.compile, zod.dev/compile: the same values and issues, several times
 * faster) and answers every valid body; anything it refuses goes to `report`.
 *
 * z.compile takes no `when` condition, so the compiled build is made without them: on a valid
 * body no field failed and every refinement runs in both, so both give the same value.
 * Compiling costs ~15 ms, what several hundred validations in a busy server save: a command that
 * validates one body (`pgw order create` on the embedded sandbox) never pays it.
 */
export class Checked<T> {
  /** Bodies validated before the compiled build is made. */
  static readonly COMPILE_AFTER = 100;
  private validated = 0;
  private compiled: z.ZodType<T> | null | undefined;
  readonly report: z.ZodType<T>;

  constructor(private readonly define: (when: ReportAll) => z.ZodType<T>) {
    this.report = define(always);
  }

  /**
   * The compiled build, once hot: undefined before, and if zod refused it (it does not refuse
   * create order: test/robust/checked-order-create.test.ts).
   */
  fast(): z.ZodType<T> | undefined {
    if (this.compiled === undefined && ++this.validated > Checked.COMPILE_AFTER) this.compiled = compileWhole(this.define);
    return this.compiled ?? undefined;
  }
}

/** `define` compiled whole (strict: a part zod cannot compile refuses it all, never slows it in silence); null if refused. */
function compileWhole<T>(define: (when: ReportAll) => z.ZodType<T>): z.ZodType<T> | null {
  try {
    return z.compile(define(undefined), { strict: true });
  } catch {
    return null;
  }
}

/** `always`, or nothing in the compiled build of a `Checked` schema. */
export type ReportAll = typeof always | undefined;

export function validate<T>(schema: Checked<T>, body: unknown): Validated<T>;
export function validate<S extends z.ZodType>(schema: S, body: unknown): Validated<z.output<S>>;
export function validate(schema: z.ZodType | Checked<unknown>, body: unknown): Validated<unknown>;
export function validate(schema: z.ZodType | Checked<unknown>, body: unknown): Validated<unknown> {
  if (schema instanceof Checked) {
    const fast = schema.fast()?.safeParse(body);
    if (fast?.success) return { ok: true, data: fast.data };
    schema = schema.report;
  }
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
