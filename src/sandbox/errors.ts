// The sandbox's error answers (spec part 7 envelope). Codes the spec names are used as it names
// them; the rest are the sandbox's own choices, listed in docs/sandbox.md.
/** An object of field (or category) → message (spec part 7). */
export type Details = Record<string, unknown>;

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    /** A string code, or one of vendor 11.8's integer codes (40359, 40360). */
    readonly code: string | number,
    message: string,
    /** An object per field; a plain string where the vendor's docs give one (vendor 11.8). */
    readonly details?: Details | string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

/**
 * An answer outside the envelope: vendor 2.4's 404 of simulate-status is a bare `{"detail": …}`
 * (and never a 403 for another merchant's refund). Sent as `body`, unchanged.
 */
export class BareError extends SandboxError {
  constructor(
    status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(status, 'BARE', String(body.detail ?? 'error'));
  }
}

export const paymentNotFound = (id: string) =>
  new SandboxError(404, 'ERR_PAYMENT_005', 'Payment not found', { payment_id: `${id} not found` });
export const linkNotFound = (id: string) =>
  new SandboxError(404, 'ERR_PAYMENT_005', 'Payment not found', { payment_id: `${id} not found` });
export const settlementNotFound = (id: string) =>
  new SandboxError(404, 'ERR_SETTLEMENT_002', 'Settlement not found', { settlement_id: `${id} not found` });
/** vendor 4.1, 9.2: 404 ERR_ORDER_001 on order get, status and update. */
export const orderNotFound = (id: string) =>
  new SandboxError(404, 'ERR_ORDER_001', 'Order not found', { order_id: `${id} not found` });
/** X-Merchant-ID naming a merchant the caller may not act for (not shown in the docs: the sandbox's own code). */
export const merchantNotFound = (id: string) =>
  new SandboxError(404, 'ERR_MERCHANT_002', 'Merchant not found', { merchant_id: `${id} not found` });
/**
 * vendor 7.3: an unknown sub-merchant, or another PSP's: 404 ERR_MERCHANT_001 `Validation error`.
 * Its details name the merchant_id, an object as spec part 7 and the docs' error schema have it
 * (vendor 7.3's example gave the plain string `Not found.`; the spec wins, vendor 0.1).
 */
export const subMerchantNotFound = (id: string) =>
  new SandboxError(404, 'ERR_MERCHANT_001', 'Validation error', { merchant_id: `${id} not found` });
export const subscriptionNotFound = (id: string) =>
  new SandboxError(404, 'ERR_SUBSCRIPTION_002', 'Subscription not found', { subscription_id: `${id} not found` });
export const webhookNotFound = (id: string) =>
  new SandboxError(404, 'ERR_WEBHOOK_002', 'Webhook not found', { webhook_id: `${id} not found` });

/** vendor 11.7: no error codes are documented for VBA operations (HTTP statuses only); these are the sandbox's (docs/sandbox.md). */
export const vbaNotFound = (id: string) =>
  new SandboxError(404, 'ERR_VBA_001', 'VBA not found', { virtual_account_id: `${id} not found` });

export const eventNotFound = (id: string) => new SandboxError(404, 'ERR_EVENT_001', 'Event not found', { event_id: `${id} not found` });

/**
 * The documented validation code of each family (vendor 9.2): orders and links ERR_ORDER_002,
 * sub-merchants ERR_MERCHANT_001, refunds ERR_REFUND_002, all "Validation error"; elsewhere the
 * sandbox's own ERR_VALIDATION_000 "Invalid request" (docs/sandbox.md).
 */
export interface ValidationCode {
  code: string;
  message: string;
}
export const GENERIC_VALIDATION: ValidationCode = { code: 'ERR_VALIDATION_000', message: 'Invalid request' };
export const ORDER_VALIDATION: ValidationCode = { code: 'ERR_ORDER_002', message: 'Validation error' };
export const MERCHANT_VALIDATION: ValidationCode = { code: 'ERR_MERCHANT_001', message: 'Validation error' };
export const REFUND_VALIDATION: ValidationCode = { code: 'ERR_REFUND_002', message: 'Validation error' };
/** vendor 11.7 documents statuses only: the sandbox's own code for a refused VBA body or query. */
export const VBA_VALIDATION: ValidationCode = { code: 'ERR_VBA_002', message: 'Validation error' };

/** Validation failures: 400 with details keyed by field path (docs/sandbox.md). */
export function validationError(problems: { path: string; message: string }[], family: ValidationCode = GENERIC_VALIDATION): SandboxError {
  const details: Details = {};
  for (const p of problems) {
    const key = p.path || 'body';
    if (details[key] === undefined) details[key] = p.message;
  }
  return new SandboxError(400, family.code, family.message, details);
}

/** A state conflict on a resource the caller owns (e.g. paying a paid order): 400 with one detail. */
export const conflict = (code: string, message: string, field: string, detail: string) =>
  new SandboxError(400, code, message, { [field]: detail });
