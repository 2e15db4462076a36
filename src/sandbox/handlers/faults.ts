// GET/POST/DELETE /sandbox/faults/ (issue 24): the caller's own faults; another account's are
// never seen, matched or removed (faults are per account, so one team's test cannot break another's).
import { sandboxFaultSchema } from '../../api/schemas/sandbox.js';
import type { Handler, RequestContext } from './types.js';
import { parseBody } from './util.js';

/**
 * The account whose faults these are. Faults belong to the account, not to the merchant named by
 * X-Merchant-ID, but a name the caller may not act for is refused first (404 ERR_MERCHANT_002), as
 * on every other route, rather than answered, or changed, as if it were not there (issue 31 item 10).
 */
function owner(ctx: RequestContext): string {
  ctx.caller.acting();
  return ctx.caller.account.merchant_id;
}

export const list: Handler = (ctx) => ({ message: 'faults fetched successfully', data: ctx.store.listFaults(owner(ctx)) });

export const add: Handler = (ctx) => {
  const merchantId = owner(ctx);
  const spec = parseBody(sandboxFaultSchema, ctx.body);
  return { message: 'fault added successfully', data: ctx.store.addFault(merchantId, spec) };
};

/** DELETE /sandbox/faults/ → every fault of the caller, removed. */
export const clear: Handler = (ctx) => ({ message: 'faults cleared successfully', data: ctx.store.clearFaults(owner(ctx)) });

/** DELETE /sandbox/faults/{id}/ → that one (404 ERR_FAULT_002 when unknown or another account's). */
export const remove: Handler = (ctx) => ({ message: 'fault removed successfully', data: ctx.store.clearFaults(owner(ctx), ctx.params.fault_id!)[0] });
