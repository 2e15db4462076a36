// The month-end report built from what gather.ts read (no I/O here): one row per money movement
// of the window, then per settlement its amount against its rows, then what is not settled yet.
//
// Rows (docs/cli.md, "Month-end"):
// - `capture`: a captured payment created in the window; amount its gross, and, once settled, its
//   fee, gst and net as the settlement's own rows state them (vendor 5.2; else Get Payment's
//   breakdown, spec 2.9). pgw never computes them: a production price list is the merchant's own.
// - `payment`: a payment of the window that captured nothing (failed, pending): listed with its
//   state so the month's every payment shows, counted in no total.
// - `refund`: a refund created in the window (vendor 2.3's day filter), its amount under debit.
// - `chargeback`: a chargeback made in the window, as its payment (pgw's sandbox) or a
//   settlement's rows show it.
// A settlement reconciles when its amount equals the net of the report's rows in it plus the net
// of its rows outside the window (from its recon): settlements straddle month ends.
import { Money, formatAmount, parseAmount, type MoneyValue } from '../../money.js';
import { refundIsDebited } from '../../settlement.js';
import { debitsOf } from '../../commands/payment/debits.js';
import { ownBreakdown } from '../../commands/payment/figures.js';
import type { Payment } from '../../commands/payment/get.js';
import type { ReconRow } from '../../commands/settle/recon.js';
import type { Gathered, Window } from './gather.js';

export type RowType = 'capture' | 'payment' | 'refund' | 'chargeback';

/** One row: JSON keys and CSV headers alike. Amounts are 2-decimal strings; null where a figure does not apply (yet). */
export interface ReportRow {
  type: RowType;
  /** PR…, RF… or CB…. */
  id: string;
  payment_id: string | null;
  reference_id: string | null;
  invoice_number: string | null;
  created_at: string | null;
  mop_type: string | null;
  currency: string | null;
  /** The payment's gross (capture and payment rows). */
  amount: string | null;
  fee: string | null;
  gst: string | null;
  /** What the row adds to its settlement (negative for a debit); null until settled. */
  net: string | null;
  /** A refund's or chargeback's amount. */
  debit_amount: string | null;
  settlement_id: string | null;
  utr_number: string | null;
  settled_at: string | null;
  /** vendor 11.3 for a payment, as the gateway writes it; beyond 2.3's SETTLED / PENDING / NOT_APPLICABLE for a debit. */
  settlement_status: string | null;
  /** The payment's, refund's or chargeback's own status. */
  status: string | null;
}

export interface SettlementLine {
  settlement_id: string;
  completed_at: string | null;
  utr_number: string | null;
  /** The gateway's figure. */
  settlement_amount: string | null;
  /** The net of this report's rows in it. */
  report_net: string;
  report_rows: number;
  /** The net of its rows outside the window (its recon's other rows). */
  other_net: string;
  other_rows: number;
  reconciles: boolean;
  /** settlement_amount − (report_net + other_net); "0.00" when it reconciles. */
  difference: string | null;
}

export interface Unsettled {
  captures: number;
  captured: string;
  refunds: number;
  refunded: string;
  chargebacks: number;
  charged_back: string;
  /** captured − refunded − charged_back: what has not reached the bank (or left it) yet. */
  amount: string;
}

export interface MonthReport {
  from: string;
  to: string;
  rows: ReportRow[];
  settlements: SettlementLine[];
  unsettled: Unsettled;
  /** Requests the report took (docs/cli.md says what a window costs). */
  requests: number;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A gateway amount in the one money form, or null. */
function money(v: unknown): string | null {
  if (typeof v !== 'number' && typeof v !== 'string') return null;
  try {
    return formatAmount(parseAmount(v));
  } catch {
    return null;
  }
}

const sum = (values: (string | null)[]): MoneyValue => values.reduce<MoneyValue>((t, v) => (v === null ? t : t.plus(v)), new Money(0));

/** A stamp's day, for the window test. */
const day = (stamp: string | null): string | null => (stamp && /^\d{4}-\d{2}-\d{2}/.test(stamp) ? stamp.slice(0, 10) : null);
const inWindow = (w: Window, stamp: string | null): boolean => {
  const d = day(stamp);
  return d !== null && d >= w.from && d <= w.to;
};

interface Placed {
  settlement_id: string;
  row: ReconRow;
}

export function buildReport(g: Gathered): MonthReport {
  // Where every transaction was settled, from the settlements' own rows.
  const placed = new Map<string, Placed>();
  for (const [settlementId, rows] of g.recon) for (const row of rows) if (row.transaction_id) placed.set(row.transaction_id, { settlement_id: settlementId, row });
  const facts = (settlementId: string | null) => (settlementId ? g.settlements.get(settlementId) : undefined);

  const base = (p: Payment | undefined) => ({
    payment_id: p?.payment_id ?? null,
    reference_id: text(p?.order?.reference_id),
    // vendor 3.1's entry names the invoice; Get Payment's order (spec 2.7) may not.
    invoice_number: text((p?.payment_id ? g.entries.get(p.payment_id)?.invoice_number : undefined) ?? p?.order?.invoice?.number),
    mop_type: text(p?.mop_type),
    currency: text(p?.order?.currency),
  });
  const settledBy = (id: string, fallback: string | null) => {
    const settlementId = placed.get(id)?.settlement_id ?? fallback;
    const s = facts(settlementId);
    return { settlement_id: settlementId, utr_number: text(s?.utr_number), settled_at: text(s?.settlement_completed_date) };
  };

  const rows: ReportRow[] = [];
  for (const id of g.windowPayments) {
    const p = g.payments.get(id);
    if (!p) continue;
    const captured = p.status?.toLowerCase() === 'captured';
    const where = settledBy(id, p.settlement?.id ?? p.settlement?.settlement_id ?? null);
    const r = placed.get(id)?.row;
    const own = ownBreakdown(p);
    const settled = where.settlement_id !== null;
    rows.push({
      type: captured ? 'capture' : 'payment',
      id,
      ...base(p),
      created_at: text(p.created_date),
      amount: money(p.order?.amount),
      fee: settled ? (money(r?.total_processing_fee) ?? own?.fee ?? null) : null,
      gst: settled ? (money(r?.total_service_tax) ?? own?.gst ?? null) : null,
      net: settled ? (money(r?.merchant_net_amount) ?? own?.net ?? null) : null,
      debit_amount: null,
      ...where,
      settlement_status: text(p.settlement_status) ?? (settled ? 'SETTLED' : null),
      status: text(p.status),
    });
  }

  for (const refund of g.refunds) {
    const id = text(refund.refund_id);
    if (!id) continue;
    const paymentId = text(refund.payment_id) ?? text(refund.transaction_id);
    const p = paymentId ? g.payments.get(paymentId) : undefined;
    const where = settledBy(id, null);
    const amount = money(refund.refund_amount);
    const counts = refund.refund_status === undefined || refundIsDebited(refund.refund_status);
    rows.push({
      type: 'refund',
      id,
      ...base(p),
      payment_id: paymentId,
      currency: text(refund.currency) ?? base(p).currency,
      created_at: text(refund.created_at) ?? text(refund.refunded_at),
      amount: null,
      fee: null,
      gst: null,
      net: where.settlement_id ? (money(placed.get(id)?.row.merchant_net_amount) ?? (amount ? formatAmount(new Money(amount).neg()) : null)) : null,
      debit_amount: amount,
      ...where,
      settlement_status: where.settlement_id ? 'SETTLED' : counts ? 'PENDING' : 'NOT_APPLICABLE',
      status: text(refund.refund_status),
    });
  }

  // Chargebacks have no list of their own: those the payments read carry (pgw's sandbox), then
  // those in the settlements' rows, each made in the window.
  const seen = new Set<string>();
  for (const p of g.payments.values()) {
    for (const d of debitsOf(p, p.payment_id).filter((x) => x.kind === 'chargeback')) {
      if (!d.id || seen.has(d.id) || !inWindow(g.window, d.created_at ?? null)) continue;
      seen.add(d.id);
      rows.push(chargebackRow(d.id, d.created_at ?? null, d.amount ?? null, d.status ?? null, base(p), settledBy(d.id, null), placed.get(d.id)?.row));
    }
  }
  for (const [settlementId, recon] of g.recon) {
    for (const r of recon) {
      const id = r.transaction_id;
      if (r.settlement_type?.toLowerCase() !== 'chargeback' || !id || seen.has(id)) continue;
      const madeIn = r.created_at ? inWindow(g.window, r.created_at) : inWindow(g.window, text(facts(settlementId)?.settlement_completed_date));
      if (!madeIn) continue;
      seen.add(id);
      const none = { payment_id: null, reference_id: null, invoice_number: null, mop_type: text(r.mop_type)?.toLowerCase() ?? null, currency: text(r.transaction_currency) };
      rows.push(chargebackRow(id, text(r.created_at), money(r.transaction_amount), null, none, settledBy(id, settlementId), r));
    }
  }

  // A ledger reads oldest first; a capture before the refunds and chargebacks of the same moment.
  const rank: Record<RowType, number> = { capture: 0, payment: 0, refund: 1, chargeback: 2 };
  rows.sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? '') || rank[a.type] - rank[b.type] || a.id.localeCompare(b.id));
  return { from: g.window.from, to: g.window.to, rows, settlements: settlementLines(g, rows), unsettled: unsettledOf(rows), requests: g.requests };
}

function chargebackRow(
  id: string,
  createdAt: string | null,
  amount: string | null,
  status: string | null,
  base: Pick<ReportRow, 'payment_id' | 'reference_id' | 'invoice_number' | 'mop_type' | 'currency'>,
  where: Pick<ReportRow, 'settlement_id' | 'utr_number' | 'settled_at'>,
  recon: ReconRow | undefined,
): ReportRow {
  const net = where.settlement_id ? (money(recon?.merchant_net_amount) ?? (amount ? formatAmount(new Money(amount).neg()) : null)) : null;
  return { type: 'chargeback', id, ...base, created_at: createdAt, amount: null, fee: null, gst: null, net, debit_amount: amount, ...where, settlement_status: where.settlement_id ? 'SETTLED' : 'PENDING', status };
}

/** The settlements completed in the window, and any other that holds a row of it. */
function settlementLines(g: Gathered, rows: ReportRow[]): SettlementLine[] {
  const inReport = new Map<string, ReportRow[]>();
  for (const r of rows) if (r.settlement_id) inReport.set(r.settlement_id, [...(inReport.get(r.settlement_id) ?? []), r]);
  const lines: SettlementLine[] = [];
  for (const [id, s] of g.settlements) {
    const mine = inReport.get(id) ?? [];
    if (mine.length === 0 && !inWindow(g.window, text(s.settlement_completed_date))) continue;
    const ids = new Set(mine.map((r) => r.id));
    const others = (g.recon.get(id) ?? []).filter((r) => !r.transaction_id || !ids.has(r.transaction_id));
    const reportNet = sum(mine.map((r) => r.net));
    const otherNet = sum(others.map((r) => money(r.merchant_net_amount)));
    const stated = money(s.settlement_amount);
    const difference = stated === null ? null : new Money(stated).minus(reportNet).minus(otherNet);
    lines.push({
      settlement_id: id,
      completed_at: text(s.settlement_completed_date),
      utr_number: text(s.utr_number),
      settlement_amount: stated,
      report_net: formatAmount(reportNet),
      report_rows: mine.length,
      other_net: formatAmount(otherNet),
      other_rows: others.length,
      reconciles: difference !== null && difference.isZero(),
      difference: difference === null ? null : formatAmount(difference),
    });
  }
  // Oldest first, as a month reads.
  return lines.sort((a, b) => (a.completed_at ?? '').localeCompare(b.completed_at ?? '') || a.settlement_id.localeCompare(b.settlement_id));
}

/** What the window moved that no settlement carries yet: captures, less the refunds and chargebacks that count. */
function unsettledOf(rows: ReportRow[]): Unsettled {
  const open = rows.filter((r) => r.settlement_id === null);
  const captures = open.filter((r) => r.type === 'capture');
  // A failed, reversed or bank-rejected refund gave nothing back: it will never be debited.
  const refunds = open.filter((r) => r.type === 'refund' && r.settlement_status !== 'NOT_APPLICABLE');
  const chargebacks = open.filter((r) => r.type === 'chargeback');
  const captured = sum(captures.map((r) => r.amount));
  const refunded = sum(refunds.map((r) => r.debit_amount));
  const chargedBack = sum(chargebacks.map((r) => r.debit_amount));
  return {
    captures: captures.length,
    captured: formatAmount(captured),
    refunds: refunds.length,
    refunded: formatAmount(refunded),
    chargebacks: chargebacks.length,
    charged_back: formatAmount(chargedBack),
    amount: formatAmount(captured.minus(refunded).minus(chargedBack)),
  };
}
