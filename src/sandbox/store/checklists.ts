// The verification checklists (vendor 11.2.1, 11.6; 11.10 P1): which fields and documents a
// payment owes, chosen by its order's (business_model, purpose_code). Pure data and the checks
// of one value; the store (verification-submit.ts) keeps what was sent.

export type Flow = 'unclassified' | 'b2b_services' | 'lrs';

export interface ChecklistItem {
  code: string;
  message: string;
  optional?: true;
  condition?: 'PAYING_FOR_SOMEONE_ELSE' | 'PHYSICAL_GOODS_ONLY';
  waivable?: true;
}

export interface Checklist {
  flow: Flow;
  fields: ChecklistItem[];
  documents: ChecklistItem[];
}

// vendor 11.2.1, 11.6: the purpose codes the checklists cover (shared with the CLI: pgw sandbox purpose-codes).
import { B2B_SERVICES_CODES, LRS_CODES } from '../../api/schemas/verification.js';
export { B2B_SERVICES_CODES, LRS_CODES };
/** 11.10 P4: what a sandbox account starts enabled for. */
export const ENABLED_PURPOSE_CODES: readonly string[] = [...B2B_SERVICES_CODES, ...LRS_CODES];
export const BUSINESS_MODELS = ['B2B', 'B2C'] as const;

/** vendor 11.2.2 rule 2: what an unclassified payment asks for, and only that. */
export const UNCLASSIFIED: Checklist = {
  flow: 'unclassified',
  fields: [
    { code: 'business_model', message: 'Business model (B2B or B2C)' },
    { code: 'purpose_code', message: 'Purpose code of the payment' },
  ],
  documents: [],
};

const BUYER_FIELDS: ChecklistItem[] = [
  { code: 'buyer_name', message: 'Buyer name' },
  { code: 'buyer_address_line_1', message: 'Buyer address' },
  { code: 'buyer_city', message: 'Buyer city' },
  { code: 'buyer_state', message: 'Buyer state' },
  { code: 'buyer_postal_code', message: 'Buyer postal code' },
  { code: 'buyer_email', message: 'Buyer email' },
  { code: 'buyer_phone', message: 'Buyer phone' },
  { code: 'invoice_number', message: 'Invoice number' },
  { code: 'invoice_date', message: 'Invoice date' },
];

/** vendor 11.2.1 (openapi/v3-b2b.json 476eba94): 11 fields and the invoice; nothing optional or waivable. */
export const B2B_SERVICES: Checklist = {
  flow: 'b2b_services',
  fields: [...BUYER_FIELDS, { code: 'invoice_amount', message: 'Invoice amount (INR)' }, { code: 'declaration', message: 'Declaration that the details are true' }],
  documents: [{ code: 'invoice', message: 'Invoice' }],
};

const LRS_FIELDS: ChecklistItem[] = [
  ...BUYER_FIELDS,
  { code: 'remitter_pan', message: 'Remitter PAN' },
  { code: 'remitter_dob', message: 'Remitter date of birth' },
  { code: 'remitter_relation', message: 'Remitter relation to the student or traveller' },
  { code: 'buyer_declaration', message: 'Buyer declaration' },
  { code: 'amount_to_be_settled', message: 'Amount to be settled (INR)' },
  { code: 'student_name', message: 'Student name', condition: 'PAYING_FOR_SOMEONE_ELSE' },
  { code: 'student_dob', message: 'Student date of birth', condition: 'PAYING_FOR_SOMEONE_ELSE' },
  { code: 'student_passport_number', message: 'Student passport number', condition: 'PAYING_FOR_SOMEONE_ELSE' },
];

/** vendor 11.6: the LRS documents per purpose code. */
const LRS_DOCUMENTS: Record<string, ChecklistItem[]> = {
  S0305: [
    { code: 'offer_letter', message: 'Offer letter' },
    { code: 'passport', message: 'Passport' },
    { code: 'student_id_or_visa', message: 'Student ID or visa' },
    { code: 'fee_invoice', message: 'Fee invoice', optional: true },
    { code: 'relationship_declaration', message: 'Relationship declaration', condition: 'PAYING_FOR_SOMEONE_ELSE' },
  ],
  S1107: [
    { code: 'offer_letter', message: 'Offer letter' },
    { code: 'student_id', message: 'Student ID' },
  ],
  travel: [
    { code: 'passenger_list', message: 'Passenger list' },
    { code: 'traveller_passports', message: 'Traveller passports' },
    { code: 'traveller_visas', message: 'Traveller visas', waivable: true },
    { code: 'ticket', message: 'Ticket', waivable: true },
    { code: 'invoice', message: 'Invoice' },
  ],
};

/** The checklist of (business_model, purpose_code); null: none covers it (40359, vendor 11.2.1). */
export function checklistFor(businessModel: string | null, purposeCode: string | null): Checklist | null {
  if (businessModel === null || purposeCode === null) return UNCLASSIFIED;
  if ((LRS_CODES as readonly string[]).includes(purposeCode)) {
    return { flow: 'lrs', fields: LRS_FIELDS, documents: LRS_DOCUMENTS[purposeCode] ?? LRS_DOCUMENTS.travel! };
  }
  if (businessModel === 'B2B' && (B2B_SERVICES_CODES as readonly string[]).includes(purposeCode)) return B2B_SERVICES;
  return null;
}

/** vendor 11.2.2: the 40359 message names the flow. */
export function invalidMessage(flow: Flow): string {
  return flow === 'lrs' ? 'Invalid LRS request.' : flow === 'b2b_services' ? 'Invalid B2B services request.' : 'Invalid verification request.';
}


// One check of one value, shared with `pgw payment verify` (checked before any upload, issue 42).
export { checkFieldValue } from '../../api/schemas/verification.js';

/** 11.10 P4: the codes `merchantId` may use now: the defaults less those disabled for it. */
export function enabledPurposeCodes(disabledJson: string | null | undefined): string[] {
  const off = disabledJson ? (JSON.parse(disabledJson) as string[]) : [];
  return ENABLED_PURPOSE_CODES.filter((c) => !off.includes(c));
}
