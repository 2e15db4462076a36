// The readable views of `pgw order get` and `pgw order status`. Loaded only for table output (issue 23).
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { displayAmount, displayMoney } from '../../money.js';
import { debitsOf, statusWithDebits, type Debit } from '../payment/debits.js';
import type { OrderDetails, OrderPayment } from './get.js';
import type { OrderStatus } from './status.js';
import { stateLabel } from '../../settlement-states.js';

/** beyond 1.1: payments[0] is the latest; sorted again so a gateway that does not keep it is read right. */
export function newestFirst(payments: OrderPayment[]): OrderPayment[] {
  const at = (p: OrderPayment) => (p.created_at ? Date.parse(p.created_at) : Number.NaN);
  return payments
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (Number.isNaN(at(a.p)) || Number.isNaN(at(b.p)) ? a.i - b.i : at(b.p) - at(a.p) || a.i - b.i))
    .map(({ p }) => p);
}

function settlementOf(p: OrderPayment): string | undefined {
  const s = p.settlement;
  if (!s) return undefined;
  const id = s.settlement_details?.settlement_id;
  // One form in every table (settlement-states.ts): the order's lowercase `settled` reads SETTLED.
  return id ? `${stateLabel(s.status) ?? 'SETTLED'} (${id})` : stateLabel(s.status);
}

const addressLine = (a: Record<string, string | null | undefined> | undefined): string | undefined =>
  a ? ['line_1', 'line_2', 'city', 'state', 'postal_code'].map((k) => a[k]).filter((v) => v).join(', ') || undefined : undefined;

const textOrUndefined = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function orderDetail(o: OrderDetails, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  const payments = newestFirst(o.payments ?? []);
  const sections: Parameters<typeof renderDetail>[0] = [
    {
      title: theme.bold(`Order ${o.order_id}`),
      rows: [
        ['status', `${theme.status(o.status)}${o.status_message ? `  ${o.status_message}` : ''}`],
        ['amount', displayMoney(o.amount, o.currency)],
        ['reference_id', o.reference_id],
        ['method', o.mop_type ?? undefined],
        ['created', formatTime(o.created_at, local)],
        ['invoice', o.invoice?.number ? `${o.invoice.number}${o.invoice.date ? ` (${o.invoice.date})` : ''}` : undefined],
      ],
    },
    { title: 'Buyer', rows: [['name', o.buyer?.name], ['email', o.buyer?.email], ['phone', o.buyer?.phone], ['address', addressLine(o.buyer?.address)]] },
    { title: 'Product', rows: [['name', o.product?.name], ['description', o.product?.description], ['type', o.product?.type_of_goods], ['hs_code', o.product?.hs_code ?? undefined]] },
    // vendor 11.1: the uploaded invoice and air waybills, at the addresses that serve them (shown only when there are some).
    { title: 'Documents', rows: [['invoice', textOrUndefined(o.invoice?.file)], ...(Array.isArray(o.air_waybills) ? o.air_waybills : []).map((a): [string, string | undefined] => [`awb ${textOrUndefined(a?.number) ?? '-'}`, textOrUndefined(a?.file) ?? '-'])] },
  ];
  let text = renderDetail(sections.map((s) => ({ ...s, rows: s.rows.filter(([, v]) => v !== undefined && v !== '') })).filter((s) => s.rows.length > 0));
  text += `\nPayments (${payments.length}, newest first)\n`;
  text +=
    payments.length === 0
      ? '  none yet\n'
      : renderTable(
          ['payment_id', 'status', 'amount', 'currency', 'method', 'settlement', 'created'],
          payments.map((p) => {
            const debits = debitsOf(p, p.payment_id);
            const status = statusWithDebits(undefined, debits);
            return [
              p.payment_id,
              `${theme.status(p.status)}${status ? ` · ${status}` : ''}`,
              displayAmount(p.amount),
              p.amount === undefined || p.amount === null ? undefined : o.currency,
              p.mop_type,
              settlementOf(p),
              formatTime(p.created_at, local),
            ];
          }),
          color,
          { columns: [undefined, undefined, { money: true }] },
        );
  const debits = payments.flatMap((p) => debitsOf(p, p.payment_id));
  if (debits.length > 0) text += `\nRefunds and chargebacks (${debits.length})\n${debitTable(debits, o.currency, color, local)}`;
  return text;
}

/** Every refund and chargeback of the order's payments: what was taken back, from which payment. */
export function debitTable(debits: Debit[], currency: string | undefined, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['id', 'kind', 'payment_id', 'amount', 'currency', 'status', 'created'],
    debits.map((d) => [d.id, d.kind, d.payment_id, d.amount, d.amount === undefined ? undefined : currency, d.status === undefined ? undefined : theme.status(d.status), formatTime(d.created_at, local)]),
    color,
    { columns: [undefined, undefined, undefined, { money: true }] },
  );
}

export function orderTable(orders: OrderDetails[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['order_id', 'status', 'amount', 'currency', 'reference_id', 'payments', 'latest payment', 'created'],
    orders.map((o) => {
      const latest = newestFirst(o.payments ?? [])[0];
      return [
        o.order_id,
        theme.status(o.status),
        displayAmount(o.amount),
        displayAmount(o.amount) === undefined ? undefined : o.currency,
        o.reference_id,
        String(o.payments?.length ?? 0),
        latest ? `${latest.payment_id} ${statusWithDebits(latest.status, debitsOf(latest)) ?? ''}`.trim() : undefined,
        formatTime(o.created_at, local),
      ];
    }),
    color,
    { columns: [undefined, undefined, { money: true }] },
  );
}

/** `pgw order status`: one order's status. */
export function orderStatusDetail(s: OrderStatus, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderDetail([
    {
      title: theme.bold(`Order ${s.order_id ?? ''}`.trim()),
      rows: [
        ['status', s.status === undefined ? undefined : `${theme.status(s.status)}${s.status_message ? `  ${s.status_message}` : ''}`],
        ['created', formatTime(s.created_at, local)],
        ['updated', formatTime(s.updated_at, local)],
      ],
    },
  ]);
}

/** `pgw order status` of several orders. */
export function orderStatusTable(all: OrderStatus[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['order_id', 'status', 'message', 'updated'],
    all.map((s) => [s.order_id, theme.status(s.status), s.status_message, formatTime(s.updated_at ?? s.created_at, local)]),
    color,
  );
}
