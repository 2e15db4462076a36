// Bodies of the sandbox helpers under /sandbox/ (not part of the gateway's API; docs/sandbox.md).
// Shared so `pgw sandbox ...` validates exactly what the sandbox will accept.
import * as z from 'zod';
import { httpUrl, msg, orderAmount, positiveAmount } from './common.js';
import { MAX_LINK_EXPIRY_SECONDS } from './limits.js';
import { MOP_TYPES } from './orders.js';
import { parseIsoTime } from './links.js';
import { EVENT_TYPES } from '../../events.js';

const mop = z
  .string()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(MOP_TYPES, { error: msg(`must be one of ${MOP_TYPES.join(', ')}`) }));

/** POST /sandbox/orders/{order_id}/pay/ */
export const sandboxPaySchema = z.object({
  outcome: z.enum(['success', 'fail'], { error: msg('must be success or fail') }),
  mop_type: mop.optional(),
  /** The buyer's VPA for UPI payments; `failure@upi` fails the payment. */
  vpa: z.string().regex(/^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+$/, 'must be a VPA of the form username@bank').optional(),
  /** Which gateway the payment runs on; anything but `simulator` cannot be mark-settled (spec 4.6 rule 1). */
  gateway: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'must be a short lowercase name').default('simulator'),
});
export type SandboxPay = z.output<typeof sandboxPaySchema>;

/** POST /sandbox/payments/{id}/refunds/ and /chargebacks/ */
export const sandboxAmountSchema = z.object({ amount: positiveAmount });

/**
 * POST /sandbox/payment-links/. Its default stays 7 days, unlike POST /pg/payment-links/ (365,
 * vendor N9): the helper is pgw's own, the vendor says nothing of it, and a demo link that
 * expires within the week is what `pgw sandbox link create` has always promised.
 */
export const sandboxLinkCreateSchema = z.object({
  order_id: z.string().min(1, 'must not be empty'),
  expires_in_seconds: z
    .number({ error: msg('must be a number of seconds') })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1')
    .max(MAX_LINK_EXPIRY_SECONDS, `must be at most ${MAX_LINK_EXPIRY_SECONDS} (${MAX_LINK_EXPIRY_SECONDS / 86_400} days)`)
    .default(7 * 24 * 3600),
});

/**
 * POST /sandbox/subscriptions/. Each simulated payment charges the amount, so the order limit of
 * spec part 8 applies: above it, sums past 2^53 paise would lose precision as JSON numbers.
 */
export const sandboxSubscriptionSchema = z.object({ amount: orderAmount });

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * POST /sandbox/webhooks/. `listener: true` marks the receiver of a `pgw listen`: always on this
 * machine's loopback, and dropped by delivery once it is gone rather than retried (docs/sandbox.md).
 * A listener names the address it forwards to (`forward_to`) and the events it shows (`events`),
 * so the sandbox decides per event whether it forwards (issue 45, store/forwarding.ts).
 */
export const sandboxWebhookSchema = z
  .object({
    url: httpUrl,
    listener: z.boolean({ error: msg('must be true or false') }).default(false),
    forward_to: httpUrl.optional(),
    events: z.array(z.enum(EVENT_TYPES, { error: msg(`must be event names: ${EVENT_TYPES.join(', ')}`) })).min(1, 'must name at least one event').optional(),
  })
  .refine((b) => !b.listener || LOOPBACK_HOSTS.has(new URL(b.url).hostname), {
    path: ['url'],
    message: 'a listener must be on the loopback interface (127.0.0.1, localhost or [::1])',
  })
  .refine((b) => b.listener || (b.forward_to === undefined && b.events === undefined), {
    path: ['listener'],
    message: 'forward_to and events are for a listener (listener: true)',
  });

/** POST /sandbox/seed/ */
export const sandboxSeedSchema = z
  .object({
    payments: z.number({ error: msg('must be a number') }).int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').optional(),
  })
  .default({});

/** The furthest `clock advance` moves at once: ten years (a typo of a few more digits is refused). */
export const MAX_CLOCK_STEP_SECONDS = 10 * 366 * 86_400;

/**
 * POST /sandbox/clock/ (issue 19): exactly one of advance_seconds (forward only), set (a UTC
 * date-time, with Z or an offset) or reset (back to the machine's time).
 */
export const sandboxClockSchema = z
  .object({
    advance_seconds: z
      .number({ error: msg('must be a number of seconds') })
      .positive('must be more than 0')
      .max(MAX_CLOCK_STEP_SECONDS, `must be at most ${MAX_CLOCK_STEP_SECONDS} (ten years)`)
      .optional(),
    set: z
      .string({ error: msg('must be a date-time text') })
      .refine((v) => parseIsoTime(v) !== undefined, 'must be an ISO 8601 date-time with a zone, e.g. 2027-01-31T09:00:00Z')
      .optional(),
    reset: z.literal(true, { error: msg('must be true') }).optional(),
  })
  .strict()
  .refine((b) => [b.advance_seconds, b.set, b.reset].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of advance_seconds, set or reset',
  });
export type SandboxClock = z.output<typeof sandboxClockSchema>;

/** POST /sandbox/events/{id}/resend/: to `url`, or to every address registered now. */
export const sandboxResendSchema = z.object({ url: httpUrl.optional() }).default({});

/** `<METHOD> <path pattern>`: * in the path is one segment, ** the rest (docs/sandbox.md "Faults"). */
export const FAULT_ROUTE = /^(GET|POST|PATCH|PUT|DELETE|\*)[ \t]+(\/[A-Za-z0-9._~:{}*\/-]*)$/;
export const MAX_FAULT_DELAY_MS = 600_000;

/**
 * POST /sandbox/faults/ (issue 24): exactly one of status, delay_ms, drop, after_commit; `times`
 * and `rate` (with an optional `seed`, for a reproducible sequence) say how often it fires.
 */
export const sandboxFaultSchema = z
  .strictObject({
    route: z
      .string({ error: msg("must be '<METHOD> <path>', e.g. 'POST /pg/orders/'") })
      .transform((v) => v.trim().replace(/^[a-z]+/, (m) => m.toUpperCase()))
      .pipe(z.string().regex(FAULT_ROUTE, "must be '<METHOD> <path>', e.g. 'POST /pg/orders/' (METHOD: GET, POST, PATCH, PUT, DELETE or *)")),
    status: z.number({ error: msg('must be an HTTP status') }).int('must be a whole number').min(400, 'must be 400-599').max(599, 'must be 400-599').optional(),
    delay_ms: z.number({ error: msg('must be milliseconds') }).int('must be whole milliseconds').min(1, 'must be at least 1').max(MAX_FAULT_DELAY_MS, `must be at most ${MAX_FAULT_DELAY_MS} (10 minutes)`).optional(),
    drop: z.literal(true, { error: msg('must be true') }).optional(),
    after_commit: z.literal(true, { error: msg('must be true') }).optional(),
    times: z.number({ error: msg('must be a number') }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000').optional(),
    rate: z.number({ error: msg('must be a probability') }).gt(0, 'must be above 0').max(1, 'must be at most 1').optional(),
    seed: z.number({ error: msg('must be a number') }).int('must be a whole number').min(0, 'must be 0 or more').max(0xffffffff, 'must be at most 4294967295').optional(),
  })
  .superRefine((b, ctx) => {
    const kinds = (['status', 'delay_ms', 'drop', 'after_commit'] as const).filter((k) => b[k] !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({ code: 'custom', path: kinds.length === 0 ? ['status'] : [kinds[1]!], message: 'give exactly one of status, delay_ms, drop, after_commit' });
    }
    if (b.seed !== undefined && b.rate === undefined) ctx.addIssue({ code: 'custom', path: ['seed'], message: 'applies with rate only' });
  });
export type SandboxFault = z.output<typeof sandboxFaultSchema>;

/** vendor 7.4's kyc statuses; the helper takes them in any case (a flag value) and stores them upper. */
export const KYC_STATUS_VALUES = ['PENDING', 'IN_REVIEW', 'CHANGES_REQUESTED', 'APPROVED', 'REJECTED'] as const;

/** POST /sandbox/merchants/{id}/kyc/: `{kyc_status}` (docs/sandbox.md). */
export const sandboxKycSchema = z.object({
  kyc_status: z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .refine((v) => (KYC_STATUS_VALUES as readonly string[]).includes(v), `must be one of ${KYC_STATUS_VALUES.join(', ')}`),
});
