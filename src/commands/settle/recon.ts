// pgw settle recon <settlement_id>: GET /pg/settlements/{uid}/recon/ (vendor 5.2), one row per
// capture, refund and chargeback of the settlement, newest first; --all follows every page. For
// finance teams: -o csv (RFC 4180, a header row, amounts exactly as the gateway gives them).
import type { Context } from '../../context.js';
import { emit, renderTable } from '../../output/render.js';
import { keyColumns, toCsv } from '../../output/csv.js';
import { formatTime } from '../../output/time.js';
import { fetchListed, moreHint, type Page, type PageOptions, pageWithResults } from '../pages.js';
import { idArgument } from '../parse.js';
import { displayAmount, displayMoney } from '../../money.js';

export const MAX_RECON_PAGE_SIZE = 1000;

export interface ReconRow {
  settlement_type?: string;
  transaction_id?: string;
  settlement_id?: string;
  settlement_completed_at?: string;
  settlement_currency?: string;
  transaction_currency?: string;
  transaction_amount?: string | number;
  merchant_net_amount?: string | number;
  total_processing_fee?: string | number;
  total_service_tax?: string | number;
  mop_type?: string | null;
  created_at?: string;
}

/** vendor 5.2's fields in its order, then created_at (the sandbox's; absent elsewhere: an empty field). */
export const RECON_CSV_KEYS = [
  'settlement_type',
  'transaction_id',
  'settlement_id',
  'settlement_completed_at',
  'settlement_currency',
  'transaction_currency',
  'transaction_amount',
  'merchant_net_amount',
  'total_processing_fee',
  'total_service_tax',
  'mop_type',
  'created_at',
];

export async function runSettleRecon(ctx: Context, opts: PageOptions & { settlementId: string }): Promise<void> {
  const output = ctx.output;
  const id = idArgument('settlement_id', opts.settlementId);
  await ctx.profile();
  const api = await ctx.api();
  const listed = await fetchListed<ReconRow>(ctx, opts, MAX_RECON_PAGE_SIZE, 'transactions', async (page, pageSize) => {
    const data = await api.request<Page<ReconRow>>({ method: 'GET', path: `/pg/settlements/${id}/recon/`, query: { page, page_size: pageSize } });
    return pageWithResults(data, 'the recon answer');
  });
  await emit(
    ctx.io,
    output,
    listed.items,
    () => {
      if (listed.items.length === 0) ctx.log(`no transactions in ${id} for this account`);
      else ctx.io.out(reconTable(listed.items, ctx.io.colorOut, ctx.io.stdoutIsTTY));
      moreHint(ctx, listed, 'transactions', opts.all);
    },
    (csv) => toCsv(keyColumns<ReconRow>(RECON_CSV_KEYS, ['transaction_amount', 'merchant_net_amount', 'total_processing_fee', 'total_service_tax']), listed.items, csv),
  );
}

/** The one money form (money.ts: 2 decimals); recon rows name two currencies, so each stays in its cell. */
const withCurrency = (v: string | number | undefined, c: string | undefined) => displayMoney(v, c);

export function reconTable(rows: ReconRow[], color: boolean, local: boolean): string {
  return renderTable(
    // `gst`, as every settlement table names it (issue 41; the API's total_service_tax).
    ['type', 'transaction_id', 'amount', 'fee', 'gst', 'net', 'method', 'created'],
    rows.map((r) => [
      r.settlement_type,
      r.transaction_id,
      withCurrency(r.transaction_amount, r.transaction_currency),
      displayAmount(r.total_processing_fee),
      displayAmount(r.total_service_tax),
      withCurrency(r.merchant_net_amount, r.settlement_currency),
      r.mop_type,
      formatTime(r.created_at ?? r.settlement_completed_at, local),
    ]),
    color,
    { columns: [{ priority: 9 }, { keep: true, priority: 10 }, { money: true, priority: 8 }, { money: true, priority: 4 }, { money: true, priority: 3 }, { money: true, priority: 7 }, { priority: 2 }, { priority: 5 }] },
  );
}
