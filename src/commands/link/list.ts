// pgw link list: GET /pg/payment-links/ (gateway-api-beyond.md 3.2) with page and page_size;
// --all follows every page.
import type { Context } from '../../context.js';
import { emit, renderTable } from '../../output/render.js';
import { toCsv, type CsvColumn } from '../../output/csv.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { fetchListed, moreHint, type Page, type PageOptions, pageWithResults } from '../pages.js';
import { displayAmount } from '../../money.js';

/** beyond 3.2: the vendor's client sends 1-100. */
export const MAX_LINK_PAGE_SIZE = 100;
/** beyond 3.2: the client's default page size. */
export const DEFAULT_LINK_PAGE_SIZE = 10;

/**
 * beyond 3.2: the vendor's client always sends page and page_size, so pgw does too (issue 21 item
 * 13): --page-size, else the client's default, or with --all from the first page the largest size
 * it sends (fewer requests; with --page the default, so page numbers keep their meaning).
 */
export function linkPageSize(pageSize: number | undefined, opts: PageOptions): number {
  if (pageSize !== undefined) return pageSize;
  return opts.all && opts.page === undefined ? MAX_LINK_PAGE_SIZE : DEFAULT_LINK_PAGE_SIZE;
}

/** beyond 3.2 entry of results. */
export interface LinkListItem {
  payment_id?: string;
  link_id?: string;
  status?: string;
  reference_id?: string;
  buyer?: { name?: string | null; email?: string | null } | null;
  amount?: string | number;
  currency?: string;
  payment_link?: string;
  created_at?: string;
}

export async function runLinkList(ctx: Context, opts: PageOptions): Promise<void> {
  const output = ctx.output;
  await ctx.profile();
  const api = await ctx.api();
  const listed = await fetchListed<LinkListItem>(ctx, opts, MAX_LINK_PAGE_SIZE, 'payment links', async (page, pageSize) => {
    const data = await api.request<Page<LinkListItem>>({ method: 'GET', path: '/pg/payment-links/', query: { page, page_size: linkPageSize(pageSize, opts) } });
    return pageWithResults(data, 'the link list');
  });
  await emit(
    ctx.io,
    output,
    listed.items,
    () => {
      if (listed.items.length === 0) ctx.log(opts.page === undefined ? 'no payment links' : `no payment links on page ${listed.first}`);
      else ctx.io.out(linkListTable(listed.items, ctx.io.colorOut, ctx.io.stdoutIsTTY));
      moreHint(ctx, listed, 'links', opts.all);
    },
    (csv) => toCsv(LINK_CSV, listed.items, csv),
  );
}

/** An amount object (vendor 6's docs shape) gives its amount and currency; else the plain fields. */
const amountOf = (l: LinkListItem): unknown => (l.amount !== null && typeof l.amount === 'object' ? (l.amount as { amount?: unknown }).amount : l.amount);
const currencyOf = (l: LinkListItem): unknown => (l.amount !== null && typeof l.amount === 'object' ? (l.amount as { currency?: unknown }).currency : l.currency);

/** -o csv: the link's own fields, the amount in the one money form (2 decimals, money.ts). */
const LINK_CSV: CsvColumn<LinkListItem>[] = [
  { header: 'link_id', value: (l) => l.link_id ?? l.payment_id },
  { header: 'status', value: (l) => l.status },
  { header: 'amount', value: (l) => displayAmount(amountOf(l)) },
  { header: 'currency', value: currencyOf },
  { header: 'reference_id', value: (l) => l.reference_id },
  { header: 'buyer_name', value: (l) => l.buyer?.name },
  { header: 'buyer_email', value: (l) => l.buyer?.email },
  { header: 'payment_link', value: (l) => l.payment_link },
  { header: 'created_at', value: (l) => l.created_at },
];

export function linkListTable(items: LinkListItem[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['link_id', 'status', 'amount', 'currency', 'reference', 'buyer', 'created'],
    items.map((l) => [
      l.link_id ?? l.payment_id,
      theme.status(l.status),
      displayAmount(amountOf(l)),
      displayAmount(amountOf(l)) === undefined ? undefined : (currencyOf(l) as string | undefined),
      l.reference_id,
      l.buyer?.name ?? l.buyer?.email ?? undefined,
      formatTime(l.created_at, local),
    ]),
    color,
    { columns: [undefined, undefined, { money: true }] },
  );
}
