// pgw refund list: GET /pg/refunds/ (vendor 2.3) with payment_id, reference_id, from_date,
// to_date; page and page_size; --all follows every page. The gateway answers the page without
// the envelope (the client reads it either way).
import type { Context } from '../../context.js';
import { emit, renderTable } from '../../output/render.js';
import { keyColumns, toCsv } from '../../output/csv.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { fetchListed, moreHint, type Page, type PageOptions, pageWithResults } from '../pages.js';
import { dayRange } from '../dates.js';
import { idArgument } from '../parse.js';
import type { Refund } from './view.js';

export const MAX_REFUND_PAGE_SIZE = 1000;

export interface RefundListOptions extends PageOptions {
  paymentId?: string;
  referenceId?: string;
  from?: string;
  to?: string;
}

/** vendor 2.3's required fields first, then what ties a refund to its order. */
export const REFUND_CSV_KEYS = ['refund_id', 'payment_id', 'order_id', 'refund_amount', 'currency', 'refund_status', 'message', 'bank_ref_num', 'refunded_at', 'created_at'];

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
  await emit(
    ctx.io,
    output,
    listed.items,
    () => {
      if (listed.items.length === 0) ctx.log('no refunds');
      else ctx.io.out(refundListTable(listed.items, ctx.io.colorOut, ctx.io.stdoutIsTTY));
      moreHint(ctx, listed, 'refunds', opts.all);
    },
    (csv) => toCsv(keyColumns<Refund>(REFUND_CSV_KEYS), listed.items, csv),
  );
}

export function refundListTable(items: Refund[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['refund_id', 'status', 'amount', 'payment_id', 'created'],
    items.map((r) => [
      r.refund_id,
      theme.status(r.refund_status),
      r.refund_amount === undefined || r.refund_amount === null ? undefined : `${r.refund_amount} ${r.currency ?? ''}`.trim(),
      r.payment_id,
      formatTime(r.created_at, local),
    ]),
    color,
    { columns: [undefined, undefined, { money: true }] },
  );
}
