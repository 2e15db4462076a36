// What was taken back from a payment (refunds and chargebacks), read from wherever the payment is
// shown (`payment get`, `order get`), so a refunded payment never looks untouched (issue 33 item 6).
// Get Payment carries `refund` (spec 2.7, vendor 2.6: the refund objects of vendor 2.5); older
// gateways name the fields `id`, `amount`, `status`. Chargebacks have no documented field (spec
// 2.7: "not shown"); pgw's sandbox sends `chargeback` (docs/sandbox.md), read here when present.
import { Money, displayAmount, parseAmount, type MoneyValue } from '../../money.js';
import { refundIsDebited } from '../../settlement.js';

export interface Debit {
  kind: 'refund' | 'chargeback';
  id?: string;
  payment_id?: string;
  /** 2 decimals (displayAmount), or the gateway's text when it is not an amount. */
  amount?: string;
  status?: string;
  created_at?: string;
  /** Does it take money back (a failed, reversed or bank-rejected refund gave nothing back)? */
  counts: boolean;
}

type Loose = Record<string, unknown>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const records = (v: unknown): Loose[] => (Array.isArray(v) ? v.filter((x): x is Loose => x !== null && typeof x === 'object' && !Array.isArray(x)) : []);

/** The refunds and chargebacks a payment object (Get Payment's, or an order details entry) carries. */
export function debitsOf(payment: unknown, paymentId?: string): Debit[] {
  const p = (payment ?? {}) as Loose;
  const refunds = records(p.refund ?? p.refunds).map((r): Debit => {
    const status = text(r.refund_status) ?? text(r.status);
    return {
      kind: 'refund',
      id: text(r.refund_id) ?? text(r.id),
      payment_id: text(r.payment_id) ?? paymentId,
      amount: displayAmount(r.refund_amount ?? r.amount),
      status, // as the gateway says it; only the sum reads it as vendor 2.5's value
      created_at: text(r.created_at),
      counts: status === undefined || refundIsDebited(status),
    };
  });
  const chargebacks = records(p.chargeback ?? p.chargebacks).map((c): Debit => ({
    kind: 'chargeback',
    id: text(c.chargeback_id) ?? text(c.id),
    payment_id: text(c.payment_id) ?? paymentId,
    amount: displayAmount(c.chargeback_amount ?? c.amount),
    status: text(c.chargeback_status) ?? text(c.status),
    created_at: text(c.created_at) ?? text(c.raised_on),
    counts: true,
  }));
  return [...refunds, ...chargebacks];
}

/** Does this object carry the refund array at all (an order details entry of another gateway may not)? */
export function carriesRefunds(payment: unknown): boolean {
  const p = (payment ?? {}) as Loose;
  return Array.isArray(p.refund) || Array.isArray(p.refunds);
}

function total(debits: Debit[]): MoneyValue | undefined {
  let sum: MoneyValue | undefined;
  for (const d of debits) {
    if (!d.counts || d.amount === undefined) continue;
    try {
      sum = (sum ?? new Money(0)).plus(parseAmount(d.amount));
    } catch {
      // not an amount: listed in the section, left out of the sum
    }
  }
  return sum;
}

/** What the refunds (or chargebacks) that take money back add up to, 2 decimals; undefined when none. */
export function totalOf(debits: Debit[], kind: Debit['kind']): string | undefined {
  return total(debits.filter((d) => d.kind === kind))?.toFixed(2);
}

/**
 * The words after a payment's status: `refunded 2499.00`, `charged back 100.00`, joined with
 * ` · `; undefined when nothing was taken back. Only refunds that take money back are summed
 * (the failed ones are still listed, with their status, where the refunds are shown).
 */
export function debitSummary(debits: Debit[]): string | undefined {
  const refunded = total(debits.filter((d) => d.kind === 'refund'));
  const chargedBack = total(debits.filter((d) => d.kind === 'chargeback'));
  const parts = [refunded ? `refunded ${refunded.toFixed(2)}` : undefined, chargedBack ? `charged back ${chargedBack.toFixed(2)}` : undefined].filter((v) => v !== undefined);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/** `captured · refunded 2499.00`: a payment's status with what was taken back from it. */
export function statusWithDebits(status: string | undefined, debits: Debit[]): string | undefined {
  const summary = debitSummary(debits);
  if (!summary) return status;
  return status ? `${status} · ${summary}` : summary;
}
