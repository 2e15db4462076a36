// pgw settle list: GET /pg/settlements/ (gateway-api-beyond.md 4.1): --from/--to as
// settlement_completed_date__gte/__lte, page and page_size; --all follows every page.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isRealDate } from '../../api/schemas/dates.js';
import { emit, renderTable } from '../../output/render.js';
import { keyColumns, toCsv } from '../../output/csv.js';
import { formatTime } from '../../output/time.js';
import { fetchListed, moreHint, type Page, type PageOptions, pageWithResults } from '../pages.js';
import { amount } from './amounts.js';

/** The sandbox's limit; the vendor's client reads 250 as the default. */
export const MAX_SETTLEMENT_PAGE_SIZE = 1000;

export interface SettleListOptions extends PageOptions {
  from?: string;
  to?: string;
}

/** beyond 4.1 entry of results. */
export interface SettlementListItem {
  settlement_id?: string;
  utr_number?: string | null;
  settlement_completed_date?: string;
  settlement_amount?: number | string;
  settlement_currency?: string;
  /** spec 2.7's name; pgw's sandbox counts the settlement's captures in it. */
  number_of_transactions?: number;
}

function day(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isRealDate(value.trim())) throw new UsageError(`${flag}: "${value}" is not a date in the form YYYY-MM-DD`);
  return value.trim();
}

/**
 * beyond 4.1: the vendor's client reads the page at the top level of the body; spec-style gateways
 * (pgw's sandbox too) put it under data. data is used when it holds results, else the top level.
 */
export function settlementPage(envelope: Record<string, unknown>, data: unknown): Page<SettlementListItem> {
  if (data !== null && typeof data === 'object' && Array.isArray((data as Page<unknown>).results)) return data as Page<SettlementListItem>;
  return pageWithResults(envelope as Page<SettlementListItem>, 'the settlement list');
}

export async function runSettleList(ctx: Context, opts: SettleListOptions): Promise<void> {
  const output = ctx.output;
  const from = day('--from', opts.from);
  const to = day('--to', opts.to);
  if (from && to && from > to) throw new UsageError(`--to ${to} is before --from ${from}`);
  await ctx.profile();
  const api = await ctx.api();
  const listed = await fetchListed<SettlementListItem>(ctx, opts, MAX_SETTLEMENT_PAGE_SIZE, 'settlements', async (page, pageSize) => {
    const res = await api.send({
      method: 'GET',
      path: '/pg/settlements/',
      // vendor 5.1 / C9: the docs' names and the vendor client's, side by side (a gateway reads one).
      query: { page, page_size: pageSize, from_date: from, to_date: to, settlement_completed_date__gte: from, settlement_completed_date__lte: to },
    });
    return settlementPage(res.envelope, res.data);
  });
  await emit(
    ctx.io,
    output,
    listed.items,
    () => {
      if (listed.items.length === 0) ctx.log('no settlements');
      else ctx.io.out(settlementListTable(listed.items, ctx.io.colorOut, ctx.io.stdoutIsTTY));
      moreHint(ctx, listed, 'settlements', opts.all);
    },
    (csv) => toCsv(keyColumns<SettlementListItem>(['settlement_id', 'utr_number', 'settlement_completed_date', 'settlement_amount', 'settlement_currency', 'forex_rate', 'number_of_transactions'], ['settlement_amount']), listed.items, csv),
  );
}

export function settlementListTable(items: SettlementListItem[], color: boolean, local: boolean): string {
  return renderTable(
    // number_of_transactions counts the captures (spec 2.7): named for that, as settle get names it.
    ['settlement_id', 'completed', 'amount', 'currency', 'captures', 'UTR'],
    items.map((s) => [
      s.settlement_id,
      formatTime(s.settlement_completed_date, local),
      amount(s.settlement_amount),
      amount(s.settlement_amount) === undefined ? undefined : s.settlement_currency,
      typeof s.number_of_transactions === 'number' ? s.number_of_transactions : undefined,
      s.utr_number,
    ]),
    color,
    { columns: [undefined, undefined, { money: true }, undefined, { align: 'right', priority: 2 }] },
  );
}
