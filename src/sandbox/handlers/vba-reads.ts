// The reads of virtual bank accounts (vendor 11.7.2, 11.7.4, 11.7.5): list, get, the account's
// payments and one by UTR. No zod here (a GET must not load the request schemas).
import { parseIsoTime } from '../../api/schemas/dates.js';
import { stamp } from '../db.js';
import { VBA_VALIDATION, validationError } from '../errors.js';
import type { VbaPaymentFilter } from '../store/vba-credits.js';
import { pageOf, pageParam } from './paging.js';
import type { Handler, RequestContext } from './types.js';

/** vendor 11.7.2 and 11.7.4: the example's page_size is 250; at most 1000 (11.7.4). */
export const VBA_DEFAULT_PAGE_SIZE = 250;
export const VBA_MAX_PAGE_SIZE = 1000;

function pages(ctx: RequestContext): { page: number; pageSize: number } {
  try {
    return { page: pageParam(ctx, 'page', 1, 1_000_000_000), pageSize: pageParam(ctx, 'page_size', VBA_DEFAULT_PAGE_SIZE, VBA_MAX_PAGE_SIZE) };
  } catch (err) {
    // The same problem, in the VBA family's code.
    const details = (err as { details?: Record<string, string> }).details ?? {};
    throw validationError(Object.entries(details).map(([path, message]) => ({ path, message: String(message) })), VBA_VALIDATION);
  }
}

const text = (ctx: RequestContext, name: string): string | undefined => {
  const raw = ctx.query.get(name);
  return raw === null || raw.trim() === '' ? undefined : raw.trim();
};

export const listVbas: Handler = (ctx) => {
  const { page, pageSize } = pages(ctx);
  const raw = text(ctx, 'vba_status');
  const status = raw?.toUpperCase();
  if (status !== undefined && status !== 'ACTIVE' && status !== 'INACTIVE') {
    throw validationError([{ path: 'vba_status', message: 'must be ACTIVE or INACTIVE' }], VBA_VALIDATION);
  }
  const { count, results } = ctx.store.listVbas(ctx.caller.scope, status, page, pageSize);
  const query = new URLSearchParams();
  if (status) query.set('vba_status', status);
  return { message: 'Request processed successfully.', data: { ...pageOf(ctx, '/pg/vba/', page, pageSize, count, query), results } };
};

export const getVba: Handler = (ctx) => ({
  message: 'VBA details fetched successfully',
  data: ctx.store.vba(ctx.caller.scope, ctx.params.virtual_account_id!),
});

/**
 * An ISO 8601 date-time query value (vendor 11.7.4) as the store's stamp; a bad one is 400. Both
 * ends are inclusive (11.7.4): an end takes in the whole millisecond it names, since the sandbox
 * stamps in microseconds and a time is written to the millisecond at most.
 */
function timeParam(ctx: RequestContext, name: string, end = false): string | undefined {
  const raw = text(ctx, name);
  if (raw === undefined) return undefined;
  const ms = parseIsoTime(raw);
  if (ms === undefined) throw validationError([{ path: name, message: 'must be an ISO 8601 date-time with a zone, e.g. 2026-11-28T00:00:00Z' }], VBA_VALIDATION);
  return stamp(ms * 1000 + (end ? 999 : 0));
}

const FILTERS = ['created_at_start', 'created_at_end', 'updated_at_start', 'updated_at_end', 'since_id'] as const;

export const listVbaPayments: Handler = (ctx) => {
  const { page, pageSize } = pages(ctx);
  const filter: VbaPaymentFilter = {
    createdFrom: timeParam(ctx, 'created_at_start'),
    createdTo: timeParam(ctx, 'created_at_end', true),
    updatedFrom: timeParam(ctx, 'updated_at_start'),
    updatedTo: timeParam(ctx, 'updated_at_end', true),
    sinceId: text(ctx, 'since_id'),
  };
  const id = ctx.params.virtual_account_id!;
  const { count, results } = ctx.store.vbaPayments(ctx.caller.scope, id, filter, page, pageSize);
  const query = new URLSearchParams();
  for (const name of FILTERS) if (text(ctx, name) !== undefined) query.set(name, text(ctx, name)!);
  return { message: 'VBA payments retrieved successfully', data: { ...pageOf(ctx, `/pg/vba/${id}/payments/`, page, pageSize, count, query), results } };
};

export const getVbaPaymentByUtr: Handler = (ctx) => {
  const utr = text(ctx, 'utr');
  if (utr === undefined) throw validationError([{ path: 'utr', message: 'required' }], VBA_VALIDATION);
  return { message: 'VBA payment retrieved successfully', data: ctx.store.vbaPaymentByUtr(ctx.caller.scope, ctx.params.virtual_account_id!, utr) };
};
