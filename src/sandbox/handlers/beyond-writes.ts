// The changes the vendor's client makes beyond the spec: create refund (beyond 2.1) and the payment
// link operations (beyond 3.1, 3.3, 3.4). Same envelope, scoping and validation style as the spec's.
import { refundCreateSchema } from '../../api/schemas/refunds.js';
import { MAX_LINK_EXPIRY_SECONDS } from '../../api/schemas/limits.js';
import { linkCreateSchema, linkExtendSchema, linkShareSchema, parseIsoTime } from '../../api/schemas/links.js';
import { ORDER_VALIDATION, REFUND_VALIDATION, validationError } from '../errors.js';
import type { Handler, RequestContext } from './types.js';
import { parseBody } from './util.js';

export const createRefund: Handler = (ctx) => {
  const body = parseBody(refundCreateSchema, ctx.body, REFUND_VALIDATION);
  // vendor 2.1: 200 (not 201) and this message.
  return { message: 'Refund request processed successfully', data: ctx.store.createRefund(ctx.caller.scope, body) };
};

/**
 * vendor N9 (and 6): a link created without expiry_date lives 365 days. The /sandbox/ helper
 * (POST /sandbox/payment-links/, src/api/schemas/sandbox.ts) keeps its own 7: the vendor says
 * nothing of it, and `pgw sandbox link create` documents 7d (docs/sandbox.md "Payment links").
 */
export const DEFAULT_LINK_SECONDS = 365 * 24 * 3600;

/**
 * An expiry in the future and at most 365 days away (vendor N9; exactly 365 days is taken), in
 * epoch microseconds of the sandbox's clock. extend_expiry has the same bound (the docs show no
 * rule for it; docs/sandbox.md).
 */
function expiryMicros(ctx: RequestContext, value: string | null | undefined): number {
  // The caller's clock: its account tree's, which every link it can reach is on.
  const now = ctx.store.nowMicros(ctx.caller.account.merchant_id);
  // vendor N9: omitted or null, the link lives the default 365 days.
  if (value === undefined || value === null) return now + DEFAULT_LINK_SECONDS * 1_000_000;
  const micros = parseIsoTime(value)! * 1000;
  if (micros <= now) throw validationError([{ path: 'expiry_date', message: 'must be in the future' }], ORDER_VALIDATION);
  if (micros > now + MAX_LINK_EXPIRY_SECONDS * 1_000_000) throw validationError([{ path: 'expiry_date', message: `must be at most ${MAX_LINK_EXPIRY_SECONDS / 86_400} days from now` }], ORDER_VALIDATION);
  return micros;
}

export const createPaymentLink: Handler = (ctx) => {
  const body = parseBody(linkCreateSchema, ctx.body, ORDER_VALIDATION);
  // vendor N4: a PSP must name the sub-merchant (401 ERR_AUTH_000 otherwise).
  const merchantId = ctx.caller.acting({ pspMustName: true });
  // vendor N9: 201.
  return {
    status: 201,
    message: 'payment link created successfully',
    data: ctx.store.createPaymentLink(merchantId, body, expiryMicros(ctx, body.expiry_date), ctx.apiVersion, ctx.publicBaseUrl),
  };
};

/** beyond 3.3: no body; irreversible. The answer's data is the link as Get Payment Link shows it. */
export const deactivatePaymentLink: Handler = (ctx) => ({
  message: 'payment link deactivated successfully',
  data: ctx.store.deactivateLink(ctx.caller.scope, ctx.params.link_id!, ctx.publicBaseUrl),
});

export const extendPaymentLink: Handler = (ctx) => {
  const { expiry_date } = parseBody(linkExtendSchema, ctx.body, ORDER_VALIDATION);
  return {
    message: 'payment link expiry extended successfully',
    data: ctx.store.extendLink(ctx.caller.scope, ctx.params.link_id!, expiryMicros(ctx, expiry_date), ctx.publicBaseUrl),
  };
};

/** vendor 6 share: recorded on the link, nothing sent offline; 200 {success, message} (data: the link). */
export const sharePaymentLink: Handler = (ctx) => {
  const to = parseBody(linkShareSchema, ctx.body, ORDER_VALIDATION);
  return {
    message: 'Payment link shared successfully (recorded; the sandbox sends no email or SMS)',
    data: ctx.store.shareLink(ctx.caller.scope, ctx.params.link_id!, to, ctx.publicBaseUrl),
  };
};
