// The one implementation of the simulator's settlement arithmetic (spec 4.6 rules 4-7), used by
// `pgw settle calc`, `settle mark --dry-run` and the sandbox's mark-settled.
//
// Rounding (docs/sandbox.md, where the spec is silent): per payment, fee = amount × 5 % rounded
// half-up to 2 decimals; GST = fee × 18 % rounded half-up to 2 decimals; net = amount − fee − GST.
// Totals are sums of the rounded per-payment figures, so the breakdown always adds up.
import { Money, formatAmount, parseAmount, round2, type MoneyValue } from './money.js';

/** spec 4.6 rule 4 / part 8: simulator fee schedule. */
export const FEE_RATE = '0.05';
export const GST_RATE = '0.18';
/** Reported, not applied: amounts stay in rupees (docs/sandbox.md). */
export const FOREX_RATE = '96';

export interface SettlementInput {
  payments: { amount: string | MoneyValue; payment_id?: string }[];
  refunds?: (string | MoneyValue)[];
  chargebacks?: (string | MoneyValue)[];
}

export interface PaymentBreakdown {
  payment_id?: string;
  amount: string;
  fee: string;
  gst: string;
  net: string;
}

/** The JSON shape `pgw settle calc` prints; every amount a 2-decimal string. */
export interface SettlementBreakdown {
  settlement_amount: string;
  settlement_charges: string;
  settlement_gst: string;
  forex_rate: string;
  payments: PaymentBreakdown[];
  refunds: string[];
  chargebacks: string[];
}

function money(value: string | MoneyValue): MoneyValue {
  const d = Money.isDecimal(value) ? new Money(value) : parseAmount(value);
  if (d.isNegative()) throw new RangeError(`amount must not be negative: ${d.toString()}`);
  return round2(d);
}

/** Fee, GST and net of one payment (spec 4.6 rule 4). */
export function paymentBreakdown(amount: string | MoneyValue): { amount: MoneyValue; fee: MoneyValue; gst: MoneyValue; net: MoneyValue } {
  const a = money(amount);
  const fee = round2(a.times(FEE_RATE));
  const gst = round2(fee.times(GST_RATE));
  return { amount: a, fee, gst, net: a.minus(fee).minus(gst) };
}

/**
 * spec 4.6 rules 5-6: settlement_amount = Σ net − Σ refunds − Σ chargebacks; charges and GST
 * count payments only; refunds and chargebacks debit at their full amount with no fee.
 * The result can be negative when debits exceed the nets: `settle calc` reports it as it is;
 * mark-settled refuses such a batch (negativeSettlement).
 */
export function computeSettlement(input: SettlementInput): SettlementBreakdown {
  let nets = new Money(0);
  let fees = new Money(0);
  let gsts = new Money(0);
  const payments: PaymentBreakdown[] = input.payments.map((p) => {
    const b = paymentBreakdown(p.amount);
    nets = nets.plus(b.net);
    fees = fees.plus(b.fee);
    gsts = gsts.plus(b.gst);
    const row: PaymentBreakdown = { amount: formatAmount(b.amount), fee: formatAmount(b.fee), gst: formatAmount(b.gst), net: formatAmount(b.net) };
    return p.payment_id === undefined ? row : { payment_id: p.payment_id, ...row };
  });
  const refunds = (input.refunds ?? []).map(money);
  const chargebacks = (input.chargebacks ?? []).map(money);
  const debits = [...refunds, ...chargebacks].reduce((sum, d) => sum.plus(d), new Money(0));
  return {
    settlement_amount: formatAmount(nets.minus(debits)),
    settlement_charges: formatAmount(fees),
    settlement_gst: formatAmount(gsts),
    forex_rate: FOREX_RATE,
    payments,
    refunds: refunds.map((r) => formatAmount(r)),
    chargebacks: chargebacks.map((c) => formatAmount(c)),
  };
}

/**
 * I1 (docs/sandbox.md, "Invariants"): a settlement never pays out less than nothing. The rule of
 * spec 4.6 gives a negative amount when a batch's refunds and chargebacks exceed its payments'
 * nets (a fully refunded payment settled with its refund: 94.10 − 100.00); the spec is silent on
 * such a batch, and the sandbox refuses it (the debits wait for a batch with more payments).
 * Why, in the words mark-settled and its dry run both use; undefined when the batch may settle.
 */
export function negativeSettlement(b: SettlementBreakdown): { key: 'refund_uids' | 'chargeback_uids'; reason: string } | undefined {
  if (!new Money(b.settlement_amount).isNegative()) return undefined;
  return {
    key: b.refunds.length > 0 ? 'refund_uids' : 'chargeback_uids',
    reason: `the batch would settle ${b.settlement_amount}: its refunds and chargebacks exceed the net of its payments; settle them with more payments`,
  };
}

/**
 * The settlement amount in the settlement currency at the forex rate (INR per USD): amount ÷ rate,
 * half-up to 2 decimals. For display only (`settle calc` and the dry run's table): the simulator
 * reports forex_rate and does not apply it (docs/sandbox.md), so no JSON carries this figure.
 */
export function forexEquivalent(amount: string | MoneyValue, rate: string = FOREX_RATE): string {
  return formatAmount(new Money(amount).div(rate));
}

/**
 * Which refunds a settlement debits (docs/sandbox.md "Refund lifecycle"): one whose money has left
 * or is committed to leave the merchant (initiated, processing, on_hold, refunded). A failed,
 * reversed or bank-rejected refund returned nothing to the buyer, so it never reduces a payout
 * and no longer counts against what is left to refund. Statuses are the lowercase ones of vendor
 * 2.5; the older `completed` / `processed` read as refunded.
 */
export const REFUND_DEBITED_STATUSES: readonly string[] = ['initiated', 'processing', 'on_hold', 'refunded'];
/** The statuses that gave nothing back (beyond 2.2's client also knows refund_failed). */
export const REFUND_UNDEBITED_STATUSES: readonly string[] = ['failed', 'reversed', 'bank_rejected_refund', 'refund_failed'];

/** Any other status (a gateway's pending, say) is money on its way out: debited. */
export function refundIsDebited(status: string): boolean {
  return !REFUND_UNDEBITED_STATUSES.includes(normalRefundStatus(status));
}

/** Stored or answered refund status → vendor 2.5's lowercase value (older sandboxes said completed / processed). */
export function normalRefundStatus(status: string): string {
  const s = status.toLowerCase();
  return s === 'completed' || s === 'processed' ? 'refunded' : s;
}

/** Why mark-settled refuses a refund in a status it does not debit; the sandbox and the dry run say the same. */
export function refundNotDebited(uid: string, status: string): string {
  return `${uid} is ${normalRefundStatus(status)}: only ${REFUND_DEBITED_STATUSES.join(', ')} refunds are debited`;
}

/**
 * vendor 11.3, invariant I1: a payment whose verification was rejected or expired is refunded in
 * full by the gateway and never settles. Its refunds (the gateway's own, or one made before)
 * return money the merchant never received, so no settlement ever debits them.
 */
export const NEVER_SETTLED_STATES: readonly string[] = ['EXPIRED', 'REJECTED'];

export function refundOfUnsettledPayment(uid: string, paymentId: string, state: string): string {
  return `${uid} refunds ${paymentId}, whose verification was ${state}: the merchant never received that money, so no settlement debits it`;
}
