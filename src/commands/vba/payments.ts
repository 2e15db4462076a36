// pgw vba payments <virtual_account_id>: GET /pg/vba/{id}/payments/ (vendor 11.7.4) with the
// creation bounds and since_id, or with --utr the one credit GET …/payment-by-utr/ finds (11.7.5).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isRealDate, parseIsoTime } from '../../api/schemas/dates.js';
import { UTR_PATTERN } from '../../api/schemas/limits.js';
import { emit } from '../../output/render.js';
import { fetchListed, moreHint, pageWithResults, type Page, type PageOptions } from '../pages.js';
import { idArgument } from '../parse.js';
import { vbaPaymentCsv, vbaPaymentTable, type VbaPayment } from './view.js';
import { MAX_VBA_PAGE_SIZE } from './list.js';

export interface VbaPaymentsOptions extends PageOptions {
  id: string;
  utr?: string;
  from?: string;
  to?: string;
  since?: string;
}

/**
 * --from/--to → the ISO time 11.7.4 takes (inclusive): a day is its first moment, or for --to its
 * last millisecond (whole UTC days, as the other lists' --to); an ISO time is sent as given.
 */
export function boundTime(flag: '--from' | '--to', value: string): string {
  const text = value.trim();
  if (isRealDate(text)) return flag === '--from' ? `${text}T00:00:00Z` : `${text}T23:59:59.999Z`;
  if (parseIsoTime(text) !== undefined) return text;
  throw new UsageError(`${flag}: "${value}" is not a day (YYYY-MM-DD) or an ISO 8601 time with a zone`);
}

export async function runVbaPayments(ctx: Context, opts: VbaPaymentsOptions): Promise<void> {
  const id = idArgument('virtual_account_id', opts.id);
  const output = ctx.output;
  if (opts.utr !== undefined) {
    const utr = opts.utr.trim();
    if (!UTR_PATTERN.test(utr)) throw new UsageError(`--utr: "${opts.utr}" is not a UTR (letters, digits, - or _)`);
    for (const [flag, v] of [['--from', opts.from], ['--to', opts.to], ['--since', opts.since], ['--page', opts.page], ['--all', opts.all]] as const) {
      if (v !== undefined && v !== false) throw new UsageError(`--utr finds one credit: ${flag} does not go with it`);
    }
    await ctx.profile();
    const api = await ctx.api();
    const one = await api.request<VbaPayment>({ method: 'GET', path: `/pg/vba/${id}/payment-by-utr/`, query: { utr } });
    await emit(ctx.io, output, one, () => ctx.io.out(vbaPaymentTable([one], ctx.io.colorOut, ctx.io.stdoutIsTTY)), (csv) => vbaPaymentCsv([one], csv));
    return;
  }
  const from = opts.from === undefined ? undefined : boundTime('--from', opts.from);
  const to = opts.to === undefined ? undefined : boundTime('--to', opts.to);
  if (from && to && parseIsoTime(from)! > parseIsoTime(to)!) throw new UsageError('--from is after --to');
  const since = opts.since === undefined ? undefined : idArgument('--since', opts.since);
  await ctx.profile();
  const api = await ctx.api();
  const listed = await fetchListed<VbaPayment>(ctx, opts, MAX_VBA_PAGE_SIZE, 'credits', async (page, pageSize) => {
    const data = await api.request<Page<VbaPayment>>({
      method: 'GET',
      path: `/pg/vba/${id}/payments/`,
      query: { page, page_size: pageSize, created_at_start: from, created_at_end: to, since_id: since },
    });
    return pageWithResults(data, 'the virtual account payments');
  });
  await emit(
    ctx.io,
    output,
    listed.items,
    () => {
      if (listed.items.length === 0) ctx.log(`no credits on virtual account ${id}${from || to || since ? ' in that range' : ''}`);
      else ctx.io.out(vbaPaymentTable(listed.items, ctx.io.colorOut, ctx.io.stdoutIsTTY));
      moreHint(ctx, listed, 'credits', opts.all);
    },
    (csv) => vbaPaymentCsv(listed.items, csv),
  );
}
