// Order details and status (beyond 1.1, 1.2): the order as created, with every try at paying it,
// newest first (the vendor's client takes payments[0] as the latest).
import { amountAsJsonValue } from '../../money.js';
import { orderNotFound } from '../errors.js';
import { parseJson, type Core, type Scope } from './core.js';
import { orderById } from './orders.js';
import type { PaymentRow, SettlementRow } from './payments.js';

function paymentSettlement(core: Core, p: PaymentRow, referenceId: string): Record<string, unknown> | null {
  if (p.status !== 'captured') return null;
  const s = p.settlement_id ? core.db.get<SettlementRow>('SELECT * FROM settlements WHERE id = ?', p.settlement_id) : undefined;
  if (!s) return { status: 'PENDING', message: 'Not settled yet', settlement_details: null };
  return {
    status: 'SETTLED',
    message: `Settled in ${s.id}`,
    settlement_details: {
      settlement_id: s.id,
      merchant_transaction_id: referenceId,
      transaction_amount: amountAsJsonValue(p.amount),
      transaction_currency: p.currency,
      settlement_currency: s.settlement_currency,
      merchant_net_amount: amountAsJsonValue(p.net!),
      total_processing_fee: amountAsJsonValue(p.fee!),
      total_service_tax: amountAsJsonValue(p.gst!),
      forex_rate: amountAsJsonValue(s.forex_rate),
      settlement_completed_date: s.completed_at,
    },
  };
}

export function orderDetails(core: Core, scope: Scope, orderId: string): Record<string, unknown> {
  return core.db.read(() => {
    const order = orderById(core, orderId, scope);
    if (!order) throw orderNotFound(orderId);
    const invoice = parseJson<{ number?: string; date?: string }>(order.invoice);
    const payments = core.db.all<PaymentRow>('SELECT * FROM payments WHERE order_id = ? ORDER BY created_at DESC, rowid DESC', orderId);
    return {
      order_id: order.order_id,
      reference_id: order.reference_id,
      amount: order.amount,
      currency: order.currency,
      collection_mode: order.collection_mode,
      mop_type: order.mop_type,
      status: order.status,
      status_message: order.status_message,
      created_at: order.created_at,
      buyer: parseJson(order.buyer),
      product: { hs_code: null, hs_code_description: null, ...parseJson<object>(order.product) },
      invoice: { number: invoice?.number ?? null, date: invoice?.date ?? null, file: null },
      air_waybills: [],
      payments: payments.map((p) => ({
        payment_id: p.payment_id,
        status: p.status,
        mop_type: p.mop_type,
        amount: p.amount,
        status_message: p.status_message,
        created_at: p.created_at,
        payment_completed_at: p.completed_at,
        settlement: paymentSettlement(core, p, order.reference_id),
      })),
    };
  });
}

export function orderStatus(core: Core, scope: Scope, orderId: string): { status: string; status_message: string | null } {
  const order = orderById(core, orderId, scope);
  if (!order) throw orderNotFound(orderId);
  return { status: order.status, status_message: order.status_message };
}
