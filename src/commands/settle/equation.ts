// The reconciliation lines under `settle get`'s table (issue 41 item 4): the settlement's own
// rows, added up the way spec 4.6 rules 5-6 build it, gross − fee − gst − refunds − chargebacks =
// net, and that net against the gateway's settlement_amount: reconciles ✓, or the difference.
import { Money, formatAmount, type MoneyValue } from '../../money.js';
import { money } from './amounts.js';

/** A Get Settlement transaction (spec 2.9; refund and chargeback rows, vendor 5.3), as read here. */
export interface EquationRow {
  settlement_type?: string;
  transaction_amount?: number | string;
  merchant_service_fee?: number | string;
  merchant_service_tax?: number | string;
  merchant_net_amount?: number | string;
}

export interface SettlementEquation {
  captures: number;
  refunds: number;
  chargebacks: number;
  gross: MoneyValue;
  fee: MoneyValue;
  gst: MoneyValue;
  refunded: MoneyValue;
  chargedBack: MoneyValue;
  /** gross − fee − gst − refunds − chargebacks. */
  net: MoneyValue;
  /** Σ merchant_net_amount of the rows, as the gateway states each. */
  rowsNet: MoneyValue;
}

const sum = (values: (number | string | undefined)[]): MoneyValue => values.reduce<MoneyValue>((t, v) => t.plus(money(v) ?? 0), new Money(0));

/** beyond 4.1: `capture` is a credit, any other settlement_type a debit; an unnamed row is a capture. */
const typeOf = (r: EquationRow): string => (r.settlement_type ?? 'capture').toLowerCase();

export function settlementEquation(rows: readonly EquationRow[]): SettlementEquation {
  const of = (type: string) => rows.filter((r) => typeOf(r) === type);
  const captures = of('capture');
  const refunds = of('refund');
  const chargebacks = rows.filter((r) => typeOf(r) !== 'capture' && typeOf(r) !== 'refund');
  const gross = sum(captures.map((r) => r.transaction_amount));
  const fee = sum(rows.map((r) => r.merchant_service_fee));
  const gst = sum(rows.map((r) => r.merchant_service_tax));
  const refunded = sum(refunds.map((r) => r.transaction_amount));
  const chargedBack = sum(chargebacks.map((r) => r.transaction_amount));
  return {
    captures: captures.length,
    refunds: refunds.length,
    chargebacks: chargebacks.length,
    gross,
    fee,
    gst,
    refunded,
    chargedBack,
    net: gross.minus(fee).minus(gst).minus(refunded).minus(chargedBack),
    rowsNet: sum(rows.map((r) => r.merchant_net_amount)),
  };
}

/**
 * The lines, figures right-aligned in one column so they add up down the page:
 *   gross (2 captures)     1010.10
 *   − fee                    50.51
 *   ...
 *   = net                   850.50   settlement_amount 850.50: reconciles ✓
 * `stated` is the gateway's settlement_amount (undefined when it sent none).
 */
export function equationLines(e: SettlementEquation, stated: MoneyValue | undefined, mark: { ok: (s: string) => string; bad: (s: string) => string }): string[] {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const parts: [string, MoneyValue][] = [
    [`gross (${plural(e.captures, 'capture')})`, e.gross],
    ['− fee', e.fee],
    ['− gst', e.gst],
    [`− refunds (${e.refunds})`, e.refunded],
    [`− chargebacks (${e.chargebacks})`, e.chargedBack],
    ['= net', e.net],
  ];
  const labelWidth = Math.max(...parts.map(([l]) => l.length));
  const figureWidth = Math.max(...parts.map(([, v]) => formatAmount(v).length));
  const lines = parts.map(([label, value]) => `${label.padEnd(labelWidth)}  ${formatAmount(value).padStart(figureWidth)}`);
  if (stated !== undefined) {
    const verdict = stated.eq(e.net)
      ? mark.ok(`settlement_amount ${formatAmount(stated)}: reconciles ✓`)
      : mark.bad(`settlement_amount ${formatAmount(stated)}: differs by ${formatAmount(stated.minus(e.net))}`);
    lines[lines.length - 1] += `   ${verdict}`;
  }
  // The rows' own nets should say the same as their amounts less fee and gst: a row that does not is named by its sum.
  if (!e.rowsNet.eq(e.net)) lines.push(mark.bad(`note: the rows' net column adds up to ${formatAmount(e.rowsNet)}, not ${formatAmount(e.net)}`));
  return lines;
}
