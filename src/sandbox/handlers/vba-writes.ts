// The changes to virtual bank accounts (vendor 11.7.1, 11.7.3) and the sandbox's simulate-transfer
// (11.7.6), each body checked with the schema `pgw vba` and `pgw sandbox vba transfer` use.
import { vbaCreateSchema, vbaEditSchema, vbaStatusSchema, vbaTransferSchema } from '../../api/schemas/vba.js';
import { SandboxError, VBA_VALIDATION } from '../errors.js';
import type { Handler } from './types.js';
import { parseBody } from './util.js';

/** vendor 11.7.1: body optional; 200 (not 201) and data an array of one account. */
export const createVba: Handler = (ctx) => {
  const body = parseBody(vbaCreateSchema, ctx.body ?? {}, VBA_VALIDATION);
  return { message: 'VBA created successfully', data: [ctx.store.createVba(ctx.caller.acting(), body)] };
};

export const editVba: Handler = (ctx) => {
  const body = parseBody(vbaEditSchema, ctx.body ?? {}, VBA_VALIDATION);
  return { message: 'VBA updated successfully', data: ctx.store.editVba(ctx.caller.scope, ctx.params.virtual_account_id!, body) };
};

export const setVbaStatus: Handler = (ctx) => {
  const { status } = parseBody(vbaStatusSchema, ctx.body ?? {}, VBA_VALIDATION);
  return { message: 'VBA status updated successfully', data: ctx.store.setVbaStatus(ctx.caller.scope, ctx.params.virtual_account_id!, status) };
};

/** vendor 11.7.6: sandbox only; production answers 403 (the sandbox's own code: none is documented). */
export const simulateTransfer: Handler = (ctx) => {
  if (ctx.production) {
    throw new SandboxError(403, 'ERR_VBA_004', 'VBA transfer simulation is not available in production', {
      error: 'VBA transfer simulation is not available in production',
    });
  }
  const body = parseBody(vbaTransferSchema, ctx.body, VBA_VALIDATION);
  return { message: 'VBA transfer simulation processed', data: ctx.store.simulateVbaTransfer(ctx.caller.scope, body, ctx.apiVersion) };
};
