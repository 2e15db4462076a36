// The sandbox helpers under /sandbox/ (docs/sandbox.md; not part of the gateway's API). Same
// credentials and scoping as the API; a PSP without X-Merchant-ID acts for itself.
import {
  sandboxAmountSchema,
  sandboxKycSchema,
  sandboxLinkCreateSchema,
  sandboxPaySchema,
  sandboxSeedSchema,
  sandboxSubscriptionSchema,
  sandboxWebhookSchema,
} from '../../api/schemas/sandbox.js';
import type { Handler } from './types.js';
import { SandboxError } from '../errors.js';
import { parseBody } from './util.js';

/** POST /sandbox/orders/{order_id}/pay/ → the payment as Get Payment shows it. */
export const pay: Handler = (ctx) => {
  const body = parseBody(sandboxPaySchema, ctx.body);
  const payment = ctx.store.pay(ctx.caller.scope, ctx.params.order_id!, body);
  return { message: payment.status === 'captured' ? 'payment captured' : 'payment failed', data: payment };
};

export const refund: Handler = (ctx) => {
  const { amount } = parseBody(sandboxAmountSchema, ctx.body);
  // The real operation now exists (POST /pg/refunds/): this path stays for older callers and does the same.
  return { message: 'refund created successfully', data: ctx.store.createRefund(ctx.caller.scope, { payment_id: ctx.params.payment_id!, refund_amount: amount }) };
};

export const chargeback: Handler = (ctx) => {
  const { amount } = parseBody(sandboxAmountSchema, ctx.body);
  return { message: 'chargeback created successfully', data: ctx.store.addChargeback(ctx.caller.scope, ctx.params.payment_id!, amount) };
};

export const createLink: Handler = (ctx) => {
  const body = parseBody(sandboxLinkCreateSchema, ctx.body);
  return {
    message: 'payment link created successfully',
    data: ctx.store.createLink(ctx.caller.scope, body.order_id, body.expires_in_seconds, ctx.publicBaseUrl),
  };
};

export const deactivateLink: Handler = (ctx) => ({
  message: 'payment link deactivated successfully',
  data: ctx.store.deactivateLink(ctx.caller.scope, ctx.params.link_id!, ctx.publicBaseUrl),
});

export const createSubscription: Handler = (ctx) => {
  const { amount } = parseBody(sandboxSubscriptionSchema, ctx.body);
  return { message: 'subscription created successfully', data: ctx.store.createSubscription(ctx.caller.acting(), amount) };
};

export const addWebhook: Handler = (ctx) => {
  const { url, listener, forward_to, events } = parseBody(sandboxWebhookSchema, ctx.body);
  const merchantId = ctx.caller.acting();
  const hook = ctx.store.addWebhook(merchantId, url, listener, { forwardTo: forward_to, events });
  // Issue 45: a forwarding listener is told at once which merchants' events it will not forward, and why.
  const plan = forward_to !== undefined ? { forward_plan: ctx.store.forwardPlan(hook.id) } : {};
  // vendor 1.2: the key that signs what this address receives, shown where it is registered.
  return { message: 'webhook registered successfully', data: { ...hook, encryption_key: ctx.store.encryptionKeyFor(merchantId), ...plan } };
};

/** GET /sandbox/webhooks/ → the registrations the caller can see (a PSP: its own and its sub-merchants'). */
export const listWebhooks: Handler = (ctx) => ({
  message: 'webhooks fetched successfully',
  data: ctx.store.listWebhooks(ctx.caller.scope),
});

/** DELETE /sandbox/webhooks/{id}/ → the registration removed. */
export const deleteWebhook: Handler = (ctx) => ({
  message: 'webhook removed successfully',
  data: ctx.store.deleteWebhook(ctx.caller.scope, ctx.params.webhook_id!),
});

export const seed: Handler = (ctx) => {
  const body = parseBody(sandboxSeedSchema, ctx.body);
  return { message: 'demo data created successfully', data: ctx.store.seed(ctx.caller.acting(), body.payments) };
};

/**
 * The data reset covers: the caller's own (a PSP's includes its sub-merchants; X-Merchant-ID
 * narrows it to one), never another account's (issue 21 item 6). Emptying the whole database is
 * for the machine that holds the file (`pgw sandbox reset --all`), not for HTTP.
 */
function resetScope(ctx: Parameters<Handler>[0]): readonly string[] {
  ctx.caller.acting(); // an X-Merchant-ID the caller may not act for: merchant not found
  return ctx.caller.scope;
}

/** POST /sandbox/reset/ → empties the caller's data, keeping the accounts and their credentials. */
export const reset: Handler = (ctx) => {
  const scope = resetScope(ctx);
  ctx.store.reset(scope, ctx.caller.account.merchant_id);
  return { message: 'sandbox reset successfully', data: { reset: true, merchant_ids: scope } };
};

/** GET /sandbox/reset/ → what a reset would delete (the CLI names it all before asking). */
export const resetPreview: Handler = (ctx) => {
  const scope = resetScope(ctx);
  return { message: 'reset preview', data: ctx.store.resetPreview(scope, ctx.caller.account.merchant_id) };
};

/**
 * POST /sandbox/merchants/{id}/kyc/: move a PSP's sub-merchant to a kyc_status (the gateway's
 * review, offline); APPROVED fires MERCHANT_APPROVED. Only the PSP that owns it may (403 otherwise).
 */
export const setKyc: Handler = (ctx) => {
  if (!ctx.caller.isPsp) {
    throw new SandboxError(403, 'ERR_AUTH_003', 'This endpoint is only accessible to PSP merchants', { authentication: 'this account is not a payment service provider' });
  }
  const { kyc_status } = parseBody(sandboxKycSchema, ctx.body);
  return { message: 'kyc status updated successfully', data: ctx.store.setKycStatus(ctx.caller.account.merchant_id, ctx.params.merchant_id!, kyc_status) };
};
