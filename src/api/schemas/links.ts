// Payment links (beyond 3.1, 3.4): create and extend-expiry bodies as the vendor's client sends
// them. Shared by `pgw link create|extend` and the sandbox. The client sends only what has a value,
// so every part but amount and reference_id is optional, and formats are checked only where a
// value is given. A description is optional too: the vendor's client always sends one (beyond
// 3.1), but neither the spec nor the docs (vendor 6, the link create file) require it.
import * as z from 'zod';
import { GOODS_TYPES, SUPPORTED_CURRENCIES, isPhone } from './orders.js';
import { maxLen, msg, orderAmount } from './common.js';
import { isRealDate, parseIsoTime } from './dates.js';

// In dates.ts (no zod) so the sandbox's GET handlers read times with it too; re-exported here.
export { parseIsoTime };

export const isoTime = z
  .string()
  .refine((v) => parseIsoTime(v) !== undefined, 'must be an ISO 8601 time that exists, with a zone, e.g. 2026-12-31T18:30:00.000Z');

/** A date-time with no zone: the vendor's link operations read it as UTC (vendor N9). */
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?$/;

/**
 * A link's expiry_date (vendor N9, the newest links file): ISO 8601; a value without an offset is
 * read as UTC, so it is given its `Z` here, once, for the CLI and the sandbox alike (JavaScript
 * would read it as the machine's local time).
 */
const linkTime = z.preprocess((v) => (typeof v === 'string' && NO_ZONE.test(v) ? `${v}Z` : v), isoTime);

/** vendor N9: the method the buyer should pay with, any case; sent on as the vendor spells it. */
export const PREFERRED_PAYMENT_METHODS = ['UPI', 'CARD', 'CREDIT_CARD', 'DEBIT_CARD', 'NET_BANKING'] as const;

const optText = maxLen(255).optional();

export const linkBuyerSchema = z.object({
  name: optText,
  email: z.email({ error: msg('must be a valid email address') }).optional(),
  phone: z.string().refine(isPhone, 'must be a phone number with country code, e.g. +919876543210').optional(),
  /** vendor N9: ask the gateway to send the link by SMS or email; the sandbox records the wish and sends nothing. */
  send_sms: z.boolean({ error: msg('must be true or false') }).optional(),
  send_email: z.boolean({ error: msg('must be true or false') }).optional(),
  address: z
    .object({
      line_1: optText,
      line_2: optText,
      city: optText,
      state: optText,
      // Free text: links are sold abroad too (a US ZIP is 5 digits).
      postal_code: maxLen(16).optional(),
    })
    .optional(),
});

/** vendor 6 / C10: a decimal string, or a JSON number (the older file's type), read as its decimal text. */
const linkAmount = z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), orderAmount);

export const linkCreateSchema = z
  .object({
    amount: linkAmount,
    currency: z.enum(SUPPORTED_CURRENCIES, { error: msg('unsupported currency: use INR') }).default('INR'),
    reference_id: z
      .string()
      .min(1, 'must not be empty')
      .max(50, 'must be at most 50 characters')
      .regex(/^[A-Za-z0-9_-]*$/, 'may contain only letters, numbers, dashes and underscores'),
    buyer: linkBuyerSchema.optional(),
    product: z
      .object({
        name: optText,
        description: maxLen(1024).optional(),
        type_of_goods: z.enum(GOODS_TYPES, { error: msg(`must be one of ${GOODS_TYPES.join(', ')}`) }).optional(),
        // vendor N9: checked, not stored on the link.
        hs_code: z.string().regex(/^[0-9]{8}$/, 'must be an 8-digit HS code').optional(),
        hs_code_description: maxLen(255).nullable().optional(),
      })
      .optional(),
    // vendor N9: letters and digits only (no hyphen, slash or space), at most 50.
    invoice: z.object({ number: maxLen(50).regex(/^[A-Za-z0-9]+$/, 'may contain only letters and digits (no hyphens, slashes or spaces)').optional() }).optional(),
    /** An earlier client sent a top-level description instead of product.description. */
    description: maxLen(1024).optional(),
    /** null or absent: the default lifetime (vendor N9). */
    expiry_date: linkTime.nullable().optional(),
    preferred_payment_method: z
      .string()
      .refine((v) => (PREFERRED_PAYMENT_METHODS as readonly string[]).includes(v.toUpperCase()), `must be one of ${PREFERRED_PAYMENT_METHODS.join(', ')} (any case)`)
      .optional(),
    business_model: z.enum(['B2B', 'B2C'], { error: msg('must be B2B or B2C') }).optional(),
    purpose_code: maxLen(16).optional(),
  });
export type LinkCreate = z.output<typeof linkCreateSchema>;

export const linkExtendSchema = z.object({ expiry_date: linkTime });
export type LinkExtend = z.output<typeof linkExtendSchema>;

/**
 * POST /pg/payment-links/{id}/share/ (vendor 6, the v2 file): email (addresses) and phone (with
 * country code) lists; at least one address or number.
 */
export const linkShareSchema = z
  .object({
    email: z.array(z.email({ error: 'must be an email address' })).max(20, 'at most 20 addresses').default([]),
    phone: z.array(z.string().regex(/^\+[1-9][0-9]{6,14}$/, 'must be a number with its country code, e.g. +919876543210')).max(20, 'at most 20 numbers').default([]),
  })
  .refine((v) => v.email.length + v.phone.length > 0, { message: 'give at least one email address or phone number', path: ['email'] });
export type LinkShare = z.output<typeof linkShareSchema>;
