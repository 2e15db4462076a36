// pgw payment list: GET /pg/payments/ (vendor 3.1), the search a support agent runs holding only a
// reference, an order, a buyer's name, a day: every documented filter, page and page_size; --all
// follows every page. A table that fits 80 columns; JSON the gateway's entries; -o csv.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { emit, renderTable, wantsJson } from '../../output/render.js';
import { parseSettlementStates, stateLabel } from '../../settlement-states.js';
import { settlementFacts } from './settlement-columns.js';
import { toCsv, type CsvColumn } from '../../output/csv.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { fetchListed, moreHint, type Page, type PageOptions, pageWithResults } from '../pages.js';
import { dayRange } from '../dates.js';
import { idArgument } from '../parse.js';
import { displayAmount } from '../../money.js';
import { localFilter, type LocalFilter } from './search.js';

export const MAX_PAYMENT_PAGE_SIZE = 1000;
/** The page size when every page is read for --reference-id 'X*' or --invoice-number. */
const LOCAL_FILTER_PAGE_SIZE = 100;
const STATUSES = ['pending', 'captured', 'failed'];
const MOPS = ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr'];

export interface PaymentListOptions extends PageOptions {
  /** vendor 11.3 states, comma-separated, any case (settlement-states.ts). */
  settlementStatus?: string;
  referenceId?: string;
  invoiceNumber?: string;
  orderId?: string;
  buyerName?: string;
  status?: string;
  mop?: string;
  from?: string;
  to?: string;
  currency?: string;
}

/** vendor 3.1 entry (every field may be missing from another gateway). */
export interface PaymentListItem {
  payment_id?: string;
  merchant?: { id?: string; name?: string } | null;
  order_id?: string | null;
  invoice_number?: string | null;
  reference_id?: string;
  buyer?: { name?: string | null; email?: string | null; phone?: string | null } | null;
  amount?: { amount?: string | number; total_amount?: string | number; currency?: string } | string | number | null;
  currency?: string;
  created_at?: string;
  comment?: string | null;
  mop_type?: string | null;
  status?: string;
  /** Not in vendor 3.1: added by pgw from Get Payment with --settlement-status (settlement-columns.ts). */
  settlement_status?: string | null;
  settlement_id?: string | null;
}

function oneOf(flag: string, value: string | undefined, allowed: string[]): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (!allowed.includes(v)) throw new UsageError(`${flag}: "${value}" is not one of ${allowed.join(', ')}`);
  return v;
}

function text(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') throw new UsageError(`${flag} must not be empty`);
  return v;
}

/** The amount and currency of an entry: the documented object, or a plain amount beside a currency. */
export function amountOf(p: PaymentListItem): { amount?: string | number; currency?: string } {
  const a = p.amount;
  if (a !== null && typeof a === 'object') return { amount: a.amount ?? a.total_amount, currency: a.currency ?? p.currency };
  return { amount: a ?? undefined, currency: p.currency };
}

export const PAYMENT_CSV: CsvColumn<PaymentListItem>[] = [
  { header: 'payment_id', value: (p) => p.payment_id },
  { header: 'status', value: (p) => p.status },
  { header: 'amount', value: (p) => displayAmount(amountOf(p).amount) },
  { header: 'currency', value: (p) => amountOf(p).currency },
  { header: 'mop_type', value: (p) => p.mop_type },
  { header: 'reference_id', value: (p) => p.reference_id },
  { header: 'order_id', value: (p) => p.order_id },
  { header: 'invoice_number', value: (p) => p.invoice_number },
  { header: 'buyer_name', value: (p) => p.buyer?.name },
  { header: 'buyer_email', value: (p) => p.buyer?.email },
  { header: 'buyer_phone', value: (p) => p.buyer?.phone },
  { header: 'merchant_id', value: (p) => p.merchant?.id },
  { header: 'comment', value: (p) => p.comment },
  { header: 'created_at', value: (p) => p.created_at },
  // Read from each payment's details (settlement-columns.ts); last, so earlier positions hold.
  { header: 'settlement_status', value: (p) => p.settlement_status },
  { header: 'settlement_id', value: (p) => p.settlement_id },
];

export async function runPaymentList(ctx: Context, opts: PaymentListOptions): Promise<void> {
  const output = ctx.output;
  const { from, to } = dayRange(opts.from, opts.to);
  const local = localFilter(text('--reference-id', opts.referenceId), text('--invoice-number', opts.invoiceNumber));
  const states = opts.settlementStatus === undefined ? undefined : new Set<string>(parseSettlementStates('--settlement-status', opts.settlementStatus));
  // A filter applied here is applied to every page: --page would show a page of someone else's rows.
  const here = [local?.flags, states ? '--settlement-status' : undefined].filter((f) => f !== undefined).join(' and ');
  if (here && opts.page !== undefined) throw new UsageError(`--page cannot be combined with ${here}: every page is read and filtered here`);
  const query = {
    reference_id: local?.prefix === undefined ? text('--reference-id', opts.referenceId) : undefined,
    invoice_number: local?.invoiceNumber,
    order_id: opts.orderId === undefined ? undefined : idArgument('--order-id', opts.orderId),
    buyer_name: text('--buyer-name', opts.buyerName),
    status: oneOf('--status', opts.status, STATUSES),
    mop_type: oneOf('--mop', opts.mop, MOPS),
    currency: opts.currency === undefined ? undefined : text('--currency', opts.currency)!.toUpperCase(),
    from_created_at: from,
    to_created_at: to,
  };
  await ctx.profile();
  const api = await ctx.api();
  // Every page is read for a filter applied here, 100 a page unless --page-size says otherwise
  // (fewer requests than the gateway's 10, well inside the largest page).
  const paging = here ? { ...opts, all: true, pageSize: opts.pageSize ?? String(LOCAL_FILTER_PAGE_SIZE) } : opts;
  const listed = await fetchListed<PaymentListItem>(ctx, paging, MAX_PAYMENT_PAGE_SIZE, 'payments', async (page, pageSize) => {
    const data = await api.request<Page<PaymentListItem>>({ method: 'GET', path: '/pg/payments/', query: { page, page_size: pageSize, ...query } });
    return pageWithResults(data, 'the payment list');
  });
  const found = local ? listed.items.filter((p) => matches(local, p)) : listed.items;
  // The settlement columns of the table and CSV, and the state filter, read each payment's details
  // where the entry lacks them (settlement-columns.ts); JSON without the filter stays as answered.
  const read = states !== undefined || !wantsJson(output);
  const facts = read ? await settlementFacts(ctx.io, api, found) : undefined;
  const withFacts = facts ? found.map((p) => ({ ...p, ...(p.payment_id ? facts.get(p.payment_id) : undefined) })) : found;
  const items = states ? withFacts.filter((p) => states.has(stateLabel(p.settlement_status) ?? '')) : withFacts;
  await emit(
    ctx.io,
    output,
    states ? items : found,
    () => {
      if (items.length === 0) ctx.log(opts.page === undefined ? 'no payments match' : `no payments on page ${listed.first}`);
      else ctx.io.out(paymentListTable(items, ctx.io.colorOut, ctx.io.stdoutIsTTY));
      moreHint(ctx, listed, 'payments', opts.all || here !== '');
    },
    (csv) => toCsv(PAYMENT_CSV, items, csv),
  );
}

function matches(local: LocalFilter, p: PaymentListItem): boolean {
  return local.matches({ reference_id: p.reference_id, invoice_number: p.invoice_number });
}

/** payment_id and status are kept longest; the buyer and reference give way first on a narrow terminal. */
export function paymentListTable(items: PaymentListItem[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['payment_id', 'status', 'amount', 'currency', 'method', 'reference', 'buyer', 'created', 'settlement', 'settlement_id'],
    items.map((p) => {
      const { amount, currency } = amountOf(p);
      return [
        p.payment_id,
        theme.status(p.status),
        displayAmount(amount),
        displayAmount(amount) === undefined ? undefined : currency,
        p.mop_type,
        p.reference_id,
        p.buyer?.name ?? p.buyer?.email ?? undefined,
        formatTime(p.created_at, local),
        // vendor 11.3 in capitals, as every table writes it (settlement-states.ts).
        stateLabel(p.settlement_status),
        p.settlement_id,
      ];
    }),
    color,
    // The currency goes with its amount (same priority, just after it in the drop order).
    {
      columns: [
        { keep: true, priority: 10 },
        { priority: 9 },
        { money: true, priority: 8 },
        { priority: 7.5 },
        { priority: 3 },
        { priority: 5 },
        { priority: 4 },
        { priority: 6 },
        { priority: 7 },
        { keep: true, priority: 2 },
      ],
    },
  );
}
