// pgw vba list: GET /pg/vba/ (vendor 11.7.2) with vba_status and page; --all follows every page.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { emit } from '../../output/render.js';
import { fetchListed, moreHint, pageWithResults, type Page, type PageOptions } from '../pages.js';
import { vbaCsv, vbaTable, type Vba } from './view.js';

/** vendor 11.7.4's bound, taken for the list too (11.7.2 names none; its example's page is 250). */
export const MAX_VBA_PAGE_SIZE = 1000;

export async function runVbaList(ctx: Context, opts: PageOptions & { status?: string }): Promise<void> {
  const output = ctx.output;
  const status = opts.status?.trim().toUpperCase();
  if (status !== undefined && status !== 'ACTIVE' && status !== 'INACTIVE') throw new UsageError(`--status: "${opts.status}" is not ACTIVE or INACTIVE`);
  await ctx.profile();
  const api = await ctx.api();
  const listed = await fetchListed<Vba>(ctx, opts, MAX_VBA_PAGE_SIZE, 'virtual accounts', async (page, pageSize) => {
    const data = await api.request<Page<Vba>>({ method: 'GET', path: '/pg/vba/', query: { vba_status: status, page, page_size: pageSize } });
    return pageWithResults(data, 'the virtual account list');
  });
  await emit(
    ctx.io,
    output,
    listed.items,
    () => {
      if (listed.items.length === 0) ctx.log(status ? `no ${status} virtual accounts` : 'no virtual accounts: create one with pgw vba create');
      else ctx.io.out(vbaTable(listed.items, ctx.io.colorOut));
      moreHint(ctx, listed, 'virtual accounts', opts.all);
    },
    (csv) => vbaCsv(listed.items, csv),
  );
}
