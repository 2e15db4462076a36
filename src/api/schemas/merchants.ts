// Sub-merchant create and update bodies (spec 2.10, 4.9, 4.10). The spec shows the field names but
// not their bounds ("not shown"); the checks here are the ones it states or implies (8-digit HS
// codes, purpose code P or S + 4 digits, decimal and numeric strings) plus generous lengths, so the CLI
// never refuses a body the gateway would plausibly accept.
import * as z from 'zod';
import { always, httpUrl, maxLen, nestedIssues, msg, requiredText } from './common.js';

const text = requiredText(255);
const optText = maxLen(255).optional();
// Sub-merchants are international (beyond 5.2: the vendor's client sends US ZIP codes, country
// names, 13-character SWIFT codes): postal codes, SWIFT and routing numbers are free text of sane
// length, not Indian formats.
const pincode = requiredText(16);
const optPincode = maxLen(16).optional();

export const settlementDetailsShape = {
  bank_account_number: z.string().regex(/^[A-Za-z0-9]{4,34}$/, 'must be 4-34 letters or digits').meta({ examples: ['50100123456789'] }),
  bank_account_name: text,
  bank_swift_code: maxLen(34).optional(),
  bank_name: text,
  bank_branch_name: optText,
  bank_address: maxLen(1024).optional(),
  bank_city: optText,
  bank_state: optText,
  bank_country: text,
  bank_pincode: optPincode,
  routing_number: maxLen(64).optional(),
  // Only in the create response (spec 2.10); accepted when a client sends it (beyond 8: the other
  // create sends it), otherwise derived from bank_country.
  settlement_currency: z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code, e.g. USD').optional(),
};

const ADDRESS_FIELDS = ['address', 'city', 'state', 'country', 'pincode'] as const;

export const companyDetailsShape = {
  legal_name: text,
  brand_name: text,
  registration_number: text,
  international_org_type: text,
  tax_id: text,
  website: httpUrl,
  // Optional: the vendor's client never sends it (beyond 5.2), and the spec does not say it is required.
  monthly_avg_transaction_value: z.string().regex(/^[0-9]+(\.[0-9]{1,2})?$/, 'must be a decimal string, e.g. "250000.00"').optional(),
  // spec 2.10 shows a numeric string; vendor 7.1 a band (LESS_THAN_5_K … ABOVE_500_K): both (C14).
  monthly_avg_transaction_volume: z
    .string()
    .regex(/^([0-9]+|LESS_THAN_5_K|BETWEEN_[0-9]+_K_AND_[0-9]+_K|ABOVE_[0-9]+_K)$/, 'must be a numeric string, e.g. "1200", or a band such as BETWEEN_5_K_AND_20_K')
    .meta({ examples: ['1200', 'BETWEEN_5_K_AND_20_K'] }),
  communication_address: maxLen(1024).optional(),
  communication_city: optText,
  communication_state: optText,
  communication_country: optText,
  communication_pincode: optPincode,
  same_as_registered_address: z.boolean({ error: msg('must be true or false') }).meta({ examples: [true] }),
  registered_address: requiredText(1024),
  registered_city: text,
  registered_state: text,
  registered_country: text,
  registered_pincode: pincode,
  business_category: text,
  business_mode: text,
  commodity: optText,
  payment_terms: optText,
  hs_codes: z.array(z.string().regex(/^[0-9]{8}$/, 'must be an 8-digit HS code')).optional(),
  category: optText,
  description_of_products_and_services: maxLen(1024).optional(),
  agreement_details: maxLen(1024).optional(),
  // spec 2.10 shows the form P + 4 digits; the verification checklists take S codes (vendor 11.2.1),
  // and a merchant onboarded with one can declare it on its payments (issue 42): a FEMA purpose code.
  purpose_code: z.string().regex(/^[PS][0-9]{4}$/, 'must be P or S followed by 4 digits (a FEMA purpose code), e.g. S0802').optional(),
};

/** communication_* may be omitted only when same_as_registered_address is true. */
function communicationRule(c: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (c.same_as_registered_address !== false) return;
  for (const f of ADDRESS_FIELDS) {
    const v = c[`communication_${f}`];
    if (v === undefined || v === '') {
      ctx.addIssue({ code: 'custom', path: [`communication_${f}`], message: 'required when same_as_registered_address is false' });
    }
  }
}

export const settlementDetailsSchema = z.object(settlementDetailsShape);
export const companyDetailsSchema = z.object(companyDetailsShape).superRefine(communicationRule, always);

/** spec 4.9: both objects required. */
export const merchantCreateSchema = z.object({
  settlement_details: settlementDetailsSchema,
  company_details: companyDetailsSchema,
});
export type MerchantCreate = z.output<typeof merchantCreateSchema>;

/**
 * vendor 7.1: the sub-merchant's contact in company_details, required by the docs and optional
 * here (C14: the vendor's client never sends them). Kept apart from companyDetailsShape, which
 * also drives the guided prompts; the sandbox checks and keeps these two on create and update.
 */
export const merchantContactSchema = z.object({
  email: z.email({ error: msg('must be an email address') }).max(254, 'must be at most 254 characters').optional(),
  phone_number: z.string().regex(/^\+[1-9][0-9]{6,14}$/, 'must be an E.164 number, e.g. +919876543210').optional(),
});
export type MerchantContact = z.output<typeof merchantContactSchema>;

const partialSettlement = z.object(settlementDetailsShape).partial();
// An update may change the contact alone (vendor 7.1), so it is part of the update's company
// object: the "at least one field" rule counts it and the parse keeps it. The create schema
// leaves it out (companyDetailsShape also drives the guided prompts); its callers check and add
// it with merchantContactSchema.
const partialCompany = z.object({ ...companyDetailsShape, ...merchantContactSchema.shape }).partial();

/** spec 4.10: company_details and/or settlement_details, only the fields to change, at least one. */
export const merchantUpdateSchema = z
  .object({
    settlement_details: partialSettlement.optional(),
    company_details: partialCompany.optional(),
  })
  .superRefine((o, ctx) => {
    const count = Object.keys(o.settlement_details ?? {}).length + Object.keys(o.company_details ?? {}).length;
    if (count === 0) {
      ctx.addIssue({ code: 'custom', path: [], message: 'send at least one field of company_details or settlement_details' });
    }
  }, always);
export type MerchantUpdate = z.output<typeof merchantUpdateSchema>;

/** Check a merged (current + update) merchant against the create rules; issues keyed by full path. */
export function merchantMergedIssues(merged: unknown): z.core.$ZodIssue[] {
  return nestedIssues(merchantCreateSchema, merged, []);
}
