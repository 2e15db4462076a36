// Create Order (spec 2.1-2.5, 4.1, part 8) in its v3 form and the earlier v1/v2 variant, and
// Update Order (spec 4.2). Schemas that depend on today's date (card expiry) read a clock at
// validation time, so one schema object serves a long-running sandbox.
import * as z from 'zod';
import {
  always,
  Checked,
  httpUrl,
  maxLen,
  nestedIssues,
  orderAmount,
  panNumber,
  realDate,
  msg,
  requiredText,
  type ReportAll,
} from './common.js';

export type Clock = () => Date;
const systemClock: Clock = () => new Date();

export const MOP_TYPES = ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr', 'wallet'] as const;
export const LEGACY_MOP_TYPES = ['UPI', 'CREDIT_CARD', 'DEBIT_CARD', 'NET_BANKING', 'QR', 'WALLET'] as const;
export const CARD_NETWORKS = ['visa', 'mastercard', 'rupay', 'amex', 'diners', 'discover'] as const;
export const GOODS_TYPES = ['digital_goods', 'physical_goods', 'service'] as const;
export const SUPPORTED_CURRENCIES = ['INR'] as const;

// Letters include their combining marks (\p{M}): Indic vowel signs and viramas (अमित, नई दिल्ली)
// and decomposed Latin accents (e + U+0301) are part of how names are written.
const NAME_PATTERN = /^[\p{L}\p{M} .,'-]+$/u;
const ADDRESS_LINE_PATTERN = /^[\p{L}\p{M}\p{N} ,./#-]+$/u;
const ALPHA_PATTERN = /^[\p{L}\p{M} ]+$/u;

// E.164-ish (spec 2.2), in limits.ts (no zod): the verification checks read it too.
import { isPhone } from './limits.js';
export { isPhone };

export const address = z.object({
  line_1: requiredText(255).regex(ADDRESS_LINE_PATTERN, 'may contain only letters, numbers, spaces and , . - / #'),
  line_2: maxLen(255).regex(ADDRESS_LINE_PATTERN, 'may contain only letters, numbers, spaces and , . - / #').optional(),
  city: requiredText(255).regex(ALPHA_PATTERN, 'must be alphabetic'),
  state: requiredText(255).regex(ALPHA_PATTERN, 'must be alphabetic'),
  postal_code: z.string().regex(/^[A-Za-z0-9]{6}$/, 'must be 6 characters').meta({ examples: ['560001'] }),
});

export const buyer = z.object({
  name: requiredText(255).regex(NAME_PATTERN, "may contain only letters, spaces and . , - '"),
  email: z.email({ error: msg('must be a valid email address') }),
  phone: z.string().refine(isPhone, 'must be a phone number with country code, e.g. +919876543210').meta({ examples: ['+919876543210'] }),
  address,
  ip_address: z.union([z.ipv4(), z.ipv6()], { error: msg('must be an IPv4 or IPv6 address') }).optional(),
  user_agent: maxLen(1024).optional(),
  // spec 2.2: set later by Update Order; accepted on create only when well-formed.
  pan_number: panNumber.nullable().optional(),
  dob: realDate.nullable().optional(),
});

function product(legacy: boolean, when: ReportAll) {
  const goods = legacy ? ([...GOODS_TYPES, 'goods'] as const) : GOODS_TYPES;
  return z
    .object({
      name: requiredText(255),
      description: maxLen(1024).optional(),
      type_of_goods: z.enum(goods, { error: msg(`must be one of ${goods.join(', ')}`) }),
      hs_code: z.string().regex(/^[0-9]{1,8}$/, 'must be digits, at most 8').optional(),
      hs_code_description: maxLen(1024).optional(),
    })
    .superRefine((p, ctx) => {
      // spec 2.3 / 4.1: physical goods need an HS code.
      if (p.type_of_goods === 'physical_goods' && (p.hs_code === undefined || p.hs_code === '')) {
        ctx.addIssue({ code: 'custom', path: ['hs_code'], message: 'required when type_of_goods is physical_goods' });
      }
    }, when);
}

export const invoice = z.object({
  number: requiredText(255).regex(/^[A-Za-z0-9/-]+$/, 'may contain only letters, numbers, dashes and slashes'),
  date: realDate.optional(),
});

function newCard(now: Clock, when: ReportAll) {
  return z
    .object({
      // Digits are what count: the vendor's client sends them grouped by spaces (beyond 6), and the
      // sandbox keeps only the last 4 of the digits.
      number: z
        .string()
        .transform((v) => v.replace(/ /g, ''))
        .pipe(z.string().regex(/^[0-9]{12,19}$/, 'must be 12-19 digits (spaces between groups allowed)')),
      cardholder_name: requiredText(128),
      expiry_month: z.string().regex(/^(0[1-9]|1[0-2])$/, 'must be MM, 01-12'),
      expiry_year: z.string().regex(/^[0-9]{4}$/, 'must be YYYY'),
      cvv: z.string().regex(/^[0-9]{3,4}$/, 'must be 3-4 digits'),
      network: z.enum(CARD_NETWORKS, { error: msg(`must be one of ${CARD_NETWORKS.join(', ')}`) }),
      nickname: requiredText(64),
      identifier: requiredText(255),
    })
    .superRefine((c, ctx) => {
      // spec 2.5: expiry_year is the current year or later, and the card has not expired.
      if (!/^[0-9]{4}$/.test(c.expiry_year ?? '')) return;
      const today = now();
      const year = Number(c.expiry_year);
      if (year < today.getUTCFullYear()) {
        ctx.addIssue({ code: 'custom', path: ['expiry_year'], message: 'must be the current year or later' });
      } else if (
        year === today.getUTCFullYear() &&
        /^(0[1-9]|1[0-2])$/.test(c.expiry_month ?? '') &&
        Number(c.expiry_month) < today.getUTCMonth() + 1
      ) {
        ctx.addIssue({ code: 'custom', path: ['expiry_month'], message: 'the card has expired' });
      }
    }, when);
}

export const savedCard = z.object({
  token: requiredText(255),
  identifier: requiredText(255),
  network: z.enum(CARD_NETWORKS, { error: msg(`must be one of ${CARD_NETWORKS.join(', ')}`) }),
});

/** The keys card_details may have, either variant (spec 2.5): for naming a misspelt one. */
export const CARD_DETAILS_KEYS: readonly string[] = [...new Set([...Object.keys(newCard(systemClock, always).shape), ...Object.keys(savedCard.shape)])];

export type NewCard = z.output<ReturnType<typeof newCard>>;
export type SavedCard = z.output<typeof savedCard>;
export type CardDetails = NewCard | SavedCard;

/** spec 2.5: one of two variants; a `token` selects the saved-card one, so errors name real fields. */
function cardDetails(now: Clock, when: ReportAll) {
  const fresh = newCard(now, when);
  return z.unknown().transform((value, ctx): CardDetails => {
    const saved = typeof value === 'object' && value !== null && 'token' in value;
    const issues = nestedIssues(saved ? savedCard : fresh, value, []);
    if (issues.length > 0) {
      for (const iss of issues) ctx.issues.push({ ...iss, input: value } as never);
      return z.NEVER;
    }
    return (saved ? savedCard : fresh).parse(value);
  });
}

export interface OrderSchemaOptions {
  /** Clock for the card-expiry rule; default the system clock, read at validation time. */
  now?: Clock;
}

function baseOrder(now: Clock, legacy: boolean, when: ReportAll) {
  return {
    amount: orderAmount,
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be 3 uppercase letters')
      .refine((c) => !/^[A-Z]{3}$/.test(c) || (SUPPORTED_CURRENCIES as readonly string[]).includes(c), 'unsupported currency: use INR'),
    reference_id: z
      .string()
      .min(1, 'must not be empty')
      .max(50, 'must be at most 50 characters')
      .regex(/^[A-Za-z0-9_-]*$/, 'may contain only letters, numbers, dashes and underscores'),
    buyer,
    product: product(legacy, when),
    collection_mode: z.enum(['hosted_payment', 's2s'], { error: msg('must be hosted_payment or s2s') }).default('hosted_payment'),
    upi_flow_type: z.enum(['intent', 'collection'], { error: msg('must be intent or collection') }).optional(),
    card_details: cardDetails(now, when).optional(),
  };
}

interface CrossFields {
  collection_mode?: string;
  mop_type?: string;
  upi_flow_type?: string;
  card_details?: unknown;
  vpa?: string;
}

/** The conditional rules of spec 2.1 / 4.1, shared by both variants (mop_type compared lowercase) and pgw mcp's order_create. */
export function crossRules(o: CrossFields, ctx: z.RefinementCtx): void {
  const mop = typeof o.mop_type === 'string' ? o.mop_type.toLowerCase() : undefined;
  const s2s = o.collection_mode === 's2s';
  if ((mop === 'credit_card' || mop === 'debit_card') && o.card_details === undefined) {
    ctx.addIssue({ code: 'custom', path: ['card_details'], message: `required when mop_type is ${o.mop_type}` });
  }
  if (s2s && mop === 'upi' && o.upi_flow_type === undefined) {
    ctx.addIssue({ code: 'custom', path: ['upi_flow_type'], message: 'required when collection_mode is s2s and mop_type is upi' });
  }
  // spec part 1: S2S collection is either UPI or card with 3-D Secure.
  if (s2s && mop === undefined) {
    ctx.addIssue({ code: 'custom', path: ['mop_type'], message: 'required when collection_mode is s2s' });
  } else if (s2s && mop !== 'upi' && mop !== 'credit_card' && mop !== 'debit_card') {
    ctx.addIssue({ code: 'custom', path: ['mop_type'], message: 'collection_mode s2s supports upi, credit_card and debit_card' });
  }
}

const LEGACY_ONLY = 'only in the earlier variant of create order (X-API-Version 1.x.x or 2.x.x, spec 2.1)';

/**
 * mop_type is taken in either case under every version (the vendor's own client sends lowercase
 * card methods under 2.0.0) and comes out in the case the version writes (spec 2.1).
 */
const inCase = (to: 'lower' | 'upper') => (v: unknown) => (typeof v === 'string' ? (to === 'lower' ? v.trim().toLowerCase() : v.trim().toUpperCase()) : v);

/** Create Order, v3 (spec 2.1). */
export function makeOrderCreateV3Schema(opts: OrderSchemaOptions = {}) {
  return v3Schema(opts.now ?? systemClock, always);
}

function v3Schema(now: Clock, when: ReportAll) {
  return z
    .object({
      ...baseOrder(now, false, when),
      return_url: httpUrl,
      invoice,
      mop_type: z.preprocess(inCase('lower'), z.enum(MOP_TYPES, { error: msg(`must be one of ${MOP_TYPES.join(', ')}`) })).optional(),
      // spec 2.1: vpa and upi_app_name exist only in the earlier variant; refused here rather than
      // dropped in silence, so a v3 caller learns that the field went nowhere.
      vpa: z.never({ error: LEGACY_ONLY }).optional(),
      upi_app_name: z.never({ error: LEGACY_ONLY }).optional(),
    })
    .superRefine(crossRules, when);
}

const VPA_PATTERN = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+$/;

/** Create Order, the earlier v1/v2 variant (spec 2.1, last paragraph). */
export function makeOrderCreateLegacySchema(opts: OrderSchemaOptions = {}) {
  return legacySchema(opts.now ?? systemClock, always);
}

function legacySchema(now: Clock, when: ReportAll) {
  return z
    .object({
      ...baseOrder(now, true, when),
      return_url: httpUrl.optional(),
      invoice: invoice.optional(),
      mop_type: z.preprocess(inCase('upper'), z.enum(LEGACY_MOP_TYPES, { error: msg(`must be one of ${LEGACY_MOP_TYPES.join(', ')}`) })).optional(),
      vpa: z.string().regex(VPA_PATTERN, 'must be a VPA of the form username@bank').optional(),
      upi_app_name: requiredText(64).default('others'),
    })
    .superRefine((o, ctx) => {
      crossRules(o, ctx);
      if (o.upi_flow_type === 'collection' && o.vpa === undefined) {
        ctx.addIssue({ code: 'custom', path: ['vpa'], message: 'required when upi_flow_type is collection' });
      }
    }, when);
}

/**
 * Both variants of Create Order for a validator of many bodies (the sandbox): compiled for the
 * valid ones, reporting every problem of the others (common.ts `Checked`), from the definitions above.
 */
export function makeOrderCreateChecks(opts: OrderSchemaOptions = {}): { v3: Checked<OrderCreateV3>; legacy: Checked<OrderCreateLegacy> } {
  const now = opts.now ?? systemClock;
  return { v3: new Checked((when) => v3Schema(now, when)), legacy: new Checked((when) => legacySchema(now, when)) };
}

export const orderCreateV3Schema = makeOrderCreateV3Schema();
export const orderCreateLegacySchema = makeOrderCreateLegacySchema();
export type OrderCreateV3 = z.output<typeof orderCreateV3Schema>;
export type OrderCreateLegacy = z.output<typeof orderCreateLegacySchema>;
export type OrderCreate = OrderCreateV3 | OrderCreateLegacy;

/** The create-order schema for an API major version (spec part 9: 1.x and 2.x send the earlier variant). */
export function orderCreateSchemaFor(major: 1 | 2 | 3, opts?: OrderSchemaOptions) {
  if (opts?.now) return major === 3 ? makeOrderCreateV3Schema(opts) : makeOrderCreateLegacySchema(opts);
  return major === 3 ? orderCreateV3Schema : orderCreateLegacySchema;
}

/** Update Order (spec 4.2): only the fields to change, at least one. */
export const orderUpdateSchema = z
  .object({
    buyer: z.object({ pan_number: panNumber.optional(), dob: realDate.optional() }).optional(),
    invoice: z
      .object({
        number: invoice.shape.number.optional(),
        date: realDate.optional(),
      })
      .optional(),
  })
  .superRefine((o, ctx) => {
    const fields = [o.buyer?.pan_number, o.buyer?.dob, o.invoice?.number, o.invoice?.date];
    if (fields.every((f) => f === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'send at least one of buyer.pan_number, buyer.dob, invoice.number, invoice.date',
      });
    }
  });
export type OrderUpdate = z.output<typeof orderUpdateSchema>;
