// A buyer page's address from the embedded sandbox (a checkout, a payment link) points where a
// `pgw sandbox serve` of its database listens, or would (pages-hint.ts). The command line says so
// on a terminal; an agent gets it beside the address, in the data (issue 43 item 5): the page
// opens only once that server runs. With one running, the address already names it.
import type { Context } from '../context.js';

export async function pagesNote(ctx: Context, data: unknown, key: string): Promise<{ data: unknown }> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { data };
  const url = (data as Record<string, unknown>)[key];
  if (typeof url !== 'string') return { data };
  if ((await ctx.profile()).baseUrl !== undefined) return { data }; // a served sandbox serves its own pages
  const { answersOn, embeddedPages } = await import('../commands/pages-hint.js');
  const pages = await embeddedPages(ctx);
  if (pages.serving) return { data };
  const port = Number(new URL(pages.baseUrl).port || 80);
  if (await answersOn(port)) return { data };
  const note = `the page opens once \`pgw sandbox serve\` runs on this sandbox's database (nothing listens on port ${port} now); sandbox_pay pays without it`;
  return { data: { ...data, [`${key}_note`]: note } };
}
