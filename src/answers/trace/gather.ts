// The reads of `pgw payment trace` (issue 41 item 3): what happened to a payment, from the
// documented reads, so it works on production; on pgw's own sandbox also its delivery log, which
// only that sandbox keeps (and says so).
//
//   0. what was given: a PR… is read with Get Payment; an OD… is the order; anything else is the
//      merchant's reference, found with the payment search (GET /pg/payments/?reference_id=)
//   1. GET /pg/orders/{order_id}/                   the order and every attempt (beyond 1.1)
//   2. GET /pg/payments/{payment_id}/               each attempt: refunds, chargebacks, settlement (spec 4.3)
//   3. GET /pg/refunds/{refund_id}/settlement/      each refund's settlement (beyond 2.3)
//   4. GET /pg/payments/{payment_id}/verification/  a payment under verification: its checklist (vendor 11.2.1)
//   pgw's sandbox only:
//   5. GET /sandbox/events/?about=<id>              the events naming the order, each payment and settlement
//   6. GET /sandbox/events/{event_id}/              each event's deliveries, every attempt and answer
// One order of A attempts and R refunds costs 1 + A + R (+ 1 per verification) requests on any
// gateway (+1 for a PR… or a reference), and on pgw's sandbox 1 + A + S + E more (E events).
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { NotFoundError, UsageError } from '../../errors.js';
import type { OrderDetails } from '../../commands/order/get.js';
import type { Payment } from '../../commands/payment/get.js';
import type { Requirements } from '../../commands/payment/verification.js';
import type { RefundSettlement } from '../../commands/refund/view.js';
import type { EventDetail, EventSummary } from '../../commands/events/run.js';
import { KINDS, kindOf, kindSentence } from '../../commands/ids.js';
import { idArgument } from '../../commands/parse.js';
import { sharedPrefixFetch, fetchAll, DEFAULT_CONCURRENCY } from '../../commands/lookup.js';
import { pageWithResults, type Page } from '../../commands/pages.js';
import { debitsOf } from '../../commands/payment/debits.js';
import { isOwnSandbox } from '../../rails.js';

/** vendor 11.3: the states a payment is in while (or after) a verification runs. */
const VERIFICATION_STATES = new Set(['INFO_PENDING', 'ACTION_REQUIRED', 'UNDER_REVIEW', 'IN_REVIEW', 'VERIFIED', 'ON_HOLD', 'EXPIRED', 'REJECTED']);

export interface TraceFacts {
  /** What was asked about, as given and as resolved. */
  asked: string;
  /** The payment asked about (a PR…), shown first in its order. */
  paymentId?: string;
  orders: OrderDetails[];
  payments: Map<string, Payment>;
  refundSettlements: Map<string, RefundSettlement>;
  verifications: Map<string, Requirements>;
  /** The delivery log's events (pgw's sandbox); undefined where the gateway keeps none. */
  events?: EventDetail[];
  /** What this gateway does not let the trace see, said beside it. */
  unseen: string[];
  requests: number;
}

/**
 * The argument, checked before anything is sent (exit 2): `null`, `undefined` or empty, a path
 * that is no ID, or a refund, settlement or chargeback ID (named, with the command that reads it).
 */
export function checkTraceArgument(asked: string): string {
  const text = asked.trim();
  if (text === '' || /^(null|undefined)$/i.test(text)) idArgument('payment_id', text);
  const kind = kindOf(text);
  if (kind === 'payment') return idArgument('payment_id', text);
  if (kind === 'order') return idArgument('order_id', text);
  if (kind !== undefined && kind !== 'merchant') {
    throw new UsageError(`${kindSentence(text, kind)}; pgw payment trace takes a payment, an order or the merchant's reference (not ${KINDS[kind].label})`, { code: 'ID_KIND' });
  }
  return text;
}

/** Which order(s) the argument names: a payment's, an order, or a reference's orders. */
async function resolve(api: ApiClient, asked: string): Promise<{ orderIds: string[]; payment?: Payment; paymentId?: string }> {
  const kind = kindOf(asked);
  if (kind === 'payment') {
    const id = asked;
    const fetch = sharedPrefixFetch((x) => api.request<Payment>({ method: 'GET', path: `/pg/payments/${x}/` }), 'payment', 'link', (x) => api.request({ method: 'GET', path: `/pg/payment-links/${x}/` }));
    const payment = await fetch(id);
    const orderId = payment.order?.order_id;
    return { orderIds: orderId ? [orderId] : [], payment, paymentId: id };
  }
  if (kind === 'order') return { orderIds: [asked] };
  // The merchant's own reference (digits alone may be one): vendor 3.1's exact filter.
  const found = pageWithResults(await api.request<Page<{ order_id?: string; payment_id?: string }>>({ method: 'GET', path: '/pg/payments/', query: { reference_id: asked, page: 1, page_size: 100 } }), 'the payment list');
  const orderIds = [...new Set((found.results ?? []).map((p) => p.order_id).filter((id): id is string => typeof id === 'string'))];
  if (orderIds.length === 0) throw new NotFoundError(`no payment with the reference ${asked}`, { code: 'NOT_FOUND', suggestion: `a prefix search finds near references: pgw payment list --reference-id '${asked}*'` });
  return { orderIds };
}

export async function gatherTrace(ctx: Context, rawApi: ApiClient, asked: string): Promise<TraceFacts> {
  const text = checkTraceArgument(asked);
  const profile = await ctx.profile();
  let requests = 0;
  const api: ApiClient = { baseUrl: rawApi.baseUrl, preview: (r) => rawApi.preview(r), request: (r) => (requests++, rawApi.request(r)), send: (r) => (requests++, rawApi.send(r)) };

  const { orderIds, payment, paymentId } = await resolve(api, text);
  const orders = await Promise.all(orderIds.map((id) => api.request<OrderDetails>({ method: 'GET', path: `/pg/orders/${id}/` })));
  const attemptIds = [...new Set([...(paymentId ? [paymentId] : []), ...orders.flatMap((o) => (o.payments ?? []).map((p) => p.payment_id))])];
  const payments = new Map<string, Payment>(payment && paymentId ? [[paymentId, payment]] : []);
  for (const o of await fetchAll(attemptIds.filter((id) => !payments.has(id)), DEFAULT_CONCURRENCY, (id) => api.request<Payment>({ method: 'GET', path: `/pg/payments/${id}/` }))) {
    if (!o.ok) throw o.error;
    payments.set(o.id, o.value);
  }

  const refundIds = [...payments.values()].flatMap((p) => debitsOf(p, p.payment_id).filter((d) => d.kind === 'refund' && d.id).map((d) => d.id!));
  const refundSettlements = new Map<string, RefundSettlement>();
  for (const o of await fetchAll(refundIds, DEFAULT_CONCURRENCY, (id) => api.request<RefundSettlement>({ method: 'GET', path: `/pg/refunds/${id}/settlement/` }))) {
    if (o.ok) refundSettlements.set(o.id, o.value); // a gateway without the read: the refund's own status stands
  }
  const verifications = new Map<string, Requirements>();
  const underReview = [...payments.values()].filter((p) => VERIFICATION_STATES.has((p.settlement_status ?? '').toUpperCase())).map((p) => p.payment_id);
  for (const o of await fetchAll(underReview, DEFAULT_CONCURRENCY, (id) => api.request<Requirements>({ method: 'GET', path: `/pg/payments/${id}/verification/` }))) {
    if (o.ok) verifications.set(o.id, o.value);
  }

  const unseen: string[] = [];
  let events: EventDetail[] | undefined;
  if (isOwnSandbox(profile)) {
    const settlementIds = [...payments.values()].map((p) => p.settlement?.id).filter((id): id is string => typeof id === 'string');
    events = await deliveryLog(api, [...orderIds, ...payments.keys(), ...new Set(settlementIds)]).catch(() => undefined);
    if (!events) unseen.push('webhook deliveries (this gateway answers no /sandbox/events/: not pgw\'s own sandbox)');
  } else {
    unseen.push("webhook deliveries (only pgw's own sandbox keeps a delivery log; the gateway's dashboard shows them)");
  }
  if (!events) {
    unseen.push("a refund's statuses before its current one, and the verification's history (they reach you as webhooks; the current state is shown)");
  }
  return { asked: text, paymentId, orders, payments, refundSettlements, verifications, events, unseen, requests };
}

/** pgw's sandbox's events about these IDs, each with its deliveries (GET /sandbox/events/…). */
async function deliveryLog(api: ApiClient, about: string[]): Promise<EventDetail[]> {
  const found = new Map<string, EventSummary>();
  for (const o of await fetchAll([...new Set(about)], DEFAULT_CONCURRENCY, (id) => api.request<EventSummary[]>({ method: 'GET', path: '/sandbox/events/', query: { about: id, limit: 1000 } }))) {
    if (!o.ok) throw o.error;
    for (const e of o.value) found.set(e.id, e);
  }
  const details = await fetchAll([...found.keys()], DEFAULT_CONCURRENCY, (id) => api.request<EventDetail>({ method: 'GET', path: `/sandbox/events/${id}/` }));
  return details.filter((o): o is Extract<typeof o, { ok: true }> => o.ok).map((o) => o.value);
}
