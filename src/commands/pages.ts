// Paged lists (link list, settle list): one page, or with --all every page after it, with a
// progress bar on a terminal. `next` is read for its page number only: requests always go to the
// profile's base address, so credentials never follow a link to another host.
import type { Context } from '../context.js';
import { GatewayError } from '../errors.js';
import { startProgress } from '../output/progress.js';
import { positiveIntOption } from './parse.js';

export interface PageOptions {
  page?: string;
  pageSize?: string;
  all?: boolean;
}

export interface Page<T> {
  count?: number;
  page?: number;
  page_size?: number;
  next?: unknown;
  previous?: unknown;
  results?: T[] | null;
}

/**
 * A page as a list operation answers it: `results` must be an array (beyond 3.2: a missing one is
 * an error); anything else is the gateway misbehaving, named by `what` (exit 1).
 */
export function pageWithResults<T>(data: Page<T> | null | undefined, what: string): Page<T> {
  if (data === null || typeof data !== 'object' || !Array.isArray(data.results)) {
    throw new GatewayError(`unexpected response: ${what} has no results array`, { code: 'UNEXPECTED_RESPONSE' });
  }
  return data;
}

/** beyond 3.2 / 4.1: next is a flag of its type not shown; present and non-empty means more. */
function hasNext(page: Page<unknown>): boolean {
  return page.next !== null && page.next !== undefined && page.next !== '' && page.next !== false;
}

function nextNumber(page: Page<unknown>, current: number): number {
  if (typeof page.next === 'string') {
    try {
      const n = Number(new URL(page.next, 'http://relative.invalid').searchParams.get('page'));
      if (Number.isInteger(n) && n > current) return n;
    } catch {
      // not an address: the following page
    }
  }
  return current + 1;
}

export interface Listed<T> {
  items: T[];
  /** The last page fetched (for the "next with --page" hint). */
  last: Page<T>;
  current: number;
  first: number;
  pageSize?: number;
}

/** Flags checked before any request (exit 2); then the page(s). */
export async function fetchListed<T>(
  ctx: Context,
  opts: PageOptions,
  maxPageSize: number,
  label: string,
  fetchPage: (page: number, pageSize: number | undefined) => Promise<Page<T>>,
): Promise<Listed<T>> {
  const first = opts.page === undefined ? 1 : positiveIntOption('--page', opts.page);
  const pageSize = opts.pageSize === undefined ? undefined : positiveIntOption('--page-size', opts.pageSize, maxPageSize);
  let current = first;
  let page = await fetchPage(current, pageSize);
  const items = [...(page.results ?? [])];
  if (opts.all) {
    const progress = startProgress(ctx.io, page.count ?? items.length, `fetching ${label}`);
    for (let i = 0; i < items.length; i++) progress.tick();
    try {
      while (hasNext(page)) {
        // A gateway that keeps naming a next page with empty pages would otherwise loop for ever.
        if ((page.results ?? []).length === 0) throw new GatewayError(`page ${current} was empty but named a next page: stopped`);
        current = nextNumber(page, current);
        page = await fetchPage(current, pageSize);
        for (const item of page.results ?? []) {
          items.push(item);
          progress.tick();
        }
      }
    } finally {
      progress.done();
    }
  }
  return { items, last: page, current, first, pageSize };
}

/** "page 1 of 3 (25 links): next with --page 2, or all with --all", on stderr, when there is more. */
export function moreHint(ctx: Context, listed: Listed<unknown>, noun: string, all: boolean | undefined): void {
  if (all || !hasNext(listed.last)) return;
  const { last, current, pageSize } = listed;
  const size = last.page_size ?? pageSize;
  const pages = last.count !== undefined && size ? ` of ${Math.ceil(last.count / size)}` : '';
  ctx.log(`page ${last.page ?? current}${pages} (${last.count ?? '?'} ${noun}): next with --page ${current + 1}, or all with --all`);
}
