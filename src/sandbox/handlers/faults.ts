// GET/POST/DELETE /sandbox/faults/ (issue 24): the caller's own faults; another account's are
// never seen, matched or removed (faults are per account, so one team's test cannot break another's).
import { sandboxFaultSchema } from '../../api/schemas/sandbox.js';
import type { Handler } from './types.js';
import { parseBody } from './util.js';

export const list: Handler = (ctx) => ({ message: 'faults fetched successfully', data: ctx.store.listFaults(ctx.caller.account.merchant_id) });

export const add: Handler = (ctx) => {
  const spec = parseBody(sandboxFaultSchema, ctx.body);
  return { message: 'fault added successfully', data: ctx.store.addFault(ctx.caller.account.merchant_id, spec) };
};

/** DELETE /sandbox/faults/ → every fault of the caller, removed. */
export const clear: Handler = (ctx) => ({ message: 'faults cleared successfully', data: ctx.store.clearFaults(ctx.caller.account.merchant_id) });

/** DELETE /sandbox/faults/{id}/ → that one (404 ERR_FAULT_002 when unknown or another account's). */
export const remove: Handler = (ctx) => ({ message: 'fault removed successfully', data: ctx.store.clearFaults(ctx.caller.account.merchant_id, ctx.params.fault_id!)[0] });
