// POST /pg/pan/verify/ and POST /pg/lrs/quote/ (vendor 11.6): the rules are the store's (store/lrs.ts).
import { lrsQuoteSchema, panVerifySchema } from '../../api/schemas/lrs.js';
import type { Handler } from './types.js';
import { parseBody } from './util.js';

/** vendor 11.6: a failed match is still 200, with its own message. */
export const verifyPan: Handler = (ctx) => {
  const body = parseBody(panVerifySchema, ctx.body);
  const outcome = ctx.store.verifyPan(ctx.caller.acting(), body);
  return { message: outcome.verified ? 'PAN verified' : 'PAN verification did not pass', data: outcome };
};

/** vendor 11.6: a PSP names the sub-merchant with X-Merchant-ID (its verified PANs and enabled codes). */
export const quoteLrs: Handler = (ctx) => {
  const body = parseBody(lrsQuoteSchema, ctx.body);
  return { message: 'LRS amount quoted', data: ctx.store.lrsQuote(ctx.caller.acting({ pspMustName: true }), ctx.caller.scope, body) };
};
