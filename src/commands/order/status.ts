// pgw order status <order_id...>: GET /pg/orders/{order_id}/status/ (vendor 4.2): order_id,
// status (payment_pending, payment_successful, failed), status_message, created_at, updated_at.
// The light read a script polls; `order get` has the whole order.
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';

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
    detail: (s) => {
      const theme = createTheme(ctx.io.colorOut);
      const local = ctx.io.stdoutIsTTY;
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
    },
    table: (all) => {
      const theme = createTheme(ctx.io.colorOut);
      const local = ctx.io.stdoutIsTTY;
      return renderTable(
        ['order_id', 'status', 'message', 'updated'],
        all.map((s) => [s.order_id, theme.status(s.status), s.status_message, formatTime(s.updated_at ?? s.created_at, local)]),
        ctx.io.colorOut,
      );
    },
  });
}
