// pgw merchant list: GET /partners/merchants/ (spec 4.8) with page and page_size; --all follows
// every page. `next` is read for its page and page_size only: requests always go to the profile's
// base address, so credentials never follow a link to another host (the embedded sandbox's links
// also name the address of `pgw sandbox serve`, not its own).
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { GatewayError } from '../../errors.js';
import { emit } from '../../output/render.js';
import type { CsvOptions } from '../../output/csv.js';
import { DEFAULT_CONCURRENCY, fetchAll } from '../lookup.js';
import { merchantCsv, type MerchantRow } from './csv-columns.js';
import type { MerchantDetails } from './get.js';
import { startProgress } from '../../output/progress.js';
import { positiveIntOption } from '../parse.js';
import { MERCHANTS_PATH, merchantPath, partnerRequest } from './partner.js';
import { listTable, type MerchantListItem } from './view.js';

/** The sandbox's limit, and the largest page the gateway is known to accept (spec part 8 shows 250). */
export const MAX_PAGE_SIZE = 1000;
/** --all gives up past this many pages (a million sub-merchants at the largest page size). */
export const MAX_PAGES = 1000;

export interface MerchantListOptions {
  page?: string;
  pageSize?: string;
  all?: boolean;
}

interface Page {
  count?: number;
  page?: number;
  page_size?: number;
  next?: string | null;
  previous?: string | null;
  results?: MerchantListItem[];
}

/** The page after `current`: from next's query when it has one, else the following number. */
export function nextPage(page: Page, current: number): { page: number; pageSize?: number } | undefined {
  if (page.next === null || page.next === undefined || page.next === '') return undefined;
  let query: URLSearchParams | undefined;
  try {
    query = new URL(page.next, 'http://relative.invalid').searchParams;
  } catch {
    query = undefined;
  }
  const n = Number(query?.get('page') ?? Number.NaN);
  const size = Number(query?.get('page_size') ?? Number.NaN);
  return {
    page: Number.isInteger(n) && n > current ? n : current + 1,
    ...(Number.isInteger(size) && size > 0 ? { pageSize: size } : {}),
  };
}

/** What a run of `list` fetched: the sub-merchants, and the last page read (for the paging line). */
export interface Fetched {
  items: MerchantListItem[];
  page: Page;
  current: number;
}

/**
 * One page (`first`), or every page from it (`all`). Also what `merchant create --file` reads to
 * find existing sub-merchants before sending (known-index.ts), newest change first (`ordering`).
 */
export async function fetchSubMerchants(ctx: Context, api: ApiClient, opts: { first: number; pageSize?: number; all?: boolean; ordering?: string }): Promise<Fetched> {
  const { first, pageSize, ordering } = opts;
  const fetchPage = (page: number, size?: number) =>
    partnerRequest<Page>(api, { method: 'GET', path: MERCHANTS_PATH, query: { page, page_size: size, ...(ordering ? { ordering } : {}) } });

  let current = first;
  let page = await fetchPage(current, pageSize);
  const items = [...(page.results ?? [])];
  if (opts.all) {
    const progress = startProgress(ctx.io, page.count ?? items.length, 'fetching sub-merchants');
    for (let i = 0; i < items.length; i++) progress.tick();
    try {
      const seen = new Set(items.map((item) => item.id));
      const total = page.count;
      let pages = 1;
      for (let next = nextPage(page, current); next; next = nextPage(page, current)) {
        // A gateway that keeps naming a next page must not keep pgw fetching for ever: stop at the
        // count it reported, on an empty page, on a page of merchants already seen, or at a cap.
        if (typeof total === 'number' && items.length >= total) break;
        if ((page.results ?? []).length === 0) throw new GatewayError(`page ${current} was empty but named a next page: stopped`);
        if (++pages > MAX_PAGES) throw new GatewayError(`more than ${MAX_PAGES} pages: stopped`, { suggestion: 'use --page and --page-size to fetch a range' });
        current = next.page;
        page = await fetchPage(current, next.pageSize ?? pageSize);
        const fresh = (page.results ?? []).filter((item) => !seen.has(item.id));
        if ((page.results ?? []).length > 0 && fresh.length === 0) {
          throw new GatewayError(`page ${current} repeated sub-merchants already listed: stopped`, { code: 'PAGING_LOOP' });
        }
        for (const item of fresh) {
          seen.add(item.id);
          items.push(item);
          progress.tick();
        }
      }
    } finally {
      progress.done();
    }
  }
  return { items, page, current };
}

export async function runMerchantList(ctx: Context, opts: MerchantListOptions): Promise<void> {
  const first = opts.page === undefined ? 1 : positiveIntOption('--page', opts.page);
  const pageSize = opts.pageSize === undefined ? undefined : positiveIntOption('--page-size', opts.pageSize, MAX_PAGE_SIZE);
  const output = ctx.output;
  await ctx.profile();
  const api = await ctx.api();
  const { items, page, current } = await fetchSubMerchants(ctx, api, { first, pageSize, all: opts.all });

  // CSV has the columns an operator filters on (csv-columns.ts): each one's details, read N at a time.
  const rows = output.format === 'csv' ? await withDetails(ctx, api, items) : [];
  const csv = (options: CsvOptions) => merchantCsv(rows, options);
  await emit(ctx.io, output, items, () => {
    if (items.length === 0) ctx.log(opts.page === undefined ? 'no sub-merchants' : `no sub-merchants on page ${first}`);
    else ctx.io.out(listTable(items, ctx.io.colorOut, ctx.io.stdoutIsTTY));
    if (!opts.all && page.next) {
      const size = page.page_size ?? pageSize;
      const pages = page.count !== undefined && size ? ` of ${Math.ceil(page.count / size)}` : '';
      ctx.log(`page ${page.page ?? first}${pages} (${page.count ?? '?'} sub-merchants): next with --page ${current + 1}, or all with --all`);
    }
  }, csv);
}

/**
 * The list items with their details merged in. One that cannot be read keeps the list's own
 * columns, and stderr says which (the rest of the sheet is still worth having).
 */
async function withDetails(ctx: Context, api: ApiClient, items: MerchantListItem[]): Promise<MerchantRow[]> {
  const progress = startProgress(ctx.io, items.length, 'reading sub-merchant details');
  const outcomes = await fetchAll(
    items.map((m) => m.id),
    DEFAULT_CONCURRENCY,
    (id) => partnerRequest<MerchantDetails>(api, { method: 'GET', path: merchantPath(id) }),
    () => progress.tick(),
  );
  progress.done();
  return items.map((item, i) => {
    const o = outcomes[i]!;
    if (o.ok) return { ...item, ...o.value };
    ctx.log(`warning: ${item.id}: details not read (${o.error instanceof Error ? o.error.message : String(o.error)}): its legal_name, country, email and updated_at are empty`);
    return item;
  });
}
