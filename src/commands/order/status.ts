// pgw order status <order_id...>: GET /pg/orders/{order_id}/status/ (vendor 4.2): order_id,
// status (payment_pending, payment_successful, failed), status_message, created_at, updated_at.
// The light read a script polls; `order get` has the whole order.
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';

export interface OrderStatus {
  order_id?: string;
  status?: string;
  status_message?: string | null;
  created_at?: string;
  updated_at?: string;
}

export async function runOrderStatus(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  // The answer may leave order_id out (beyond 1.2 reads status only): the ID asked for fills it in.
  const fetch = async (id: string): Promise<OrderStatus> => {
    const s = await api.request<OrderStatus>({ method: 'GET', path: `/pg/orders/${id}/status/` });
    return s !== null && typeof s === 'object' && !Array.isArray(s) && s.order_id === undefined ? { order_id: id, ...s } : s;
  };
  await runLookup(ctx, opts, 'order_id', fetch, {
    view: async () => {
      const v = await import('./view.js');
      return {
        detail: (s) => v.orderStatusDetail(s, ctx.io.colorOut, ctx.io.stdoutIsTTY),
        table: (all) => v.orderStatusTable(all, ctx.io.colorOut, ctx.io.stdoutIsTTY),
      };
    },
  });
}
