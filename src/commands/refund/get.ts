// pgw refund get <refund_id...>: GET /pg/refunds/{id}/ (beyond 2.2) and GET .../settlement/
// (beyond 2.3) for each ID, the pair in flight together.
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';
import type { Refund, RefundSettlement } from './view.js';
import { withReferences } from './references.js';

export async function runRefundGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  const fetch = async (id: string): Promise<Refund> => {
    const [refund, settlement] = await Promise.all([
      api.request<Refund>({ method: 'GET', path: `/pg/refunds/${id}/` }),
      api.request<RefundSettlement>({ method: 'GET', path: `/pg/refunds/${id}/settlement/` }),
    ]);
    // The refund's data unchanged, with the settlement call's data under its own key.
    return refund !== null && typeof refund === 'object' && !Array.isArray(refund) ? { ...refund, settlement } : refund;
  };
  await runLookup(ctx, opts, 'refund_id', fetch, {
    // The table code is loaded only for table output (issue 23).
    view: async () => {
      const v = await import('./view.js');
      return {
        // The order's reference, looked up when the refund does not carry it (references.ts).
        detail: async (r) => v.refundDetail((await withReferences(api, [r]))[0]!, ctx.io.colorOut, ctx.io.stdoutIsTTY),
        table: (rs) => v.refundTable(rs, ctx.io.colorOut, ctx.io.stdoutIsTTY),
      };
    },
  });
}
