// pgw vba get <virtual_account_id...>: GET /pg/vba/{id}/ (vendor 11.7.2).
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';
import type { Vba } from './view.js';

export async function runVbaGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  await runLookup(ctx, opts, 'virtual_account_id', (id) => api.request<Vba>({ method: 'GET', path: `/pg/vba/${id}/` }), {
    view: async () => {
      const v = await import('./view.js');
      return {
        detail: (x) => v.vbaDetail(x, ctx.io.colorOut),
        table: (xs) => v.vbaTable(xs, ctx.io.colorOut),
        csv: v.vbaCsv,
      };
    },
  });
}
