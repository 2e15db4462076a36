// Whole-body checks before anything is sent: the shared create/update schemas (spec 2.10, 4.9,
// 4.10) plus unknown keys. zod drops keys it does not know, so a misspelt `webiste` would vanish
// silently: it is refused here instead, with a "did you mean".
import { merchantContactSchema, merchantCreateSchema, merchantUpdateSchema, type MerchantCreate, type MerchantUpdate } from '../../api/schemas/merchants.js';
import { validate, type Problem, type Validated } from '../../api/schemas/common.js';
import { ValidationError } from '../../errors.js';
import { CONTACT_KEYS, fieldAt, isContactPath, suggestField, swiftCheck, type MerchantObject } from './fields.js';

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
      if (fieldAt(`${top}.${key}`) || isContactPath(`${top}.${key}`)) continue;
      const near = suggestField(top, key);
      problems.push({ path: `${top}.${key}`, message: `unknown field${near ? ` (did you mean ${near}?)` : ''}` });
    }
  }
  return problems;
}

/** The contact fields of company_details, checked by their own schema; the values to send. */
function contactOf(body: Record<string, unknown>): Validated<Record<string, string>> {
  const company = body.company_details;
  if (!isObject(company)) return { ok: true, data: {} };
  const present = Object.fromEntries(CONTACT_KEYS.filter((k) => company[k] !== undefined).map((k) => [k, company[k]]));
  const r = validate(merchantContactSchema, present);
  if (!r.ok) return { ok: false, problems: r.problems.map((p) => ({ ...p, path: `company_details.${p.path}` })) };
  return { ok: true, data: Object.fromEntries(Object.entries(r.data).filter(([, v]) => v !== undefined)) as Record<string, string> };
}

const SWIFT_PATH = 'settlement_details.bank_swift_code';

/**
 * The guided flow's SWIFT/BIC rule (fields.ts swiftCheck), for a value the schema let through
 * (one it refuses already has its problem): a file and --set hold the same rule as the prompt.
 */
function swiftProblems(body: Record<string, unknown>, schemaProblems: Problem[]): Problem[] {
  const settlement = body.settlement_details;
  if (!isObject(settlement) || typeof settlement.bank_swift_code !== 'string') return [];
  if (schemaProblems.some((p) => p.path === SWIFT_PATH)) return [];
  const verdict = swiftCheck(settlement.bank_swift_code);
  return verdict === true ? [] : [{ path: SWIFT_PATH, message: verdict }];
}

/** The SWIFT/BIC as the guided flow sends it: trimmed, in capitals. */
function normaliseSwift(data: Record<string, unknown>): void {
  const settlement = data.settlement_details;
  if (isObject(settlement) && typeof settlement.bank_swift_code === 'string') {
    data.settlement_details = { ...settlement, bank_swift_code: settlement.bank_swift_code.trim().toUpperCase() };
  }
}

/** `withContact`: the schema leaves the contact out (create), so it is checked and added here. */
function check<T>(schema: Parameters<typeof validate>[0], body: Record<string, unknown>, withContact: boolean): Validated<T> {
  const unknown = unknownKeyProblems(body);
  const result = validate(schema, body) as Validated<T>;
  const contact: Validated<Record<string, string>> = withContact ? contactOf(body) : { ok: true, data: {} };
  const schemaProblems = result.ok ? [] : result.problems;
  const problems = [...unknown, ...schemaProblems, ...swiftProblems(body, schemaProblems), ...(contact.ok ? [] : contact.problems)];
  if (problems.length > 0 || !result.ok || !contact.ok) return { ok: false, problems };
  const data = { ...(result.data as Record<string, unknown>) };
  normaliseSwift(data);
  if (Object.keys(contact.data).length === 0) return { ok: true, data: data as T };
  // The main schema strips keys it does not know: the checked contact goes back in beside them.
  return { ok: true, data: { ...data, company_details: { ...(data.company_details as object | undefined), ...contact.data } } as T };
}

/** spec 4.9: the create body, every problem at once. */
export function checkCreate(body: unknown): Validated<MerchantCreate> {
  if (!isObject(body)) return { ok: false, problems: [{ path: '', message: 'must be a JSON object with company_details and settlement_details' }] };
  return check<MerchantCreate>(merchantCreateSchema, body, true);
}

/** spec 4.10: only the fields to change, at least one. */
export function checkUpdate(body: unknown): Validated<MerchantUpdate> {
  if (!isObject(body)) return { ok: false, problems: [{ path: '', message: 'must be a JSON object with company_details and/or settlement_details' }] };
  // The update schema has the contact in it (src/api/schemas/merchants.ts).
  return check<MerchantUpdate>(merchantUpdateSchema, body, false);
}

/** Exit 2 with every problem and its field path; nothing is sent. */
export function requireValid<T>(result: Validated<T>, heading: string): T {
  if (result.ok) return result.data;
  throw new ValidationError(result.problems, heading);
}
