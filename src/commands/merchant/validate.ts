// Whole-body checks before anything is sent: the shared create/update schemas (spec 2.10, 4.9,
// 4.10) plus unknown keys. zod drops keys it does not know, so a misspelt `webiste` would vanish
// silently: it is refused here instead, with a "did you mean".
import { merchantCreateSchema, merchantUpdateSchema, type MerchantCreate, type MerchantUpdate } from '../../api/schemas/merchants.js';
import { validate, type Problem, type Validated } from '../../api/schemas/common.js';
import { ValidationError } from '../../errors.js';
import { fieldAt, suggestField, type MerchantObject } from './fields.js';

const OBJECTS: readonly MerchantObject[] = ['company_details', 'settlement_details'];

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function unknownKeyProblems(body: unknown): Problem[] {
  if (!isObject(body)) return [];
  const problems: Problem[] = [];
  for (const [top, value] of Object.entries(body)) {
    if (!(OBJECTS as readonly string[]).includes(top)) {
      problems.push({ path: top, message: 'unknown field: a body has company_details and settlement_details only' });
      continue;
    }
    if (!isObject(value)) continue; // the schema says "must be an object"
    for (const key of Object.keys(value)) {
      if (fieldAt(`${top}.${key}`)) continue;
      const near = suggestField(top, key);
      problems.push({ path: `${top}.${key}`, message: `unknown field${near ? ` (did you mean ${near}?)` : ''}` });
    }
  }
  return problems;
}

function check<T>(schema: Parameters<typeof validate>[0], body: unknown): Validated<T> {
  const unknown = unknownKeyProblems(body);
  const result = validate(schema, body) as Validated<T>;
  if (unknown.length === 0) return result;
  return { ok: false, problems: [...unknown, ...(result.ok ? [] : result.problems)] };
}

/** spec 4.9: the create body, every problem at once. */
export function checkCreate(body: unknown): Validated<MerchantCreate> {
  if (!isObject(body)) return { ok: false, problems: [{ path: '', message: 'must be a JSON object with company_details and settlement_details' }] };
  return check<MerchantCreate>(merchantCreateSchema, body);
}

/** spec 4.10: only the fields to change, at least one. */
export function checkUpdate(body: unknown): Validated<MerchantUpdate> {
  if (!isObject(body)) return { ok: false, problems: [{ path: '', message: 'must be a JSON object with company_details and/or settlement_details' }] };
  return check<MerchantUpdate>(merchantUpdateSchema, body);
}

/** Exit 2 with every problem and its field path; nothing is sent. */
export function requireValid<T>(result: Validated<T>, heading: string): T {
  if (result.ok) return result.data;
  throw new ValidationError(result.problems, heading);
}
