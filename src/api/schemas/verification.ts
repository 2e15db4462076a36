// The vocabulary of payment verification (vendor 11.2, 11.3; 11.10 P2) shared by the sandbox and
// pgw's commands: plain constants, no zod (a look-up loads none).

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
