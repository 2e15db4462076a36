// The reads the vendor's client uses beyond the spec (beyond 1, 2.2, 2.3, 3.2, 4.1, 4.2, 5.1), with
// the spec's envelope and scoping: anything outside the caller's scope is not found. No zod here.
import { isRealDate } from '../../api/schemas/dates.js';
import { BareError, validationError } from '../errors.js';
import type { Handler } from './types.js';
import { pageOf, pageParam } from './paging.js';

export const getOrder: Handler = (ctx) => ({
  message: 'Order fetched successfully',
  data: ctx.store.orderDetails(ctx.caller.scope, ctx.params.order_id!, ctx.publicBaseUrl),
});

export const getOrderStatus: Handler = (ctx) => ({
  message: 'Order status fetched successfully',
  data: ctx.store.orderStatus(ctx.caller.scope, ctx.params.order_id!),
});

export const getRefund: Handler = (ctx) => ({
  message: 'Refund details retrieved successfully',
  data: ctx.store.refund(ctx.caller.scope, ctx.params.refund_id!),
});

export const getRefundSettlement: Handler = (ctx) => ({
  message: 'refund settlement fetched successfully',
  data: ctx.store.refundSettlement(ctx.caller.scope, ctx.params.refund_id!),
});

export const getPaymentSettlement: Handler = (ctx) => ({
  message: 'payment settlement fetched successfully',
  data: ctx.store.paymentSettlement(ctx.caller.scope, ctx.params.payment_id!),
});

/** beyond 3.2: the vendor's client sends page_size 1-100; the sandbox's default is the client's 10. */
export const LINKS_DEFAULT_PAGE_SIZE = 10;
export const LINKS_MAX_PAGE_SIZE = 100;

export const listLinks: Handler = (ctx) => {
  const page = pageParam(ctx, 'page', 1, 1_000_000_000);
  const pageSize = pageParam(ctx, 'page_size', LINKS_DEFAULT_PAGE_SIZE, LINKS_MAX_PAGE_SIZE);
  const { count, results } = ctx.store.listLinks(ctx.caller.scope, page, pageSize, ctx.publicBaseUrl);
  // vendor N10 / 9.2: a page past the last is 500 with the integer code 40350 and details.error.
  if (page > 1 && (page - 1) * pageSize >= count) {
    throw new BareError(500, { success: false, error: { code: 40350, message: 'Failed to list payment links', details: { error: 'Invalid page.' } } });
  }
  return { message: 'payment links fetched successfully', data: { ...pageOf(ctx, '/pg/payment-links/', page, pageSize, count), results } };
};

/** vendor 2.3: the example's page_size is 250; the largest page as elsewhere. */
export const REFUNDS_DEFAULT_PAGE_SIZE = 250;
export const REFUNDS_MAX_PAGE_SIZE = 1000;

function textParam(ctx: Parameters<Handler>[0], name: string): string | undefined {
  const raw = ctx.query.get(name);
  return raw === null || raw.trim() === '' ? undefined : raw.trim();
}

/**
 * GET /pg/refunds/ (vendor 2.3): payment_id, reference_id, from_date / to_date (creation days),
 * merchant_id. The docs answer without the envelope (count, page … at the top level); the page is
 * sent there and, as everywhere else in the sandbox, under data (as the settlements list).
 */
export const listRefunds: Handler = (ctx) => {
  const page = pageParam(ctx, 'page', 1, 1_000_000_000);
  const pageSize = pageParam(ctx, 'page_size', REFUNDS_DEFAULT_PAGE_SIZE, REFUNDS_MAX_PAGE_SIZE);
  const fromDay = dayParam(ctx, 'from_date');
  const toDay = dayParam(ctx, 'to_date');
  if (fromDay && toDay && fromDay > toDay) throw validationError([{ path: 'to_date', message: 'must not be before from_date' }]);
  const filter = {
    payment_id: textParam(ctx, 'payment_id'),
    reference_id: textParam(ctx, 'reference_id'),
    merchant_id: textParam(ctx, 'merchant_id'),
    fromDay,
    toDay,
  };
  const { count, results } = ctx.store.listRefunds(ctx.caller.scope, filter, page, pageSize);
  const query = new URLSearchParams();
  for (const key of ['payment_id', 'reference_id', 'merchant_id'] as const) if (filter[key] !== undefined) query.set(key, filter[key]!);
  if (fromDay) query.set('from_date', fromDay);
  if (toDay) query.set('to_date', toDay);
  const data = { ...pageOf(ctx, '/pg/refunds/', page, pageSize, count, query), results };
  return { message: 'Refunds retrieved successfully', data, top: data };
};

/** vendor 3.1: the example's next link carries page_size 10. */
export const PAYMENTS_DEFAULT_PAGE_SIZE = 10;
export const PAYMENTS_MAX_PAGE_SIZE = 1000;
// invoice_number is not among vendor 3.1's filters, though every entry carries it: honoured here
// (tolerant where the spec is silent, docs/sandbox.md), as `pgw payment list --invoice-number` sends it.
const PAYMENT_TEXT_FILTERS = ['currency', 'merchant_id', 'payment_id', 'order_id', 'reference_id', 'invoice_number', 'buyer_name', 'mop_type', 'status'] as const;
const PAYMENT_STATUSES = ['pending', 'captured', 'failed'];
const PAYMENT_MOPS = ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr'];

/** GET /pg/payments/ (vendor 3.1): every documented filter and invoice_number, paged, in the envelope. */
export const listPayments: Handler = (ctx) => {
  const page = pageParam(ctx, 'page', 1, 1_000_000_000);
  const pageSize = pageParam(ctx, 'page_size', PAYMENTS_DEFAULT_PAGE_SIZE, PAYMENTS_MAX_PAGE_SIZE);
  const fromDay = dayParam(ctx, 'from_created_at');
  const toDay = dayParam(ctx, 'to_created_at');
  if (fromDay && toDay && fromDay > toDay) throw validationError([{ path: 'to_created_at', message: 'must not be before from_created_at' }]);
  const filter: Record<string, string | undefined> = {};
  for (const key of PAYMENT_TEXT_FILTERS) filter[key] = textParam(ctx, key);
  if (filter.status && !PAYMENT_STATUSES.includes(filter.status.toLowerCase())) {
    throw validationError([{ path: 'status', message: `must be one of ${PAYMENT_STATUSES.join(', ')}` }]);
  }
  if (filter.mop_type && !PAYMENT_MOPS.includes(filter.mop_type.toLowerCase())) {
    throw validationError([{ path: 'mop_type', message: `must be one of ${PAYMENT_MOPS.join(', ')}` }]);
  }
  const { count, results } = ctx.store.listPayments(ctx.caller.scope, { ...filter, fromDay, toDay }, page, pageSize);
  const query = new URLSearchParams();
  for (const key of PAYMENT_TEXT_FILTERS) if (filter[key] !== undefined) query.set(key, filter[key]!);
  if (fromDay) query.set('from_created_at', fromDay);
  if (toDay) query.set('to_created_at', toDay);
  return { message: 'Domestic payment requests retrieved successfully', data: { ...pageOf(ctx, '/pg/payments/', page, pageSize, count, query), results } };
};

/** beyond 4.1: the client's default page_size is 250 (spec part 8's too). */
export const SETTLEMENTS_DEFAULT_PAGE_SIZE = 250;
export const SETTLEMENTS_MAX_PAGE_SIZE = 1000;

function dayParam(ctx: Parameters<Handler>[0], name: string): string | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!isRealDate(raw)) throw validationError([{ path: name, message: 'must be a real date in the form YYYY-MM-DD' }]);
  return raw;
}

function oneDay(ctx: Parameters<Handler>[0], docs: string, client: string): string | undefined {
  const a = dayParam(ctx, docs);
  const b = dayParam(ctx, client);
  if (a && b && a !== b) throw validationError([{ path: client, message: `must equal ${docs} when both are given` }]);
  return a ?? b;
}

/** vendor 5.2: page_size default 250, at most 1000. */
export const RECON_DEFAULT_PAGE_SIZE = 250;
export const RECON_MAX_PAGE_SIZE = 1000;

/**
 * GET /pg/settlements/{uid}/recon/ (vendor 5.2): the settlement's captures, refunds and
 * chargebacks as one list, newest first. A PSP finds its sub-merchants' settlements; X-Merchant-ID
 * narrows the rows (count is the caller's rows).
 */
export const getRecon: Handler = (ctx) => {
  const page = pageParam(ctx, 'page', 1, 1_000_000_000);
  const pageSize = pageParam(ctx, 'page_size', RECON_DEFAULT_PAGE_SIZE, RECON_MAX_PAGE_SIZE);
  const id = ctx.params.settlement_id!;
  const { count, results } = ctx.store.recon(ctx.caller.reach, ctx.caller.scope, id, page, pageSize);
  return {
    message: 'Settlement transactions retrieved successfully',
    data: { ...pageOf(ctx, `/pg/settlements/${encodeURIComponent(id)}/recon/`, page, pageSize, count), results },
  };
};

/**
 * beyond 4.1: the vendor's client reads the page at the top level of the body (not under data) and
 * never checks success; spec clients read data. So the page is in both places (docs/sandbox.md).
 */
export const listSettlements: Handler = (ctx) => {
  const page = pageParam(ctx, 'page', 1, 1_000_000_000);
  const pageSize = pageParam(ctx, 'page_size', SETTLEMENTS_DEFAULT_PAGE_SIZE, SETTLEMENTS_MAX_PAGE_SIZE);
  // vendor 5.1 / C9: the docs' from_date / to_date and the client's __gte / __lte, either pair;
  // both given for one end must agree.
  const fromDay = oneDay(ctx, 'from_date', 'settlement_completed_date__gte');
  const toDay = oneDay(ctx, 'to_date', 'settlement_completed_date__lte');
  if (fromDay && toDay && fromDay > toDay) {
    throw validationError([{ path: 'to_date', message: 'must not be before from_date' }]);
  }
  const { count, results } = ctx.store.listSettlements(ctx.caller.scope, { fromDay, toDay }, page, pageSize);
  const filters = new URLSearchParams();
  if (fromDay) filters.set('settlement_completed_date__gte', fromDay);
  if (toDay) filters.set('settlement_completed_date__lte', toDay);
  const data = { ...pageOf(ctx, '/pg/settlements/', page, pageSize, count, filters), results };
  return { message: 'settlements fetched successfully', data, top: data };
};

/** beyond 5.1: a PSP's own sub-merchant; bank account number masked to its last 4. */
export const getMerchant: Handler = (ctx) => ({
  message: 'merchant fetched successfully',
  data: ctx.store.subMerchant(ctx.caller.account.merchant_id, ctx.params.merchant_id!),
});
