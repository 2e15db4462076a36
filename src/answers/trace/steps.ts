// What happened to a payment, as steps in order (no I/O: gather.ts read it all). One step per
// thing that happened: the order, each attempt and its outcome, each refund and every status it
// moved through, each chargeback, the verification (what was asked and filed, the reviewer's
// decision and words), the settlement, and on pgw's sandbox every webhook delivery with each
// attempt's answer. JSON is the list of steps as built here: {at, kind, id, summary, …}.
import { formatAmount, parseAmount } from '../../money.js';
import { debitsOf } from '../../commands/payment/debits.js';
import { outstandingOf } from '../../commands/payment/verification.js';
import { stateLabel } from '../../settlement-states.js';
import type { OrderDetails } from '../../commands/order/get.js';
import type { Payment } from '../../commands/payment/get.js';
import type { EventDetail } from '../../commands/events/run.js';
import type { TraceFacts } from './gather.js';

export type StepKind = 'order' | 'attempt' | 'capture' | 'failure' | 'refund' | 'refund_status' | 'chargeback' | 'verification' | 'settlement' | 'refund_settlement' | 'webhook';

export interface Step {
  /** When it happened (the gateway's time); null for a state read now (a verification's checklist). */
  at: string | null;
  kind: StepKind;
  /** The object it is about: OD…, PR…, RF…, CB…, ST… or EV…. */
  id: string;
  summary: string;
  [detail: string]: unknown;
}

type Loose = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const money = (v: unknown): string | undefined => {
  if (typeof v !== 'number' && typeof v !== 'string') return undefined;
  try {
    return formatAmount(parseAmount(v));
  } catch {
    return undefined;
  }
};
const withCurrency = (amount: string | undefined, currency: string | undefined) => (amount ? `${amount}${currency ? ` ${currency}` : ''}` : undefined);

function orderSteps(o: OrderDetails): Step[] {
  const amount = withCurrency(money(o.amount), o.currency);
  const parts = [amount, o.reference_id ? `reference ${o.reference_id}` : undefined, o.invoice?.number ? `invoice ${o.invoice.number}` : undefined].filter((p) => p);
  return [{ at: text(o.created_at) ?? null, kind: 'order', id: o.order_id, summary: `order created${parts.length ? `: ${parts.join(', ')}` : ''}${o.status ? ` (now ${o.status})` : ''}`, status: o.status ?? null }];
}

function paymentSteps(p: Payment, f: TraceFacts, eventsSeen: boolean): Step[] {
  const steps: Step[] = [];
  const id = p.payment_id;
  const currency = p.order?.currency;
  const amount = withCurrency(money(p.order?.amount), currency);
  const status = p.status?.toLowerCase();
  steps.push({ at: text(p.created_date) ?? null, kind: 'attempt', id, summary: `payment attempt${p.mop_type ? ` by ${p.mop_type}` : ''}${amount ? ` for ${amount}` : ''}${status === 'pending' ? ' (pending)' : ''}`, status: p.status ?? null });
  const done = text(p.payment_completed_at) ?? text(p.created_date) ?? null;
  if (status === 'captured') steps.push({ at: done, kind: 'capture', id, summary: `captured${amount ? ` ${amount}` : ''}${p.bank_ref_num ? `, bank reference ${p.bank_ref_num}` : ''}` });
  else if (status === 'failed') steps.push({ at: done, kind: 'failure', id, summary: `failed${p.status_message ? `: ${p.status_message}` : ''}` });

  for (const d of debitsOf(p, id)) {
    const what = withCurrency(d.amount, currency);
    if (d.kind === 'chargeback') {
      steps.push({ at: d.created_at ?? null, kind: 'chargeback', id: d.id ?? '', summary: `chargeback${what ? ` of ${what}` : ''}${d.status ? ` (${d.status})` : ''}`, payment_id: id });
      continue;
    }
    steps.push({ at: d.created_at ?? null, kind: 'refund', id: d.id ?? '', summary: `refund${what ? ` of ${what}` : ''} requested${d.status ? ` (now ${d.status})` : ''}`, payment_id: id, status: d.status ?? null });
    const refundedAt = text(((p.refund ?? []) as Loose[]).find((r) => (r.refund_id ?? r.id) === d.id)?.refunded_at);
    // Without the delivery log, the one move a refund records itself: when it was refunded.
    if (!eventsSeen && refundedAt) steps.push({ at: refundedAt, kind: 'refund_status', id: d.id ?? '', summary: 'refunded' });
    const s = d.id ? f.refundSettlements.get(d.id) : undefined;
    const st = s?.settlement_details?.settlement_id;
    if (st) steps.push({ at: text(s?.settlement_details?.settlement_completed_date) ?? null, kind: 'refund_settlement', id: d.id!, summary: `debited in settlement ${st}`, settlement_id: st });
  }

  const s = p.settlement;
  const st = s?.id ?? s?.settlement_id;
  if (st) {
    const own = money((s as Loose).merchant_net_amount);
    steps.push({
      at: text(s?.settlement_completed_at) ?? null,
      kind: 'settlement',
      id: st,
      summary: `settled${s?.utr_number ? `, UTR ${s.utr_number}` : ''}${own ? `: net ${withCurrency(own, text((s as Loose).settlement_currency) ?? currency)}` : ''}`,
      payment_id: id,
      utr_number: s?.utr_number ?? null,
    });
  }

  const v = f.verifications.get(id);
  if (v) {
    const owed = outstandingOf(v);
    const filed = [...(v.fields ?? []), ...(v.documents ?? [])].filter((i) => i.provided).map((i) => i.code);
    steps.push({
      at: null,
      kind: 'verification',
      id,
      summary: `verification now ${stateLabel(v.settlement_status) ?? '-'}: ${owed.length ? `owes ${owed.join(', ')}` : 'nothing owed'}${filed.length ? `; filed ${filed.join(', ')}` : ''}`,
      settlement_status: v.settlement_status ?? null,
      outstanding: owed,
      filed,
    });
  }
  return steps;
}

/** What an event says happened, where nothing else shows it: a refund's move, a verification's step. */
function eventStep(e: EventDetail): Step | undefined {
  const data = ((e.payload as Loose | undefined)?.data ?? {}) as Loose;
  const refund = (Array.isArray(data.refunds) ? data.refunds[0] : undefined) as Loose | undefined;
  const at = e.created_at;
  const paymentId = text(data.payment_id) ?? '';
  const message = text(data.message);
  switch (e.event_type) {
    case 'PAYMENT_REFUNDED':
    case 'REFUND_FAILED':
    case 'REFUND_STATUS_UPDATE': {
      const to = e.event_type === 'PAYMENT_REFUNDED' ? 'refunded' : e.event_type === 'REFUND_FAILED' ? 'failed' : (text(refund?.refund_status)?.toLowerCase() ?? 'updated');
      const note = text(refund?.comments);
      return { at, kind: 'refund_status', id: text(refund?.refund_id) ?? '', summary: `refund moved to ${to}${note ? `: ${note}` : ''}`, status: to };
    }
    case 'VERIFICATION_NEEDED':
    case 'LRS_VERIFICATION_NEEDED': {
      const state = stateLabel(text(data.verification_status));
      // vendor 11.4.2: IN_REVIEW carries the usual message, which says nothing of the review.
      if (text(data.verification_status) === 'IN_REVIEW') return { at, kind: 'verification', id: paymentId, summary: 'verification filed: UNDER_REVIEW', settlement_status: state ?? null };
      const asks = (Array.isArray(data.action_required_fields) ? data.action_required_fields : []).map((x) => (typeof x === 'string' ? x : text((x as Loose).code))).filter((x) => x);
      const docs = (Array.isArray(data.action_required_documents) ? data.action_required_documents : []).map((x) => text((x as Loose).code)).filter((x) => x);
      const all = [...asks, ...docs];
      return { at, kind: 'verification', id: paymentId, summary: `verification ${state ?? ''}${message ? `: ${message}` : ''}${all.length ? `; asks for ${all.join(', ')}` : ''}`, settlement_status: state ?? null, message: message ?? null };
    }
    case 'PAYMENT_UNDER_REVIEW':
      return { at, kind: 'verification', id: paymentId, summary: `verification filed: UNDER_REVIEW${message ? `: ${message}` : ''}`, settlement_status: 'UNDER_REVIEW' };
    case 'VERIFICATION_STATUS': {
      const verdict = text(data.verification_status);
      return { at, kind: 'verification', id: paymentId, summary: `the reviewer ${verdict === 'APPROVED' ? 'approved it' : verdict === 'REJECTED' ? 'rejected it' : `decided ${verdict ?? '?'}`}${message ? `: ${message}` : ''}`, verdict: verdict ?? null, message: message ?? null };
    }
    default:
      return undefined; // payment, settlement and approval events: their own steps say it
  }
}

/** One step per address an event went to, with each attempt's answer; one when it went nowhere. */
function deliverySteps(e: EventDetail): Step[] {
  if (e.deliveries.length === 0) return [{ at: e.created_at, kind: 'webhook', id: e.id, summary: `${e.event_type} recorded: no webhook address was registered, nothing sent`, event_type: e.event_type, url: null, attempts: [] }];
  return e.deliveries.map((d) => {
    // Each attempt's answer, a run of the same one once with its count: `connection refused ×5`.
    const answers: string[] = [];
    let last: string | undefined;
    let run = 0;
    for (const a of [...d.attempts.map((x) => (x.status !== null ? String(x.status) : (x.error ?? 'no answer'))), undefined]) {
      if (a === last) run++;
      else {
        if (last !== undefined) answers.push(run > 1 ? `${last} ×${run}` : last);
        last = a;
        run = 1;
      }
    }
    const tries = d.attempts.length;
    const state = d.state === 'delivered' ? 'delivered' : d.next_attempt_at ? `${d.state}, next attempt ${d.next_attempt_at}` : d.state;
    return {
      at: d.attempts[0]?.at ?? e.created_at,
      kind: 'webhook' as const,
      id: e.id,
      summary: `${e.event_type} to ${d.url}: ${tries === 0 ? 'not attempted yet' : `${tries} ${tries === 1 ? 'attempt' : 'attempts'} (${answers.join(', ')})`}, ${state}`,
      event_type: e.event_type,
      url: d.url,
      state: d.state,
      attempts: d.attempts.map((a) => ({ at: a.at, status: a.status, error: a.error })),
    };
  });
}

const time = (at: string | null) => (at === null ? Number.POSITIVE_INFINITY : Date.parse(at) || 0);

export function traceSteps(f: TraceFacts): Step[] {
  const steps: Step[] = [];
  const eventsSeen = f.events !== undefined;
  for (const o of f.orders) {
    steps.push(...orderSteps(o));
    const ids = (o.payments ?? []).map((p) => p.payment_id);
    for (const id of f.paymentId && !ids.includes(f.paymentId) ? [f.paymentId, ...ids] : ids) {
      const p = f.payments.get(id);
      if (p) steps.push(...paymentSteps(p, f, eventsSeen));
    }
  }
  if (f.orders.length === 0 && f.paymentId && f.payments.get(f.paymentId)) steps.push(...paymentSteps(f.payments.get(f.paymentId)!, f, eventsSeen));
  for (const e of f.events ?? []) {
    const step = eventStep(e);
    if (step) steps.push(step);
    steps.push(...deliverySteps(e));
  }
  // In time order; what happened at one moment keeps the order it was added in (an attempt before its capture).
  return steps.map((s, i) => ({ s, i })).sort((a, b) => time(a.s.at) - time(b.s.at) || a.i - b.i).map(({ s }) => s);
}
