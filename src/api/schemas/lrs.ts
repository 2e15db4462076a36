// PAN verify and LRS quote (vendor 11.6): the request bodies shared by `pgw pan verify`, `pgw lrs
// quote` and the sandbox, so both refuse the same ones.
import * as z from 'zod';
import { Money } from '../../money.js';
import { panNumber, realDate, requiredText } from './common.js';

/** vendor 11.6: pan `AAAAA9999A`, name (max 255), dob `YYYY-MM-DD`; all required. */
export const panVerifySchema = z.object({
  pan: panNumber,
  name: requiredText(255),
  dob: realDate,
});
export type PanVerify = z.output<typeof panVerifySchema>;

export { LRS_PURPOSE_CODES } from './lrs-codes.js';

/** At most this per quote: the LRS yearly limit is USD 250,000; this bounds the figures, not the rule. */
export const MAX_LRS_QUOTE_AMOUNT = '100000000.00';

const AMOUNT_TEXT = /^[0-9]+(\.[0-9]{1,2})?$/;

/**
 * vendor 11.6: amount is a number of rupees. A JSON number, or its decimal text (what a form or
 * a shell gives); at most 2 decimals, > 0. Read as its decimal text, never as a float.
 */
const lrsAmount = z
  .union([z.number(), z.string()], { error: (iss) => (iss.input === undefined ? 'required' : 'must be a number of rupees, e.g. 1200000') })
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => AMOUNT_TEXT.test(v), 'must be a number of rupees with at most 2 decimals, e.g. 1200000 or 1500.50')
  .refine((v) => !AMOUNT_TEXT.test(v) || new Money(v).gt(0), 'must be greater than 0')
  .refine((v) => !AMOUNT_TEXT.test(v) || new Money(v).lte(MAX_LRS_QUOTE_AMOUNT), `must be at most ${MAX_LRS_QUOTE_AMOUNT}`);

/** vendor 11.6: pan (verified), amount (rupees), purpose_code (enabled for the account). */
export const lrsQuoteSchema = z.object({
  pan: panNumber,
  amount: lrsAmount,
  purpose_code: requiredText(16).transform((v) => v.toUpperCase()),
});
export type LrsQuote = z.output<typeof lrsQuoteSchema>;
