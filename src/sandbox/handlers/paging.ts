// page / page_size of the list operations (beyond 3.2, 4.1), read without zod: a GET must not
// load the request schemas.
import { validationError } from '../errors.js';
import type { RequestContext } from './types.js';

export function pageParam(ctx: RequestContext, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw validationError([{ path: name, message: `must be a whole number from 1 to ${max}` }]);
  }
  return Number(raw);
}

/** count, page, page_size, next and previous of one page; next/previous are addresses or null. */
export function pageOf(ctx: RequestContext, path: string, page: number, pageSize: number, count: number, extra: URLSearchParams = new URLSearchParams()) {
  const at = (p: number) => {
    const q = new URLSearchParams(extra);
    q.set('page', String(p));
    q.set('page_size', String(pageSize));
    return `${ctx.publicBaseUrl}${path}?${q.toString()}`;
  };
  const last = Math.max(1, Math.ceil(count / pageSize));
  return {
    count,
    page,
    page_size: pageSize,
    next: page * pageSize < count ? at(page + 1) : null,
    previous: page > 1 ? at(Math.min(page - 1, last)) : null,
  };
}
