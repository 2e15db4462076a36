// Order details and status (beyond 1.1, 1.2): the order as created, with every try at paying it,
// newest first (the vendor's client takes payments[0] as the latest).
import { Money, formatAmount } from '../../money.js';
import { orderNotFound } from '../errors.js';
import { parseJson, type Core, type Scope } from './core.js';
import { orderById } from './orders.js';
import { debitObjects, type PaymentRow, type SettlementRow } from './payments.js';
import { orderDocumentViews } from './documents.js';

/**
 * vendor 4.1 payment entry settlement: status from the settlement enum of 4.3 (pending, settled),
 * settlement_details as decimal strings with both name sets of C7 (settlement_completed_at and
 * _date; fee and tax in rupees and as _cents in paise). undefined for a payment that was not
 * captured, so the key is left out of the JSON: the docs make it an optional object, never null
 * (vendor 4.1; beyond 1.1's client takes absent as it takes null).
 */
function paymentSettlement(core: Core, p: PaymentRow, orderId: string): Record<string, unknown> | undefined {
  if (p.status !== 'captured') return undefined;
  const s = p.settlement_id ? core.db.get<SettlementRow>('SELECT * FROM settlements WHERE id = ?', p.settlement_id) : undefined;
  if (!s) return { status: 'pending', message: 'Not settled yet', settlement_details: null };
  const cents = (v: string) => new Money(v).times(100).toNumber();
  return {
    status: 'settled',
    message: `Settled in ${s.id}`,
    settlement_details: {
      settlement_id: s.id,
      settlement_completed_at: s.completed_at,
      settlement_completed_date: s.completed_at,
      settlement_currency: s.settlement_currency,
      transaction_currency: p.currency,
      transaction_amount: formatAmount(p.amount),
      merchant_service_fee: formatAmount(p.fee!),
      merchant_service_tax: formatAmount(p.gst!),
      merchant_service_fee_cents: cents(p.fee!),
      merchant_service_tax_cents: cents(p.gst!),
      merchant_net_amount: formatAmount(p.net!),
      total_processing_fee: formatAmount(p.fee!),
      total_service_tax: formatAmount(p.gst!),
      forex_rate: s.forex_rate,
      merchant_transaction_id: `${orderId}-${p.payment_id}`,
      card_type: p.mop_type === 'credit_card' || p.mop_type === 'debit_card' ? 'domestic' : null,
    },
  };
}

/**
 * `documentsBase`: where this sandbox serves files (its address as the caller reached it); the
 * uploaded invoice and air waybills then carry addresses there (vendor 11.1, store/documents.ts).
 */
export function orderDetails(core: Core, scope: Scope, orderId: string, documentsBase?: string): Record<string, unknown> {
  return core.db.read(() => {
    const order = orderById(core, orderId, scope);
    if (!order) throw orderNotFound(orderId);
    const invoice = parseJson<{ number?: string; date?: string }>(order.invoice);
    const payments = core.db.all<PaymentRow>('SELECT * FROM payments WHERE order_id = ? ORDER BY created_at DESC, rowid DESC', orderId);
    const documents = orderDocumentViews(core, orderId, documentsBase);
    return {
      order_id: order.order_id,
      reference_id: order.reference_id,
      amount: order.amount,
      currency: order.currency,
      collection_mode: order.collection_mode,
      // vendor C6: both names, lowercase. Left out while the order has no method: optional, and a
      // string when present (vendor 4.1), never null.
      ...(order.mop_type === null ? {} : { opted_mop_type: order.mop_type, mop_type: order.mop_type }),
      status: order.status,
      status_message: order.status_message,
      created_at: order.created_at,
      buyer: parseJson(order.buyer),
      product: { hs_code: null, hs_code_description: null, ...parseJson<object>(order.product) },
      invoice: { number: invoice?.number ?? null, date: invoice?.date ?? null, file: documents.invoiceFile },
      air_waybills: documents.airWaybills,
      payments: payments.map((p) => ({
        payment_id: p.payment_id,
        status: p.status,
        mop_type: p.mop_type,
        amount: p.amount,
        status_message: p.status_message,
        created_at: p.created_at,
        payment_completed_at: p.completed_at,
        settlement: paymentSettlement(core, p, order.order_id),
        // Not in beyond 1.1 or vendor 4.1's entry: the same arrays as Get Payment (docs/sandbox.md),
        // so an order's view shows a refunded payment as refunded without a request per payment.
        ...debitObjects(core, p.payment_id),
      })),
    };
  });
}

/** vendor 4.2: order_id, status, status_message, created_at, updated_at. */
export function orderStatus(core: Core, scope: Scope, orderId: string): Record<string, unknown> {
  const order = orderById(core, orderId, scope);
  if (!order) throw orderNotFound(orderId);
  return {
    order_id: order.order_id,
    status: order.status,
    status_message: order.status_message,
    created_at: order.created_at,
    updated_at: order.updated_at ?? order.created_at,
  };
}
