// Human views of refunds (beyond 2.2, 2.3). JSON output never comes through here.
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { displayAmount, displayMoney } from '../../money.js';
import { stateLabel } from '../../settlement-states.js';

/** beyond 2.2 (every field optional) and, for `refund get`, the settlement call's data. */
export interface Refund {
  refund_id?: string;
  payment_id?: string;
  transaction_id?: string;
  refund_amount?: string | number;
  currency?: string;
  refund_status?: string;
  message?: string | null;
  status_message?: string | null;
  refunded_at?: string | null;
  order_id?: string;
  /** Not in vendor 2.5: pgw's sandbox sends it; references.ts looks it up for the others. */
  reference_id?: string | null;
  refund_mode?: string | null;
  bank_ref_num?: string | null;
  created_at?: string;
  settlement?: RefundSettlement;
  /** A list entry's own settlement fields, where the gateway gives them (pgw's sandbox does). */
  settlement_status?: string | null;
  settlement_id?: string | null;
  settlement_details?: { settlement_id?: string } | null;
}

export interface RefundSettlement {
  settlement_status?: string;
  settlement_details?: { settlement_id?: string; settlement_completed_date?: string; merchant_net_amount?: string | number } | null;
}

/** beyond 2.3: SETTLED means settled; anything else is pending. */
function settlementLine(s: RefundSettlement | undefined): string | undefined {
  if (!s) return undefined;
  const id = s.settlement_details?.settlement_id;
  return id ? `${stateLabel(s.settlement_status) ?? 'SETTLED'} in ${id}` : stateLabel(s.settlement_status);
}

/** The one money form (money.ts): 2 decimals; the currency beside it here, in its own column in tables. */
const money = (r: Refund): string | undefined => displayMoney(r.refund_amount, r.currency);
const currencyOf = (r: Refund): string | undefined => (displayAmount(r.refund_amount) === undefined ? undefined : r.currency);

export function refundDetail(r: Refund, color: boolean, local: boolean, id?: string): string {
  const theme = createTheme(color);
  const rows: [string, string | undefined][] = [
    ['status', r.refund_status === undefined ? undefined : `${theme.status(r.refund_status)}${(r.message ?? r.status_message) ? `  ${r.message ?? r.status_message}` : ''}`],
    ['amount', money(r)],
    ['payment', r.payment_id ?? r.transaction_id],
    ['order', r.order_id],
    ['reference_id', r.reference_id ?? undefined],
    ['mode', r.refund_mode ?? undefined],
    ['bank reference', r.bank_ref_num ?? undefined],
    ['created', formatTime(r.created_at, local)],
    ['refunded', formatTime(r.refunded_at ?? undefined, local)],
    ['settlement', settlementLine(r.settlement)],
    ['settled', formatTime(r.settlement?.settlement_details?.settlement_completed_date, local)],
  ];
  return renderDetail([{ title: theme.bold(`Refund ${r.refund_id ?? id ?? ''}`.trim()), rows: rows.filter(([, v]) => v !== undefined && v !== '') }]);
}

export function refundTable(refunds: Refund[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['refund_id', 'status', 'amount', 'currency', 'payment_id', 'reference_id', 'bank ref', 'settlement', 'created'],
    refunds.map((r) => [
      r.refund_id,
      theme.status(r.refund_status),
      displayAmount(r.refund_amount),
      currencyOf(r),
      r.payment_id ?? r.transaction_id,
      r.reference_id,
      r.bank_ref_num,
      settlementLine(r.settlement),
      formatTime(r.created_at, local),
    ]),
    color,
    { columns: [undefined, undefined, { money: true }] },
  );
}

/** A list entry's settlement (issue 41 item 2): its state and ST…, as the gateway gives them on the entry. */
export function entrySettlement(r: Refund): RefundSettlement | undefined {
  const id = r.settlement_id ?? r.settlement_details?.settlement_id ?? undefined;
  if (r.settlement_status == null && !id) return undefined;
  return { settlement_status: r.settlement_status ?? undefined, settlement_details: id ? { settlement_id: id } : null };
}

/** `pgw refund list`: the list's table (the CSV has the same columns and more, list.ts). */
export function refundListTable(items: Refund[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['refund_id', 'status', 'amount', 'currency', 'payment_id', 'reference_id', 'created', 'settlement'],
    items.map((r) => [
      r.refund_id,
      theme.status(r.refund_status),
      displayAmount(r.refund_amount),
      currencyOf(r),
      r.payment_id ?? r.transaction_id,
      r.reference_id,
      formatTime(r.created_at, local),
      settlementLine(entrySettlement(r)),
    ]),
    color,
    { columns: [undefined, undefined, { money: true }, undefined, undefined, undefined, undefined, { priority: 5 }] },
  );
}
