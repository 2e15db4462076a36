// Refunds as the gateway's docs describe them (vendor 2, beyond 2.1-2.3) and the settlement of one
// payment or refund (beyond 2.3, 4.2). Refunds are rows of the one `refunds` table that
// mark-settled debits and Get Payment lists, so a refund made here is the same object everywhere.
import { BareError, SandboxError, paymentNotFound } from '../errors.js';
import { Money, amountAsJsonValue, formatAmount } from '../../money.js';
import type { RefundSimulate } from '../../api/schemas/refunds.js';
import { nowStamp, type Core, type Scope } from './core.js';
import { NEVER_SETTLED_STATES, refundIsDebited } from '../../settlement.js';
import { addDebit, debitById, debitRoom, paymentById, refundObject, refundStatus, type DebitRow, type PaymentRow, type SettlementRow } from './payments.js';
import { orderById } from './orders.js';
import { SIMULATOR_GATEWAY } from './settlements.js';

export const refundNotFound = (id: string) =>
  new SandboxError(404, 'ERR_REFUND_003', 'Refund not found', { refund_id: `${id} not found` });

/** vendor 2.5 and C4, plus what ties the refund to its payment and order (beyond 2.2's extras). */
export function refundView(core: Core, r: DebitRow): Record<string, unknown> {
  const p = paymentById(core, r.payment_id)!;
  return {
    ...refundObject(r),
    transaction_id: r.payment_id,
    order_id: p.order_id,
    // Not in vendor 2.5: the order's reference, so a refund list names the merchant's own order
    // number (docs/sandbox.md); a gateway without it gets it looked up by pgw (refund/references.ts).
    reference_id: orderById(core, p.order_id)?.reference_id ?? null,
    currency: p.currency,
    // Sandbox refunds go back the way the money came.
    refund_mode: p.mop_type,
    request_id: null,
    callback_url: r.callback_url ?? null,
    settlement_id: r.settlement_id,
    // beyond 2.3's value for this refund (what GET …/settlement/ answers), so a refund list says
    // which refunds are settled without a request per refund (docs/sandbox.md).
    settlement_status: r.settlement_id ? 'SETTLED' : refundIsDebited(r.status) ? 'PENDING' : 'NOT_APPLICABLE',
    created_at: r.created_at,
  };
}

export function createRefund(core: Core, scope: Scope, body: { payment_id: string; refund_amount?: string; callback_url?: string }): Record<string, unknown> {
  return core.db.write(() => {
    const { refund_id } = addDebit(core, 'refund', scope, body.payment_id, body.refund_amount, { callback_url: body.callback_url });
    return refundView(core, debitById(core, 'refund', refund_id as string)!);
  });
}

export function getRefund(core: Core, scope: Scope, refundId: string): Record<string, unknown> {
  return core.db.read(() => {
    const r = debitById(core, 'refund', refundId, scope);
    if (!r) throw refundNotFound(refundId);
    return refundView(core, r);
  });
}

export interface RefundFilter {
  payment_id?: string;
  /** The order's reference_id (vendor 2.3). */
  reference_id?: string;
  /** Whole UTC days of creation, both ends included. */
  fromDay?: string;
  toDay?: string;
  merchant_id?: string;
}

/** GET /pg/refunds/ (vendor 2.3): the caller's refunds, newest first. */
export function listRefunds(core: Core, scope: Scope, filter: RefundFilter, page: number, pageSize: number): { count: number; results: unknown[] } {
  return core.db.read(() => {
    const merchants = filter.merchant_id === undefined ? scope : scope.filter((m) => m === filter.merchant_id);
    if (merchants.length === 0) return { count: 0, results: [] };
    const where = [`r.merchant_id IN (${merchants.map(() => '?').join(', ')})`];
    const args: unknown[] = [...merchants];
    if (filter.payment_id !== undefined) {
      where.push('r.payment_id = ?');
      args.push(filter.payment_id);
    }
    if (filter.reference_id !== undefined) {
      where.push('o.reference_id = ?');
      args.push(filter.reference_id);
    }
    if (filter.fromDay) {
      where.push('r.created_at >= ?');
      args.push(`${filter.fromDay}T00:00:00`);
    }
    if (filter.toDay) {
      where.push('r.created_at < ?');
      args.push(nextDay(filter.toDay));
    }
    const from = 'refunds r JOIN payments p ON p.payment_id = r.payment_id JOIN orders o ON o.order_id = p.order_id';
    const clause = where.join(' AND ');
    const count = core.db.get<{ n: number }>(`SELECT count(*) AS n FROM ${from} WHERE ${clause}`, ...args)!.n;
    const rows = core.db.all<DebitRow>(
      `SELECT r.refund_id AS id, r.* FROM ${from} WHERE ${clause} ORDER BY r.created_at DESC, r.rowid DESC LIMIT ? OFFSET ?`,
      ...args,
      pageSize,
      (page - 1) * pageSize,
    );
    return { count, results: rows.map((r) => refundView(core, r)) };
  });
}

export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 19);
}

/** vendor 2.4: the note each status gets when simulate-status is given none. */
export const REFUND_DEFAULT_MESSAGES: Record<string, string> = {
  initiated: 'Refund initiated',
  processing: 'Refund processing',
  refunded: 'Simulated refund settled',
  failed: 'Simulated refund failed',
  reversed: 'Refund reversed',
  on_hold: 'Refund on hold',
  bank_rejected_refund: 'Refund rejected by bank',
};

/** vendor 2.4: 400 ERR_REFUND_002 with details by cause. */
export const refundValidation = (details: Record<string, string>) => new SandboxError(400, 'ERR_REFUND_002', 'Validation error', details);

/** vendor 2.4: an unknown refund, or another merchant's, is a bare 404 (never 403). */
export const bareNotFound = () => new BareError(404, { detail: 'Not found.' });

/**
 * POST /pg/refunds/{id}/simulate-status/ (vendor 2.4): uppercase in, lowercase out (rule 1); the
 * same status again answers 200 and sends nothing (rule 2); any status may follow any other
 * (rule 3) but one: a move into a counting status that would make the payment's counted refunds
 * and chargebacks exceed what was captured (I1, debitRoom) is refused with nothing changed;
 * REFUNDED stamps refunded_at once and it is never cleared (rule 4); only refunds of payments on
 * the Simulator gateway (rule 5). A genuine transition queues its event (vendor 1.6).
 */
export function simulateRefundStatus(core: Core, scope: Scope, refundId: string, body: RefundSimulate): Record<string, unknown> {
  return core.db.write(() => {
    const r = debitById(core, 'refund', refundId, scope);
    if (!r) throw bareNotFound();
    const p = paymentById(core, r.payment_id)!;
    if (p.gateway !== SIMULATOR_GATEWAY) throw refundValidation({ refund_uid: `${r.id} is not on the simulator gateway` });
    const next = body.status.toLowerCase();
    const changed = refundStatus(r.status) !== next;
    if (refundIsDebited(next) && !refundIsDebited(r.status)) refuseOverRefund(core, r, p, next);
    const now = nowStamp(core, r.merchant_id);
    const message = body.status_message ?? (changed ? REFUND_DEFAULT_MESSAGES[next]! : (r.message ?? REFUND_DEFAULT_MESSAGES[next]!));
    const bankRef = body.bank_ref_num === undefined ? (r.bank_ref_num ?? null) : body.bank_ref_num;
    const refundedAt = r.refunded_at ?? (next === 'refunded' ? now : null);
    core.db.run(
      'UPDATE refunds SET status = ?, message = ?, bank_ref_num = ?, refunded_at = ? WHERE refund_id = ?',
      next,
      message,
      bankRef,
      refundedAt,
      r.id,
    );
    const updated = debitById(core, 'refund', r.id)!;
    if (changed) emitRefundEvent(core, updated, p, now);
    return {
      refund_id: updated.id,
      payment_id: updated.payment_id,
      // vendor 2.4: a 2-decimal string here only.
      refund_amount: formatAmount(updated.amount),
      refund_status: refundStatus(updated.status),
      refunded_at: updated.refunded_at ?? null,
      message: updated.message ?? null,
      settlement_details: refundSettlementDetails(core, updated, p),
      reference_id: null,
      created_at: updated.created_at,
    };
  });
}

/** I1: a failed refund brought back to a counting status must still fit in what is left of its payment. */
function refuseOverRefund(core: Core, r: DebitRow, p: PaymentRow, next: string): void {
  const { counted, remaining } = debitRoom(core, p, r.id);
  if (new Money(r.amount).lte(remaining)) return;
  throw refundValidation({
    refund_status: `${r.id} cannot become ${next}: its ${formatAmount(r.amount)} would bring the refunds and chargebacks of ${p.payment_id} to ${formatAmount(counted.plus(r.amount))}, more than the ${formatAmount(p.amount)} captured (${formatAmount(remaining)} left)`,
  });
}

/** vendor 2.4's event per status: INITIATED none, REFUNDED PAYMENT_REFUNDED, FAILED REFUND_FAILED, else REFUND_STATUS_UPDATE. */
function emitRefundEvent(core: Core, r: DebitRow, p: PaymentRow, at: string): void {
  const status = refundStatus(r.status);
  if (status === 'initiated') return;
  const order = orderById(core, p.order_id);
  const amount = amountAsJsonValue(r.amount);
  const common = {
    order_id: p.order_id,
    refund_id: r.id,
    payment_id: p.payment_id,
    refund_amount: amount,
    // vendor 1.6: the simulate-status message travels in comments.
    comments: r.message ?? null,
    bank_arn: r.bank_ref_num ?? null,
    refund_completed_at: r.refunded_at ?? null,
  };
  if (status === 'refunded') {
    core.emit({
      type: 'PAYMENT_REFUNDED',
      merchant_id: r.merchant_id,
      created_at: at,
      // vendor 1.6: the v3 names (payment_request_id, amount) beside the older ones.
      data: { refunds: [{ payment_request_id: p.payment_id, amount, ...common, order_reference_id: order?.reference_id ?? null, refund_reference_id: null }] },
    });
  } else if (status === 'failed') {
    core.emit({ type: 'REFUND_FAILED', merchant_id: r.merchant_id, created_at: at, data: { refunds: [common] } });
  } else {
    core.emit({ type: 'REFUND_STATUS_UPDATE', merchant_id: r.merchant_id, created_at: at, data: { refunds: [{ ...common, refund_status: status.toUpperCase() }] } });
  }
}

/** vendor 2.4: `{}` until the refund is settled; then the settlement that debited it. */
function refundSettlementDetails(core: Core, r: DebitRow, p: PaymentRow): Record<string, unknown> {
  const s = r.settlement_id ? core.db.get<SettlementRow>('SELECT * FROM settlements WHERE id = ?', r.settlement_id) : undefined;
  if (!s) return {};
  return {
    settlement_id: s.id,
    settlement_completed_at: s.completed_at,
    settlement_currency: s.settlement_currency,
    transaction_amount: formatAmount(r.amount),
    merchant_net_amount: formatAmount(new Money(r.amount).neg()),
    merchant_transaction_id: merchantTransactionId(core, p),
  };
}

/** beyond 2.3 / 4.2: `SETTLED` with its details, `PENDING` until then, `NOT_APPLICABLE` for money that never moved. */
function settlementAnswer(
  core: Core,
  settlementId: string | null,
  pending: string,
  detail: (s: SettlementRow) => Record<string, unknown>,
): Record<string, unknown> {
  const s = settlementId ? core.db.get<SettlementRow>('SELECT * FROM settlements WHERE id = ?', settlementId) : undefined;
  if (!s) return { settlement_status: pending, settlement_details: null };
  return {
    settlement_status: 'SETTLED',
    settlement_details: {
      settlement_id: s.id,
      utr_number: s.utr_number,
      settlement_completed_date: s.completed_at,
      settlement_currency: s.settlement_currency,
      ...detail(s),
    },
  };
}

function merchantTransactionId(core: Core, p: PaymentRow): string {
  return orderById(core, p.order_id)?.reference_id ?? p.payment_id;
}

export function paymentSettlement(core: Core, scope: Scope, paymentId: string): Record<string, unknown> {
  return core.db.read(() => {
    const p = paymentById(core, paymentId, scope);
    if (!p) throw paymentNotFound(paymentId);
    return settlementAnswer(core, p.settlement_id, p.status === 'captured' ? 'PENDING' : 'NOT_APPLICABLE', () => ({
      merchant_transaction_id: merchantTransactionId(core, p),
      transaction_amount: amountAsJsonValue(p.amount),
      merchant_service_fee: amountAsJsonValue(p.fee!),
      merchant_service_tax: amountAsJsonValue(p.gst!),
      merchant_net_amount: amountAsJsonValue(p.net!),
    }));
  });
}

export function refundSettlement(core: Core, scope: Scope, refundId: string): Record<string, unknown> {
  return core.db.read(() => {
    const r = debitById(core, 'refund', refundId, scope);
    if (!r) throw refundNotFound(refundId);
    const p = paymentById(core, r.payment_id)!;
    // A refund that gave nothing back is never debited (settlement.ts): nothing will settle; nor is
    // one of a payment rejected or expired in verification (I1: its money never reached the merchant).
    const unsettled = p.settlement_status != null && NEVER_SETTLED_STATES.includes(p.settlement_status);
    const pending = refundIsDebited(r.status) && !unsettled ? 'PENDING' : 'NOT_APPLICABLE';
    return settlementAnswer(core, r.settlement_id, pending, () => ({
      merchant_transaction_id: merchantTransactionId(core, p),
      transaction_amount: amountAsJsonValue(r.amount),
      // A refund is debited in full from the settlement that carries it (spec 4.6).
      merchant_net_amount: amountAsJsonValue(new Money(r.amount).neg()),
    }));
  });
}

