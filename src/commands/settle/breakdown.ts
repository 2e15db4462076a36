// The table of `settle calc` and `settle mark --dry-run`: one row per payment (fee, GST, net), one
// per refund and chargeback (no fee, debited at full amount: spec 4.6 rule 6), the totals, then
// the settlement figures under their JSON names, with the USD equivalent of the net total.
import { forexEquivalent, type SettlementBreakdown } from '../../settlement.js';
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import type { Difference, SettlementCheck } from './calc-settlement.js';

export interface BreakdownLabels {
  /** Refund and chargeback IDs in the order of the breakdown's amounts (dry run); else numbered. */
  refunds?: string[];
  chargebacks?: string[];
}

export function renderBreakdown(b: SettlementBreakdown, labels: BreakdownLabels, color: boolean): string {
  const rows: string[][] = [];
  b.payments.forEach((p, i) => rows.push([p.payment_id ?? `payment ${i + 1}`, p.amount, p.fee, p.gst, p.net]));
  const debit = (kind: string, ids: string[] | undefined) => (amount: string, i: number) =>
    rows.push([`${kind} ${ids?.[i] ?? i + 1}`, amount, '0.00', '0.00', `-${amount}`]);
  b.refunds.forEach(debit('refund', labels.refunds));
  b.chargebacks.forEach(debit('chargeback', labels.chargebacks));
  // The amount column mixes credits and debits, so it has no total; fee, GST and net add up.
  rows.push(['total', '', b.settlement_charges, b.settlement_gst, b.settlement_amount]);
  const table = renderTable(['item', 'amount', 'fee', 'gst', 'net'], rows, color);
  const summary = renderDetail([
    {
      rows: [
        ['settlement_amount', b.settlement_amount],
        ['settlement_charges', b.settlement_charges],
        ['settlement_gst', b.settlement_gst],
        ['forex_rate', b.forex_rate],
        ['USD equivalent', `${forexEquivalent(b.settlement_amount, b.forex_rate)}  (${b.settlement_amount} / ${b.forex_rate}, half-up)`],
      ],
    },
  ]);
  return `${table}\n${summary}`;
}

/**
 * `settle calc --from-settlement`: the settlement's rows through the calculator's table (rows
 * named by their IDs), then whether the gateway's figures agree with it.
 */
export function renderCheck(c: SettlementCheck, color: boolean): string {
  const theme = createTheme(color);
  const table = renderBreakdown(c, { refunds: c.refund_ids, chargebacks: c.chargeback_ids }, color);
  const verdict = c.agrees
    ? theme.chalk.green(`${c.settlement_id} agrees ✓: ${c.gateway_settlement_amount} and each row as spec 4.6 computes them`)
    : theme.red(`${c.settlement_id} differs: ${c.differences.length} ${c.differences.length === 1 ? 'figure is' : 'figures are'} not spec 4.6's arithmetic:`);
  const lines = c.agrees ? [] : c.differences.map((d) => `  ${differenceText(d)}`);
  return `${theme.bold(`Settlement ${c.settlement_id}`)}\n${table}${[verdict, ...lines].join('\n')}\n`;
}

export function differenceText(d: Difference): string {
  return `${d.transaction_id} ${d.field}: gateway ${d.gateway ?? 'none'}, computed ${d.computed}`;
}
