// pgw refund list: GET /pg/refunds/ (vendor 2.3) with payment_id, reference_id, from_date,
// to_date; page and page_size; --all follows every page. The gateway answers the page without
// the envelope (the client reads it either way).
import type { Context } from '../../context.js';
import { emit, wantsJson } from '../../output/render.js';
import { keyColumns, toCsv, type CsvColumn } from '../../output/csv.js';
import { fetchListed, moreHint, type Page, type PageOptions, pageWithResults } from '../pages.js';
import { dayRange } from '../dates.js';
import { idArgument } from '../parse.js';
import { entrySettlement, refundListTable, type Refund } from './view.js';
import { withReferences } from './references.js';

export const MAX_REFUND_PAGE_SIZE = 1000;

export interface RefundListOptions extends PageOptions {
  paymentId?: string;
  referenceId?: string;
  from?: string;
  to?: string;
}

/**
 * vendor 2.3's required fields first, then what ties a refund to its order; the order's
 * reference_id last (added later: a script that reads the columns by position keeps working).
 */
export const REFUND_CSV_KEYS = ['refund_id', 'payment_id', 'order_id', 'refund_amount', 'currency', 'refund_status', 'message', 'bank_ref_num', 'refunded_at', 'created_at', 'reference_id'];

/**
 * The keys' columns, refund_amount in the one money form (2 decimals, money.ts): `2499` is written
 * `2499.00`; then the refund's settlement state and settlement_id where the gateway gives them on
 * the entry (issue 41; beyond 2.3's values), last so earlier positions hold.
 */
export const REFUND_CSV: CsvColumn<Refund>[] = [
  ...keyColumns<Refund>(REFUND_CSV_KEYS, ['refund_amount']),
  { header: 'settlement_status', value: (r) => entrySettlement(r)?.settlement_status },
  { header: 'settlement_id', value: (r) => entrySettlement(r)?.settlement_details?.settlement_id },
];

export async function runRefundList(ctx: Context, opts: RefundListOptions): Promise<void> {
  const output = ctx.output;
  const { from, to } = dayRange(opts.from, opts.to);
  const paymentId = opts.paymentId === undefined ? undefined : idArgument('--payment-id', opts.paymentId);
  const referenceId = opts.referenceId?.trim() || undefined;
  await ctx.profile();
  const api = await ctx.api();
  const listed = await fetchListed<Refund>(ctx, opts, MAX_REFUND_PAGE_SIZE, 'refunds', async (page, pageSize) => {
    const data = await api.request<Page<Refund>>({
      method: 'GET',
      path: '/pg/refunds/',
      query: { page, page_size: pageSize, payment_id: paymentId, reference_id: referenceId, from_date: from, to_date: to },
    });
    return pageWithResults(data, 'the refund list');
  });
  // The readable views name each refund's order reference (references.ts); JSON is left as answered.
  const readable = wantsJson(output) ? listed.items : await withReferences(api, listed.items);
  await emit(
    ctx.io,
    output,
    listed.items,
    () => {
      if (listed.items.length === 0) ctx.log('no refunds');
      else ctx.io.out(refundListTable(readable, ctx.io.colorOut, ctx.io.stdoutIsTTY));
      moreHint(ctx, listed, 'refunds', opts.all);
    },
    (csv) => toCsv(REFUND_CSV, readable, csv),
  );
}
