// Partner operations on sub-merchants (spec 4.8-4.10). The server lets only PSPs in.
import { merchantCreateSchema, merchantMergedIssues, merchantUpdateSchema } from '../../api/schemas/merchants.js';
import { problemsFrom } from '../../api/schemas/common.js';
import { MERCHANT_VALIDATION, validationError } from '../errors.js';
import type { Handler, RequestContext } from './types.js';
import { parseBody } from './util.js';

/** spec part 8: page_size 250 seen in a response, so that is the default. */
export const DEFAULT_PAGE_SIZE = 250;
export const MAX_PAGE_SIZE = 1000;

function positiveInt(ctx: RequestContext, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw validationError([{ path: name, message: `must be a whole number from 1 to ${max}` }]);
  }
  return Number(raw);
}

export const listMerchants: Handler = (ctx) => {
  const page = positiveInt(ctx, 'page', 1, 1_000_000_000);
  const pageSize = positiveInt(ctx, 'page_size', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const { count, results } = ctx.store.listSubMerchants(ctx.caller.account.merchant_id, page, pageSize);
  const at = (p: number) => `${ctx.publicBaseUrl}/partners/merchants/?page=${p}&page_size=${pageSize}`;
  return {
    message: 'sub-merchants fetched successfully',
    data: {
      count,
      page,
      page_size: pageSize,
      next: page * pageSize < count ? at(page + 1) : null,
      previous: page > 1 ? at(Math.min(page - 1, Math.max(1, Math.ceil(count / pageSize)))) : null,
      results,
    },
  };
};

/**
 * beyond 5.2: the vendor's client reads the new ID at the top level (merchant_id, else id); spec
 * clients read data.id. Both find it (docs/sandbox.md).
 */
export const createMerchant: Handler = (ctx) => {
  const body = parseBody(merchantCreateSchema, ctx.body, MERCHANT_VALIDATION);
  const data = ctx.store.createSubMerchant(ctx.caller.account.merchant_id, body);
  // vendor 7.1: 201, this message.
  return { status: 201, message: 'Sub-merchant created successfully', data, top: { merchant_id: data.id, id: data.id } };
};

export const updateMerchant: Handler = (ctx) => {
  const body = parseBody(merchantUpdateSchema, ctx.body, MERCHANT_VALIDATION);
  return {
    message: 'merchant updated successfully',
    data: ctx.store.updateSubMerchant(ctx.caller.account.merchant_id, ctx.params.merchant_id!, body, (merged) =>
      problemsFrom({ issues: merchantMergedIssues(merged) }),
    ),
  };
};
