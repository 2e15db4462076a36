// GET payment, payment link and settlement (spec 4.3-4.5).
import type { Handler } from './types.js';

export const getPayment: Handler = (ctx) => ({
  // vendor 3.2
  message: 'Domestic payment request details retrieved successfully',
  json: ctx.store.paymentJson(ctx.caller.scope, ctx.params.payment_id!),
});

/** spec 4.4: a sub-merchant's link is found without X-Merchant-ID. */
export const getLink: Handler = (ctx) => ({
  message: 'payment link fetched successfully',
  data: ctx.store.link(ctx.caller.scope, ctx.params.link_id!, ctx.publicBaseUrl),
});

export const getSettlement: Handler = (ctx) => ({
  // vendor 5.3
  message: 'Settlements fetched successfully',
  data: ctx.store.settlement(ctx.caller.scope, ctx.params.settlement_id!),
});
