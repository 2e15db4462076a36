// Partner operations on sub-merchants (spec 4.8-4.10). The server lets only PSPs in.
import { merchantContactSchema, merchantCreateSchema, merchantMergedIssues, merchantUpdateSchema, type MerchantContact } from '../../api/schemas/merchants.js';
import { problemsFrom, validate } from '../../api/schemas/common.js';
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

/** vendor 7.2: ordering by created_at or last_updated_at, `-` for descending. */
const ORDERINGS = ['created_at', '-created_at', 'last_updated_at', '-last_updated_at'];

export const listMerchants: Handler = (ctx) => {
  const page = positiveInt(ctx, 'page', 1, 1_000_000_000);
  const pageSize = positiveInt(ctx, 'page_size', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const search = ctx.query.get('search')?.trim() || undefined;
  const ordering = ctx.query.get('ordering')?.trim() || undefined;
  if (ordering !== undefined && !ORDERINGS.includes(ordering)) {
    throw validationError([{ path: 'ordering', message: `must be one of ${ORDERINGS.join(', ')}` }], MERCHANT_VALIDATION);
  }
  const { count, results } = ctx.store.listSubMerchants(ctx.caller.account.merchant_id, page, pageSize, { search, ordering });
  const extra = new URLSearchParams();
  if (search) extra.set('search', search);
  if (ordering) extra.set('ordering', ordering);
  const more = extra.toString() === '' ? '' : `&${extra.toString()}`;
  const at = (p: number) => `${ctx.publicBaseUrl}/partners/merchants/?page=${p}&page_size=${pageSize}${more}`;
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
/** vendor 7.1: email and phone_number of company_details, checked and kept (merchantContactSchema). */
function contactOf(body: unknown): MerchantContact {
  const company = body !== null && typeof body === 'object' ? (body as { company_details?: unknown }).company_details : undefined;
  if (company === null || typeof company !== 'object') return {};
  const { email, phone_number } = company as Record<string, unknown>;
  const r = validate(merchantContactSchema, { email, phone_number });
  if (!r.ok) throw validationError(r.problems.map((p) => ({ ...p, path: `company_details.${p.path}` })), MERCHANT_VALIDATION);
  return Object.fromEntries(Object.entries(r.data).filter(([, v]) => v !== undefined));
}

export const createMerchant: Handler = (ctx) => {
  const contact = contactOf(ctx.body);
  const parsed = parseBody(merchantCreateSchema, ctx.body, MERCHANT_VALIDATION);
  const body = { ...parsed, company_details: { ...parsed.company_details, ...contact } };
  const data = ctx.store.createSubMerchant(ctx.caller.account.merchant_id, body);
  // vendor 7.1: 201, this message.
  return { status: 201, message: 'Sub-merchant created successfully', data, top: { merchant_id: data.id, id: data.id } };
};

export const updateMerchant: Handler = (ctx) => {
  const contact = contactOf(ctx.body);
  const parsed = parseBody(merchantUpdateSchema, ctx.body, MERCHANT_VALIDATION);
  const body = Object.keys(contact).length === 0 ? parsed : { ...parsed, company_details: { ...parsed.company_details, ...contact } };
  return {
    message: 'merchant updated successfully',
    data: ctx.store.updateSubMerchant(ctx.caller.account.merchant_id, ctx.params.merchant_id!, body, (merged) =>
      problemsFrom({ issues: merchantMergedIssues(merged) }),
    ),
  };
};
