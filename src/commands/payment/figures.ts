// One payment's fee, GST and net as the gateway states them (issue 21 item 3). pgw never computes
// them for a payment it reads: the 5 % / 18 % schedule is the sandbox's (spec 4.6 rule 4), and a
// production merchant's pricing is its own, so a computed figure would be an invented one. Where the
// gateway states none, none is shown.
import type { ApiClient } from '../../api/types.js';
import { Money, parseAmount, round2, type MoneyValue } from '../../money.js';

export interface PaymentFigures {
  fee?: string;
  gst?: string;
  net?: string;
  /** The currency the source names for them, if it names one. */
  currency?: string;
  /** Where they come from when not from the payment itself, said next to them. */
  source?: string;
}

/** What a payment's settlement says about it (spec 2.7, 2.9): only the fields read here. */
interface SettlementRef {
  id?: string;
  settlement_id?: string;
  merchant_service_fee?: unknown;
  merchant_service_tax?: unknown;
  merchant_net_amount?: unknown;
}

interface PaymentRef {
  payment_id: string;
  order?: { order_id?: string };
  settlement?: SettlementRef | null;
}

/** A gateway amount (a JSON number or a decimal string), or undefined when it is not one. */
function amount(value: unknown, scale = 1): string | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  let m: MoneyValue;
  try {
    m = parseAmount(value);
  } catch {
    return undefined;
  }
  return round2(scale === 1 ? m : m.div(new Money(scale))).toFixed(2);
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function figures(fee: string | undefined, gst: string | undefined, net: string | undefined, source?: string, currency?: unknown): PaymentFigures | undefined {
  if (fee === undefined && gst === undefined && net === undefined) return undefined;
  return { fee, gst, net, source, currency: typeof currency === 'string' && currency !== '' ? currency : undefined };
}

/** spec 2.9: a settled payment carries its own breakdown in its settlement object. */
export function ownBreakdown(p: PaymentRef): PaymentFigures | undefined {
  const s = p.settlement;
  if (!s) return undefined;
  return figures(amount(s.merchant_service_fee), amount(s.merchant_service_tax), amount(s.merchant_net_amount));
}

/** spec 2.9: Get Settlement's transaction entry for this payment (a capture, not a refund). */
export function fromSettlement(paymentId: string, settlement: unknown): PaymentFigures | undefined {
  const txs = record(settlement)?.transactions;
  if (!Array.isArray(txs)) return undefined;
  const t = txs.map(record).find((tx) => tx?.transaction_id === paymentId && (tx.settlement_type === undefined || String(tx.settlement_type).toLowerCase() === 'capture'));
  if (!t) return undefined;
  const id = record(settlement)?.settlement_id;
  return figures(amount(t.merchant_service_fee), amount(t.merchant_service_tax), amount(t.merchant_net_amount), `settlement ${typeof id === 'string' ? id : ''}`.trim(), t.transaction_currency);
}

/** beyond 1.1: the order's entry for this payment, its settlement.settlement_details. */
export function fromOrderDetails(paymentId: string, order: unknown): PaymentFigures | undefined {
  const orderId = record(order)?.order_id;
  const payments = record(order)?.payments;
  if (!Array.isArray(payments)) return undefined;
  const entry = payments.map(record).find((e) => e?.payment_id === paymentId);
  const d = record(record(entry?.settlement)?.settlement_details);
  if (!d) return undefined;
  const fee = amount(d.total_processing_fee) ?? amount(d.merchant_service_fee_cents, 100);
  const gst = amount(d.total_service_tax) ?? amount(d.merchant_service_tax_cents, 100);
  return figures(fee, gst, amount(d.merchant_net_amount), `order ${typeof orderId === 'string' ? orderId : ''}`.trim(), d.transaction_currency);
}

/**
 * The figures from the first source that states them: the payment itself, then its settlement's
 * transaction (only for a settled payment), then the order's details. A source that fails to
 * answer is passed over: the summary is still worth printing without them.
 */
export async function gatewayFigures(api: Pick<ApiClient, 'request'>, p: PaymentRef): Promise<PaymentFigures | undefined> {
  const own = ownBreakdown(p);
  if (own) return own;
  const settlementId = p.settlement?.id ?? p.settlement?.settlement_id;
  if (!settlementId) return undefined; // not settled: there are no figures to state
  const quietly = async (path: string): Promise<unknown> => api.request({ method: 'GET', path }).catch(() => undefined);
  const viaSettlement = fromSettlement(p.payment_id, await quietly(`/pg/settlements/${encodeURIComponent(settlementId)}/`));
  if (viaSettlement) return viaSettlement;
  const orderId = p.order?.order_id;
  return orderId ? fromOrderDetails(p.payment_id, await quietly(`/pg/orders/${encodeURIComponent(orderId)}/`)) : undefined;
}
