// The vocabulary of payment verification (vendor 11.2, 11.3; 11.10 P2) shared by the sandbox and
// pgw's commands: plain constants, no zod (a look-up loads none).

/** 11.10 P2: what simulate-verification may move a payment to. */
export const SIMULATED_STATES = ['ACTION_REQUIRED', 'UNDER_REVIEW', 'VERIFIED', 'ON_HOLD', 'EXPIRED', 'REJECTED', 'READY_FOR_SETTLEMENT'] as const;
export type SimulatedState = (typeof SIMULATED_STATES)[number];
/** 11.10 P2 / vendor 11.4.5: an LRS review's verdict. */
export const VERDICTS = ['APPROVED', 'REJECTED'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** vendor 11.2.3: every document type the upload takes (delivery_proof is for 11.5 only). */
export const DOCUMENT_TYPES = [
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
export const DOCUMENT_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'docx', 'xlsx', 'csv'] as const;
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

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
