// The reads of the month-end report (`pgw settle report`, issue 41 item 1): only documented list
// and get operations, so it works on production as on pgw's sandbox, and the same way on both.
//
//   1. GET /pg/payments/?from_created_at&to_created_at   the window's payments (vendor 3.1), 100 a page
//   2. GET /pg/refunds/?from_date&to_date                 the window's refunds (vendor 2.3), 250 a page
//   3. GET /pg/payments/{id}/                             each of those payments and each refund's
//                                                         payment (spec 4.3): order reference, invoice,
//                                                         method, settlement, state, chargebacks
//   4. GET /pg/settlements/?settlement_completed_date__gte the settlements completed since the
//                                                         window opened (beyond 4.1, vendor 5.1)
//   5. GET /pg/settlements/{id}/recon/                    each of them, every page (vendor 5.2): its
//                                                         rows, with fee, gst and net
//   (6. GET /pg/settlements/{id}/                         a settlement a payment names that the list
//                                                         did not give: its amount and UTR)
//
// A window of P payments, R refunds and S settlements costs ⌈P/100⌉ + ⌈R/250⌉ + P′ + ⌈S/250⌉ +
// S (one recon page each, up to 1000 rows) requests, P′ the distinct payments read (P, plus the
// payments of refunds on older payments); reads 3 and 5 run 8 at a time.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import type { Payment } from '../../commands/payment/get.js';
import type { Refund } from '../../commands/refund/view.js';
import type { ReconRow } from '../../commands/settle/recon.js';
import { settlementPage, type SettlementListItem } from '../../commands/settle/list.js';
import { DEFAULT_CONCURRENCY, fetchAll } from '../../commands/lookup.js';
import { fetchListed, pageWithResults, type Page } from '../../commands/pages.js';
import { startProgress } from '../../output/progress.js';

export interface Window {
  from: string;
  to: string;
}

/** What the report reads of a search entry. */
export interface SearchEntry {
  payment_id?: string;
  invoice_number?: string | null;
  reference_id?: string | null;
}

/** A settlement as the list (or, for one the list did not give, Get Settlement) states it. */
export interface SettlementFacts {
  settlement_id: string;
  settlement_amount?: number | string;
  settlement_currency?: string;
  utr_number?: string | null;
  settlement_completed_date?: string;
}

export interface Gathered {
  window: Window;
  /** Every payment read, by payment_id. */
  payments: Map<string, Payment>;
  /** The payments created in the window, newest first as the search answered. */
  windowPayments: string[];
  /** The search's entry of each (vendor 3.1): invoice_number is there, not in Get Payment (spec 2.7). */
  entries: Map<string, SearchEntry>;
  /** The refunds created in the window. */
  refunds: Refund[];
  settlements: Map<string, SettlementFacts>;
  /** Each settlement's rows (vendor 5.2), by settlement_id. */
  recon: Map<string, ReconRow[]>;
  /** How many requests it took. */
  requests: number;
}

const PAYMENT_PAGE = '100';
const REFUND_PAGE = '250';
const SETTLEMENT_PAGE = '250';
const RECON_PAGE = '1000';

/** The client, counting what it sends: the report says what a window cost. */
function counting(api: ApiClient): { api: ApiClient; count: () => number } {
  let n = 0;
  const counted: ApiClient = {
    baseUrl: api.baseUrl,
    preview: (req) => api.preview(req),
    request: (req) => (n++, api.request(req)),
    send: (req) => (n++, api.send(req)),
  };
  return { api: counted, count: () => n };
}

/** Every item of a list, following every page (progress on a terminal). */
function allPages<T>(ctx: Context, label: string, pageSize: string, fetchPage: (page: number, size: number | undefined) => Promise<Page<T>>): Promise<T[]> {
  return fetchListed<T>(ctx, { all: true, pageSize }, 1000, label, fetchPage).then((l) => l.items);
}

export async function gatherMonth(ctx: Context, rawApi: ApiClient, window: Window): Promise<Gathered> {
  const { api, count } = counting(rawApi);
  const { from, to } = window;
  const [listed, refunds, settlementList] = await Promise.all([
    allPages<SearchEntry>(ctx, 'payments', PAYMENT_PAGE, async (page, size) =>
      pageWithResults(await api.request<Page<SearchEntry>>({ method: 'GET', path: '/pg/payments/', query: { page, page_size: size, from_created_at: from, to_created_at: to } }), 'the payment list'),
    ),
    allPages<Refund>(ctx, 'refunds', REFUND_PAGE, async (page, size) =>
      pageWithResults(await api.request<Page<Refund>>({ method: 'GET', path: '/pg/refunds/', query: { page, page_size: size, from_date: from, to_date: to } }), 'the refund list'),
    ),
    // No upper bound: a settlement after the window may carry the window's movements.
    allPages<SettlementListItem>(ctx, 'settlements', SETTLEMENT_PAGE, async (page, size) => {
      const res = await api.send({ method: 'GET', path: '/pg/settlements/', query: { page, page_size: size, from_date: from, settlement_completed_date__gte: from } });
      return settlementPage(res.envelope, res.data);
    }),
  ]);

  const windowPayments = [...new Set(listed.map((p) => p.payment_id).filter((id): id is string => typeof id === 'string'))];
  const entries = new Map(listed.filter((p) => typeof p.payment_id === 'string').map((p) => [p.payment_id!, p]));
  const refundPayments = refunds.map((r) => r.payment_id ?? r.transaction_id).filter((id): id is string => typeof id === 'string');
  const toRead = [...new Set([...windowPayments, ...refundPayments])];
  const payments = new Map<string, Payment>();
  const progress = startProgress(ctx.io, toRead.length, `reading ${toRead.length} payments`);
  for (const o of await fetchAll(toRead, DEFAULT_CONCURRENCY, (id) => api.request<Payment>({ method: 'GET', path: `/pg/payments/${id}/` }), () => progress.tick())) {
    if (!o.ok) {
      progress.done();
      throw o.error; // a report with a payment missing would not add up: say why instead
    }
    payments.set(o.id, o.value);
  }
  progress.done();

  const settlements = new Map<string, SettlementFacts>();
  for (const s of settlementList) if (typeof s.settlement_id === 'string') settlements.set(s.settlement_id, s as SettlementFacts);
  // A settlement a payment of the window names that the list did not give (completed before the
  // window opened, on a clock moved back): read on its own.
  const named = [...payments.values()].map((p) => p.settlement?.id ?? undefined).filter((id): id is string => typeof id === 'string' && !settlements.has(id));
  for (const o of await fetchAll([...new Set(named)], DEFAULT_CONCURRENCY, (id) => api.request<SettlementFacts>({ method: 'GET', path: `/pg/settlements/${id}/` }))) {
    if (!o.ok) throw o.error;
    settlements.set(o.id, { ...o.value, settlement_id: o.id });
  }

  const recon = new Map<string, ReconRow[]>();
  const ids = [...settlements.keys()];
  const reconProgress = startProgress(ctx.io, ids.length, `reading ${ids.length} settlements`);
  const rows = await fetchAll(ids, DEFAULT_CONCURRENCY, async (id) => {
    const all: ReconRow[] = [];
    for (let page = 1; ; page++) {
      const data = pageWithResults(await api.request<Page<ReconRow>>({ method: 'GET', path: `/pg/settlements/${id}/recon/`, query: { page, page_size: RECON_PAGE } }), 'the recon answer');
      all.push(...(data.results ?? []));
      if (data.next === null || data.next === undefined || data.next === '' || (data.results ?? []).length === 0) return all;
    }
  }, () => reconProgress.tick());
  reconProgress.done();
  for (const o of rows) {
    if (!o.ok) throw o.error;
    recon.set(o.id, o.value);
  }
  return { window, payments, windowPayments, entries, refunds, settlements, recon, requests: count() };
}
