// pgw order get <order_id...>: GET /pg/orders/{order_id}/ (gateway-api-beyond.md 1.1): the order
// and every try at paying it, newest first, with each payment's settlement status.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { carriesRefunds } from '../payment/debits.js';
import { runLookup, type LookupOptions } from '../lookup.js';

export interface OrderPayment {
  payment_id: string;
  status?: string;
  mop_type?: string | null;
  status_message?: string | null;
  created_at?: string;
  /** Not in beyond 1.1's entry; pgw's sandbox sends it (docs/sandbox.md). */
  amount?: string | number;
  /** Get Payment's refunds (vendor 2.6) and pgw's sandbox's chargebacks, when the entry carries them. */
  refund?: unknown[];
  chargeback?: unknown[];
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
  invoice?: { number?: string | null; date?: string | null; file?: string | null };
  /** vendor 4.1 / 11.1: {number, file (URL)} of each air waybill uploaded. */
  air_waybills?: { number?: string | null; file?: string | null }[] | null;
  payments?: OrderPayment[] | null;
}

export async function runOrderGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  await runLookup(ctx, opts, 'order_id', (id) => api.request<OrderDetails>({ method: 'GET', path: `/pg/orders/${id}/` }), {
    view: async () => {
      const v = await import('./view.js');
      return {
        detail: async (o) => v.orderDetail(await withDebits(api, o), ctx.io.colorOut, ctx.io.stdoutIsTTY),
        table: (os) => v.orderTable(os, ctx.io.colorOut, ctx.io.stdoutIsTTY),
      };
    },
  });
}

/**
 * For the readable view only: beyond 1.1's payment entry names no refunds, so for a captured
 * payment whose entry carries none, its refunds are read from Get Payment (spec 2.7 `refund`).
 * pgw's sandbox puts them in the entry, so nothing more is asked there. A look-up that fails
 * leaves the entry as it was: the order is still worth showing. JSON output is never changed.
 */
async function withDebits(api: Pick<ApiClient, 'request'>, o: OrderDetails): Promise<OrderDetails> {
  const payments = o.payments ?? [];
  if (payments.every((p) => p.status !== 'captured' || carriesRefunds(p))) return o;
  const filled = await Promise.all(
    payments.map(async (p) => {
      if (p.status !== 'captured' || carriesRefunds(p)) return p;
      const full = await api.request<{ refund?: unknown[]; chargeback?: unknown[] }>({ method: 'GET', path: `/pg/payments/${encodeURIComponent(p.payment_id)}/` }).catch(() => undefined);
      return full && typeof full === 'object' ? { ...p, refund: full.refund, chargeback: full.chargeback } : p;
    }),
  );
  return { ...o, payments: filled };
}
