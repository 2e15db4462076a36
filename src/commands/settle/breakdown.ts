// The table of `settle calc` and `settle mark --dry-run`: one row per payment (fee, GST, net), one
// per refund and chargeback (no fee, debited at full amount: spec 4.6 rule 6), the totals, then
// the settlement figures under their JSON names, with the USD equivalent of the net total.
import { forexEquivalent, type SettlementBreakdown } from '../../settlement.js';
import { renderDetail, renderTable } from '../../output/render.js';

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
