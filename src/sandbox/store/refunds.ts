// Refunds as the gateway shows them (beyond 2.1-2.3) and the settlement of one payment or refund
// (beyond 2.3, 4.2). Refunds are rows of the one `refunds` table that mark-settled debits and Get
// Payment lists, so a refund made here is the same object everywhere.
import { SandboxError, paymentNotFound } from '../errors.js';
import { Money, amountAsJsonValue } from '../../money.js';
import { type Core, type Scope } from './core.js';
import { addDebit, debitById, paymentById, refundStatus, type DebitRow, type PaymentRow, type SettlementRow } from './payments.js';
import { orderById } from './orders.js';

export const refundNotFound = (id: string) =>
  new SandboxError(404, 'ERR_REFUND_003', 'Refund not found', { refund_id: `${id} not found` });

/** beyond 2.2, every field it names, plus what ties the refund to its payment and order. */
export function refundView(core: Core, r: DebitRow): Record<string, unknown> {
  const p = paymentById(core, r.payment_id)!;
  const status = refundStatus(r.status);
  return {
    refund_id: r.id,
    payment_id: r.payment_id,
    transaction_id: r.payment_id,
    order_id: p.order_id,
    refund_amount: r.amount,
    currency: p.currency,
    refund_status: status,
    status_message: status === 'completed' ? 'Refund completed' : null,
    // Sandbox refunds go back the way the money came.
    refund_mode: p.mop_type,
    bank_ref_num: r.bank_ref_num ?? null,
    request_id: null,
    callback_url: r.callback_url ?? null,
    settlement_id: r.settlement_id,
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
    return settlementAnswer(core, r.settlement_id, 'PENDING', () => ({
      merchant_transaction_id: merchantTransactionId(core, p),
      transaction_amount: amountAsJsonValue(r.amount),
      // A refund is debited in full from the settlement that carries it (spec 4.6).
      merchant_net_amount: amountAsJsonValue(new Money(r.amount).neg()),
    }));
  });
}
