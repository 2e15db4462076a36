// The sub-merchant fields (spec 2.10) as the CLI sees them: label, prompt section and value kind
// over the shared zod field schemas, so the prompt flow, `--set` and the file checks apply the
// same rules as the sandbox (src/api/schemas/merchants.ts) and never a second copy of them.
import type * as z from 'zod';
import { companyDetailsShape, merchantContactSchema, settlementDetailsShape } from '../../api/schemas/merchants.js';
import { validate } from '../../api/schemas/common.js';
import { editDistance } from '../nearest.js';

export type MerchantObject = 'company_details' | 'settlement_details';
export type FieldKind = 'text' | 'boolean' | 'list';
export type Section = 'company' | 'registered' | 'communication' | 'business' | 'bank';

export interface Field {
  object: MerchantObject;
  key: string;
  /** `company_details.website`: what --set takes and problems name. */
  path: string;
  label: string;
  section: Section;
  kind: FieldKind;
  required: boolean;
  schema: z.ZodType;
}

type Meta = [label: string, section: Section, kind?: FieldKind];

// Typed by the shapes' keys: a field added to the schema without a label here fails to compile.
const COMPANY: Record<keyof typeof companyDetailsShape, Meta> = {
  legal_name: ['Legal name', 'company'],
  brand_name: ['Brand name', 'company'],
  registration_number: ['Registration number', 'company'],
  international_org_type: ['Organisation type (e.g. PRIVATE_LIMITED)', 'company'],
  tax_id: ['Tax ID', 'company'],
  website: ['Website (https://...)', 'company'],
  registered_address: ['Registered address', 'registered'],
  registered_city: ['Registered city', 'registered'],
  registered_state: ['Registered state', 'registered'],
  registered_country: ['Registered country', 'registered'],
  registered_pincode: ['Registered postal code', 'registered'],
  same_as_registered_address: ['Communication address same as registered', 'registered', 'boolean'],
  communication_address: ['Communication address', 'communication'],
  communication_city: ['Communication city', 'communication'],
  communication_state: ['Communication state', 'communication'],
  communication_country: ['Communication country', 'communication'],
  communication_pincode: ['Communication postal code', 'communication'],
  monthly_avg_transaction_value: ['Monthly average transaction value (optional, e.g. 250000.00)', 'business'],
  monthly_avg_transaction_volume: ['Monthly average transaction volume (e.g. 1200)', 'business'],
  business_category: ['Business category (e.g. TECHNOLOGY)', 'business'],
  business_mode: ['Business mode (e.g. B2B)', 'business'],
  payment_terms: ['Payment terms (e.g. NET_30)', 'business'],
  commodity: ['Commodity', 'business'],
  category: ['Category', 'business'],
  hs_codes: ['HS codes (8 digits each, comma separated)', 'business', 'list'],
  description_of_products_and_services: ['Description of products and services', 'business'],
  agreement_details: ['Agreement details', 'business'],
  purpose_code: ['Purpose code (P or S + 4 digits, e.g. S0802)', 'business'],
};

const SETTLEMENT: Record<keyof typeof settlementDetailsShape, Meta> = {
  bank_account_name: ['Bank account name', 'bank'],
  bank_account_number: ['Bank account number', 'bank'],
  bank_name: ['Bank name', 'bank'],
  bank_swift_code: ['SWIFT/BIC code', 'bank'],
  bank_branch_name: ['Branch name', 'bank'],
  bank_address: ['Bank address', 'bank'],
  bank_city: ['Bank city', 'bank'],
  bank_state: ['Bank state', 'bank'],
  bank_country: ['Bank country', 'bank'],
  bank_pincode: ['Bank postal code', 'bank'],
  routing_number: ['Routing number', 'bank'],
  settlement_currency: ['Settlement currency (e.g. USD; default from the bank country)', 'bank'],
};

function build(object: MerchantObject, meta: Record<string, Meta>, shape: Record<string, z.ZodType>): Field[] {
  return Object.entries(meta).map(([key, [label, section, kind = 'text']]) => {
    const schema = shape[key]!;
    return { object, key, path: `${object}.${key}`, label, section, kind, schema, required: !schema.safeParse(undefined).success };
  });
}

/** Every field, in the order the guided flow asks them. */
export const FIELDS: readonly Field[] = [
  ...build('company_details', COMPANY, companyDetailsShape as Record<string, z.ZodType>),
  ...build('settlement_details', SETTLEMENT, settlementDetailsShape as Record<string, z.ZodType>),
];

const BY_PATH = new Map(FIELDS.map((f) => [f.path, f]));

/**
 * vendor 7.1 / C14: company_details.email and phone_number, optional. They have their own schema
 * (merchantContactSchema), not a place in companyDetailsShape and FIELDS, which drive the guided
 * prompts too (adding them there once broke the guided flow): a file or --set may carry them,
 * the guided flow does not ask them. validate.ts checks and keeps them.
 */
export const CONTACT_KEYS: readonly string[] = Object.keys(merchantContactSchema.shape);

export const isContactPath = (path: string): boolean =>
  path.startsWith('company_details.') && CONTACT_KEYS.includes(path.slice('company_details.'.length));

export function fieldAt(path: string): Field | undefined {
  return BY_PATH.get(path);
}

export function fieldsOf(object: MerchantObject): Field[] {
  return FIELDS.filter((f) => f.object === object);
}

/**
 * Text as typed (a prompt answer, a --set value) → the value sent. Booleans take true/false/yes/no;
 * lists a JSON array or a comma list. An error is the message of a problem at the field's path.
 */
export function parseFieldText(field: Field, raw: string): { value: unknown } | { error: string } {
  const text = raw.trim();
  if (field.kind === 'boolean') {
    if (/^(true|yes|y)$/i.test(text)) return { value: true };
    if (/^(false|no|n)$/i.test(text)) return { value: false };
    return { error: `must be true or false, not "${raw}"` };
  }
  if (field.kind === 'list') {
    if (text.startsWith('[')) {
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { error: 'must be a JSON array or a comma-separated list' };
      }
    }
    return { value: text.split(',').map((s) => s.trim()).filter((s) => s !== '') };
  }
  return { value: raw };
}

/** The field's own rule, as one line (problems inside a list are named by position, 1-based). */
export function checkFieldValue(field: Field, value: unknown): true | string {
  const result = validate(field.schema, value);
  if (result.ok) return true;
  return result.problems
    .map((p) => (p.path === '' ? p.message : `item ${Number(p.path.split('.')[0]) + 1}: ${p.message}`))
    .join('; ');
}

/** The closest known field name, for "did you mean" (a small edit distance, or a shared prefix). */
export function suggestField(object: string, key: string): string | undefined {
  // company_details' contact fields (email, phone_number) are known names too.
  const candidates = [...FIELDS.filter((f) => f.object === object).map((f) => f.key), ...(object === 'company_details' ? CONTACT_KEYS : [])];
  let best: { key: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(key.toLowerCase(), c);
    if (!best || d < best.d) best = { key: c, d };
  }
  return best && best.d <= Math.max(2, Math.floor(key.length / 4)) ? best.key : undefined;
}


/**
 * SWIFT/BIC (ISO 9362): bank (4 letters), country (2 letters), location (2), and an optional
 * branch (3): 8 or 11 characters. The CLI's rule wherever a person gives one: the guided prompt,
 * a --file (one merchant or a batch, issue 33 item 1) and --set. The shared schema keeps a looser
 * rule (free text up to 34) because the sandbox must accept what the vendor's own client sends
 * (beyond 5.2: a 13-character code); pgw itself never sends one that is not a SWIFT/BIC.
 * Case and surrounding spaces do not matter: the code is sent trimmed and in capitals.
 */
const SWIFT = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
export function swiftCheck(text: string): true | string {
  const code = text.trim().toUpperCase();
  if (code === '') return 'is empty: give the 8- or 11-character SWIFT/BIC code, or leave the field out';
  if (code.length !== 8 && code.length !== 11) return `a SWIFT/BIC code is 8 or 11 characters (this one has ${code.length})`;
  return SWIFT.test(code) ? true : 'a SWIFT/BIC code is 4 letters (bank), 2 letters (country), 2 letters or digits (location), and optionally 3 more (branch)';
}
