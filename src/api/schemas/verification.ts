// The vocabulary of payment verification (vendor 11.2, 11.3; 11.10 P2) shared by the sandbox and
// pgw's commands: plain constants and one value check, no zod (a look-up loads none).
import { isPhone } from './limits.js';

/** vendor 11.2.1: the B2B services purpose codes (with business_model B2B). */
export const B2B_SERVICES_CODES = ['S0802', 'S0803', 'S1005', 'S1009', 'S1010', 'S1013', 'S1015', 'S1016', 'S1017', 'S1105', 'S1106'] as const;
/** vendor 11.2.1, 11.6: the LRS purpose codes (education S0305, S1107; travel S0303, S0304, S0306). */
export const LRS_CODES = ['S0305', 'S1107', 'S0303', 'S0304', 'S0306'] as const;

/** 11.10 P2: what simulate-verification may move a payment to. */
export const SIMULATED_STATES = ['ACTION_REQUIRED', 'UNDER_REVIEW', 'VERIFIED', 'ON_HOLD', 'EXPIRED', 'REJECTED', 'READY_FOR_SETTLEMENT'] as const;
export type SimulatedState = (typeof SIMULATED_STATES)[number];
/** 11.10 P2 / vendor 11.4.5: an LRS review's verdict. */
export const VERDICTS = ['APPROVED', 'REJECTED'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** vendor 11.2.3: every document type the upload takes (delivery_proof is for 11.5 only). */
export const VERIFICATION_DOCUMENT_TYPES = [
  'offer_letter',
  'passport',
  'student_id_or_visa',
  'student_id',
  'fee_invoice',
  'passenger_list',
  'traveller_passports',
  'traveller_visas',
  'ticket',
  'invoice',
  'relationship_declaration',
  'delivery_proof',
] as const;
/** vendor 11.2.3: the files taken, and at most 10 MB. */
export const VERIFICATION_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'docx', 'xlsx', 'csv'] as const;
export const VERIFICATION_MAX_BYTES = 10 * 1024 * 1024;

/** vendor 11.2.1, 11.6: every field code of the checklists (completion and pgw's checks). */
export const FIELD_CODES = [
  'business_model',
  'purpose_code',
  'buyer_name',
  'buyer_address_line_1',
  'buyer_city',
  'buyer_state',
  'buyer_postal_code',
  'buyer_email',
  'buyer_phone',
  'invoice_number',
  'invoice_date',
  'invoice_amount',
  'declaration',
  'remitter_pan',
  'remitter_dob',
  'remitter_relation',
  'buyer_declaration',
  'amount_to_be_settled',
  'student_name',
  'student_dob',
  'student_passport_number',
] as const;
/** Fields whose value is a boolean (vendor 11.2.2: `declaration` is a boolean). */
export const BOOLEAN_FIELDS: readonly string[] = ['declaration', 'buyer_declaration'];

/**
 * vendor 11.2.3 on one file, before pgw sends it and when the sandbox receives it: a name ending
 * in one of the extensions, not empty, at most 10 MB, and not a password-protected PDF (an
 * /Encrypt dictionary). The reason, or undefined when the file may go.
 */
export function verificationFileProblem(file: { filename: string; size: number; content?: Uint8Array }): string | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
  if (!(VERIFICATION_EXTENSIONS as readonly string[]).includes(ext)) return `must be a ${VERIFICATION_EXTENSIONS.join(', ')} file (by its name)`;
  if (file.size === 0) return 'The submitted file is empty.';
  if (file.size > VERIFICATION_MAX_BYTES) return `must be at most 10 MB (${VERIFICATION_MAX_BYTES} bytes); this one is ${file.size} bytes`;
  if (ext === 'pdf' && file.content && Buffer.from(file.content).includes('/Encrypt')) return 'is a password-protected PDF';
  return undefined;
}

const PIN = /^[1-9][0-9]{5}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL = /^[0-9]+(\.[0-9]{1,2})?$/;
const PAN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
/** A FEMA purpose code: S (payments out of India, the checklists' codes) or P (receipts), then 4 digits. */
export const PURPOSE_CODE = /^[A-Z][0-9]{4}$/;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * The value a field code holds once checked, or why it is refused (vendor 11.2.2: values string,
 * number or boolean; dates YYYY-MM-DD; amounts decimal strings; declarations boolean; the order's
 * own checks, e.g. a 6-digit Indian PIN and a phone with its country code, rule 4). Length limits
 * are not shown (11.9): 255 here. The sandbox refuses with these reasons; `pgw payment verify`
 * checks the same before it uploads anything (issue 42 item 3: an upload is immutable).
 * business_model and purpose_code: their form only (whether the code is enabled is the account's).
 */
export function checkFieldValue(code: string, value: unknown): { ok: true; value: string | boolean } | { ok: false; reason: string } {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return { ok: false, reason: 'Blank value; omit the key instead.' };
  if (code === 'declaration' || code === 'buyer_declaration') {
    return value === true ? { ok: true, value: true } : { ok: false, reason: 'Must be true (a boolean).' };
  }
  if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, reason: 'Must be a string or a number.' };
  const text = String(value).trim();
  if (text.length > 255) return { ok: false, reason: 'At most 255 characters.' };
  switch (code) {
    case 'buyer_postal_code':
      return PIN.test(text) ? { ok: true, value: text } : { ok: false, reason: 'Enter a valid Indian PIN code.' };
    case 'buyer_phone':
      return isPhone(text) ? { ok: true, value: text } : { ok: false, reason: 'Enter a valid phone number with its country code, e.g. +919876543210.' };
    case 'business_model':
      return text.toUpperCase() === 'B2B' || text.toUpperCase() === 'B2C' ? { ok: true, value: text.toUpperCase() } : { ok: false, reason: 'Must be B2B or B2C.' };
    case 'purpose_code':
      return PURPOSE_CODE.test(text.toUpperCase()) ? { ok: true, value: text.toUpperCase() } : { ok: false, reason: 'Must be a purpose code: a letter and 4 digits, e.g. S0802.' };
    case 'buyer_email':
      return EMAIL.test(text) ? { ok: true, value: text } : { ok: false, reason: 'Enter a valid email address.' };
    case 'invoice_date':
    case 'remitter_dob':
    case 'student_dob':
      return validDate(text) ? { ok: true, value: text } : { ok: false, reason: 'Enter a valid date (YYYY-MM-DD).' };
    case 'invoice_amount':
    case 'amount_to_be_settled':
      return typeof value === 'string' && DECIMAL.test(text) ? { ok: true, value: text } : { ok: false, reason: 'Must be a decimal string in rupees, e.g. "1000.00".' };
    case 'remitter_pan':
      return PAN.test(text.toUpperCase()) ? { ok: true, value: text.toUpperCase() } : { ok: false, reason: 'Enter a valid PAN (AAAAA9999A).' };
    default:
      return { ok: true, value: text };
  }
}

