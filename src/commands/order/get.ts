// pgw order get <order_id...>: GET /pg/orders/{order_id}/ (gateway-api-beyond.md 1.1): the order
// and every try at paying it, newest first, with each payment's settlement status.
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';

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
    view: async () => {
      const v = await import('./view.js');
      return {
        detail: (o) => v.orderDetail(o, ctx.io.colorOut, ctx.io.stdoutIsTTY),
        table: (os) => v.orderTable(os, ctx.io.colorOut, ctx.io.stdoutIsTTY),
      };
    },
  });
}
