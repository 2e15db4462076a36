// Validation of a create-order body with the shared schema (the sandbox runs the same one), split
// into what is missing (a terminal can ask for it) and what is wrong (nothing to ask: exit 2).
import type * as z from 'zod';
import { apiMajor, orderCreateSchemaFor, validate, type Problem } from '../../api/schemas/index.js';
import { UsageError, ValidationError } from '../../errors.js';
import { setPath, type ApiMajor } from './body.js';
import type { JsonObject } from './read-json.js';
import { ORDER_FIELD_FLAGS } from './flags.js';

export type OrderSchema = z.ZodType;

/** Problems are listed in the order of the request's fields (and of the prompts), not zod's. */
const FIELD_ORDER = ['amount', 'currency', 'reference_id', 'return_url', 'collection_mode', 'mop_type', 'upi_flow_type', 'vpa', 'upi_app_name', 'buyer', 'product', 'invoice', 'card_details'];

function rank(path: string): number {
  const i = FIELD_ORDER.findIndex((f) => path === f || path.startsWith(`${f}.`));
  return i === -1 ? FIELD_ORDER.length : i;
}

/** Objects whose absence is reported field by field, so the list (or the prompts) name real fields. */
const CONTAINERS = ['buyer', 'buyer.address', 'product', 'invoice', 'card_details'];

export function majorOf(version: string): ApiMajor {
  const major = apiMajor(version);
  if (major === undefined) {
    throw new UsageError(`API version "${version}": order create knows 1.x.x, 2.x.x and 3.x.x`, {
      suggestion: 'pass --api-version 3.0.0 (or set it on the profile)',
    });
  }
  return major;
}

export function schemaFor(major: ApiMajor, now: () => Date): OrderSchema {
  return orderCreateSchemaFor(major, { now });
}

/** "required" and the conditional "required when ..." mean the field was not given at all. */
export function isMissing(p: Problem): boolean {
  return p.message === 'required' || p.message.startsWith('required when');
}

export function problemsOf(schema: OrderSchema, body: JsonObject): Problem[] {
  const r = validate(schema, body);
  return r.ok ? [] : r.problems;
}

/**
 * Every problem, with a missing object (buyer, product, ...) replaced by its missing fields.
 * `expandCard` also opens card_details (for the prompts); the plain list keeps it as one line.
 */
export function fullProblems(schema: OrderSchema, body: JsonObject, expandCard: boolean): Problem[] {
  const probe = structuredClone(body);
  for (let round = 0; round < CONTAINERS.length + 1; round++) {
    const problems = problemsOf(schema, probe);
    const open = problems.filter((p) => isMissing(p) && CONTAINERS.includes(p.path) && (expandCard || p.path !== 'card_details'));
    if (open.length === 0) return problems.sort((a, b) => rank(a.path) - rank(b.path));
    for (const p of open) setPath(probe, p.path, {});
  }
  return problemsOf(schema, probe).sort((a, b) => rank(a.path) - rank(b.path));
}

const HINT_FLAGS = 'give them with flags or --file (pgw order create --print-template prints a complete example)';

/** ValidationError (exit 2) with a next step: where the missing values can come from. */
class OrderValidationError extends ValidationError {
  override readonly suggestion?: string;
  constructor(problems: Problem[], suggestion: string | undefined) {
    super(problems, 'invalid order');
    this.suggestion = suggestion;
  }
}

/** The flag a body field came from (`--amount`), when a flag gave it. */
export function flagOf(path: string, fields: Record<string, string>): string | undefined {
  if (fields[path] === undefined) return undefined;
  return ORDER_FIELD_FLAGS.find((f) => f.path === path)?.flag.split(' ')[0];
}

/**
 * From flags alone, a missing field is named by the flag that gives it (`--address-line1`): that is
 * what the person adds next (issue 22 item 7). With a --file, by its path in the body, for the
 * file's author. A field without a flag (card details) keeps its path.
 */
function missingName(path: string, fromFile: boolean): string {
  const flag = ORDER_FIELD_FLAGS.find((f) => f.path === path)?.flag.split(' ')[0];
  return flag === undefined || fromFile ? path : flag;
}

/**
 * The exit-2 refusal: every problem at once (issue 21 item 12), wrong values and missing ones;
 * a wrong value by the flag that gave it (`--amount: must have at most 2 decimals`) or its field
 * path in --file, a missing one as missingName says, with a hint on where missing values can come
 * from.
 */
export function refusal(problems: Problem[], couldPrompt: boolean, fields: Record<string, string> = {}, fromFile = false): ValidationError {
  const shown = problems.map((p) => ({ path: isMissing(p) ? missingName(p.path, fromFile) : (flagOf(p.path, fields) ?? p.path), message: p.message }));
  const hints: string[] = [];
  if (problems.some(isMissing)) hints.push(couldPrompt ? HINT_FLAGS : `${HINT_FLAGS}, or run in a terminal without --no-input to be asked`);
  if (problems.some((p) => p.path === 'card_details' && isMissing(p))) {
    hints.push('card details: --card-file <card.json> (its shape: pgw order create --print-template --mode s2s --mop credit_card), or --card-file - with the JSON piped in');
  }
  return new OrderValidationError(shown, hints.length > 0 ? hints.join('; ') : undefined);
}
