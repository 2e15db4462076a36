// pgw order get <order_id...>: GET /pg/orders/{order_id}/ (gateway-api-beyond.md 1.1): the order
// and every try at paying it, newest first, with each payment's settlement status.
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';

export interface OrderPayment {
  payment_id: string;
  status?: string;
  mop_type?: string | null;
  status_message?: string | null;
  created_at?: string;
  settlement?: { status?: string; message?: string | null; settlement_details?: { settlement_id?: string } | null } | null;
}

/** The fields of beyond 1.1 this view reads; everything else passes through to JSON untouched. */
export interface OrderDetails {
  order_id: string;
  reference_id?: string;
  amount?: string | number;
  currency?: string;
  mop_type?: string | null;
  status?: string;
  status_message?: string | null;
  created_at?: string;
  buyer?: { name?: string; email?: string; phone?: string; address?: Record<string, string | null | undefined> };
  product?: { name?: string; description?: string; type_of_goods?: string; hs_code?: string | null };
  invoice?: { number?: string | null; date?: string | null };
  payments?: OrderPayment[] | null;
}

export async function runOrderGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  await runLookup(ctx, opts, 'order_id', (id) => api.request<OrderDetails>({ method: 'GET', path: `/pg/orders/${id}/` }), {
    detail: (o) => orderDetail(o, ctx.io.colorOut, ctx.io.stdoutIsTTY),
    table: (os) => orderTable(os, ctx.io.colorOut, ctx.io.stdoutIsTTY),
  });
}

const money = (amount: string | number | undefined, currency: string | undefined): string | undefined =>
  amount === undefined || amount === null ? undefined : `${amount} ${currency ?? ''}`.trim();

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
  return id ? `${s.status ?? 'SETTLED'} (${id})` : s.status;
}

const addressLine = (a: Record<string, string | null | undefined> | undefined): string | undefined =>
  a ? ['line_1', 'line_2', 'city', 'state', 'postal_code'].map((k) => a[k]).filter((v) => v).join(', ') || undefined : undefined;

export function orderDetail(o: OrderDetails, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  const payments = newestFirst(o.payments ?? []);
  const sections: Parameters<typeof renderDetail>[0] = [
    {
      title: theme.bold(`Order ${o.order_id}`),
      rows: [
        ['status', `${theme.status(o.status)}${o.status_message ? `  ${o.status_message}` : ''}`],
        ['amount', money(o.amount, o.currency)],
        ['reference_id', o.reference_id],
        ['method', o.mop_type ?? undefined],
        ['created', formatTime(o.created_at, local)],
        ['invoice', o.invoice?.number ? `${o.invoice.number}${o.invoice.date ? ` (${o.invoice.date})` : ''}` : undefined],
      ],
    },
    { title: 'Buyer', rows: [['name', o.buyer?.name], ['email', o.buyer?.email], ['phone', o.buyer?.phone], ['address', addressLine(o.buyer?.address)]] },
    { title: 'Product', rows: [['name', o.product?.name], ['description', o.product?.description], ['type', o.product?.type_of_goods], ['hs_code', o.product?.hs_code ?? undefined]] },
  ];
  let text = renderDetail(sections.map((s) => ({ ...s, rows: s.rows.filter(([, v]) => v !== undefined && v !== '') })).filter((s) => s.rows.length > 0));
  text += `\nPayments (${payments.length}, newest first)\n`;
  text +=
    payments.length === 0
      ? '  none yet\n'
      : renderTable(
          ['payment_id', 'status', 'method', 'settlement', 'created'],
          payments.map((p) => [p.payment_id, theme.status(p.status), p.mop_type, settlementOf(p), formatTime(p.created_at, local)]),
          color,
        );
  return text;
}

export function orderTable(orders: OrderDetails[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['order_id', 'status', 'amount', 'reference_id', 'payments', 'latest payment', 'created'],
    orders.map((o) => {
      const latest = newestFirst(o.payments ?? [])[0];
      return [
        o.order_id,
        theme.status(o.status),
        money(o.amount, o.currency),
        o.reference_id,
        String(o.payments?.length ?? 0),
        latest ? `${latest.payment_id} ${latest.status ?? ''}`.trim() : undefined,
        formatTime(o.created_at, local),
      ];
    }),
    color,
  );
}
