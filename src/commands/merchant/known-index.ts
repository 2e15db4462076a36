// The registration and tax numbers of an account's existing sub-merchants, for the duplicate check
// of `merchant create --file` (duplicates.ts), kept between runs in a local index (issue 44 item
// 7). The list operation (spec 4.8) carries neither number, so reading them all costs one request
// per sub-merchant: 5,001 for a 3-row file on an account of 5,000, every run. The index keeps each
// one's numbers with its `updated_at` (beyond 5.1), and a run reads again only what changed.
//
// How a run knows what changed: the list sorted by last update, newest first (`ordering=
// -last_updated_at`, vendor 7.2). 1. The newest sub-merchant and its updated_at, U, are read
// before anything else: a change made after that read is stamped later than U. 2. The whole list,
// ids only (a page of up to 1,000 per request: it shows what is new and what is gone). 3. Details
// are read from the top down, until the first sub-merchant stamped before the U of the previous
// run: everything below it last changed before that run began, which read it. Anything that does
// not fit (no index yet, a sub-merchant of the index gone from the list, U older than the previous
// run's, a list not in that order, no updated_at) reads every sub-merchant's details, as before.
//
// The file: <config dir>/merchant-index/<account hash>.json, 0600 in a 0700 directory, written
// whole (src/files/private-file.ts). It holds business identifiers, no credential and no card.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { NotFoundError } from '../../errors.js';
import { writePrivateFile } from '../../files/private-file.js';
import { startProgress } from '../../output/progress.js';
import { DEFAULT_CONCURRENCY, fetchAll } from '../lookup.js';
import { MAX_PAGE_SIZE, fetchSubMerchants } from './list.js';
import { merchantPath, partnerRequest } from './partner.js';
import { resultsAccount } from './results.js';
import type { MerchantDetails } from './get.js';

/** What the index keeps of one sub-merchant: its numbers as compared, its brand, its updated_at. */
export interface IndexEntry {
  registration_number?: string;
  tax_id?: string;
  brand?: string;
  updated_at?: string;
}

interface IndexFile {
  version: 1;
  account: string;
  /** The previous run's U (above): a sub-merchant stamped before it was read by that run. */
  safe_before?: string;
  merchants: Record<string, IndexEntry>;
}

const ORDERING = '-last_updated_at';

/** An ISO 8601 time as epoch microseconds (the sandbox stamps microseconds), or undefined. */
export function instant(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d)?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)?$/.exec(text.trim());
  if (!m) return undefined;
  const zone = m[4] === undefined || m[4] === 'Z' ? 'Z' : `${m[4].slice(0, 3)}:${m[4].slice(-2)}`;
  const ms = Date.parse(`${m[1]}T${m[2]}${zone}`);
  return Number.isNaN(ms) ? undefined : ms * 1000 + Number((m[3] ?? '').padEnd(6, '0').slice(0, 6));
}

function indexPath(ctx: Context, account: string): string {
  const name = createHash('sha256').update(account).digest('hex').slice(0, 16);
  return join(ctx.configDir, 'merchant-index', `${name}.json`);
}

function load(path: string, account: string): IndexFile | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as IndexFile;
    const ok = data?.version === 1 && data.account === account && data.merchants !== null && typeof data.merchants === 'object';
    return ok ? data : undefined;
  } catch {
    return undefined;
  }
}

export interface KnownMerchants {
  /** Every listed sub-merchant, id → what the index has of it (read now or kept from before). */
  merchants: Map<string, IndexEntry>;
  /** One line for stderr: what was read, and why. */
  said: string;
}

/**
 * The account's sub-merchants with their numbers, reading only what changed since the last run
 * (above), and the index saved for the next one. `entryOf` takes a sub-merchant's details apart.
 */
export async function knownMerchants(ctx: Context, gateway: ApiClient, entryOf: (m: MerchantDetails) => IndexEntry): Promise<KnownMerchants> {
  let requests = 0;
  const api: ApiClient = {
    baseUrl: gateway.baseUrl,
    request: (req) => (requests++, gateway.request(req)),
    send: (req) => (requests++, gateway.send(req)),
    preview: (req) => gateway.preview(req),
  };
  const account = await accountKey(ctx);
  const path = indexPath(ctx, account);
  const old = load(path, account);
  const details = async (id: string): Promise<IndexEntry | undefined> => {
    try {
      return entryOf(await partnerRequest<MerchantDetails>(api, { method: 'GET', path: merchantPath(id) }));
    } catch (err) {
      if (err instanceof NotFoundError) return undefined; // gone between the list and the look-up
      throw err;
    }
  };

  // 1. The newest change, read before the list.
  const top = (await fetchSubMerchants(ctx, api, { first: 1, pageSize: 1, ordering: ORDERING })).items[0];
  const newest = top ? await details(top.id) : undefined;
  // 2. Every sub-merchant, newest change first.
  const order = top ? (await fetchSubMerchants(ctx, api, { first: 1, pageSize: MAX_PAGE_SIZE, all: true, ordering: ORDERING })).items.map((m) => m.id) : [];
  const listed = new Set(order);
  // Read in this run. The newest is not read twice: should it change in between, it is stamped
  // after U and read again by the next run.
  const fresh = new Map<string, IndexEntry | undefined>(top ? [[top.id, newest]] : []);

  const since = instant(old?.safe_before);
  const u = instant(newest?.updated_at);
  let why: string | undefined;
  if (!old) why = 'no index of this account yet';
  else if (since === undefined) why = 'the index has no time to start from';
  else if (Object.keys(old.merchants).some((id) => !listed.has(id))) why = 'sub-merchants of the index are gone (a reset or a restore)';
  else if (u === undefined) why = order.length === 0 ? undefined : 'the gateway gives no updated_at';
  else if (u < since) why = 'the newest change is older than the last check (the clock went back)';

  // 3. From the top down, until the first one stamped before the previous run's U.
  if (why === undefined && since !== undefined) {
    let previous = Number.POSITIVE_INFINITY;
    let stopped = false;
    for (let at = 0, chunk = 2; at < order.length && !stopped && why === undefined; at += chunk, chunk = DEFAULT_CONCURRENCY) {
      const ids = order.slice(at, at + chunk);
      for (const o of await fetchAll(ids.filter((id) => !fresh.has(id)), DEFAULT_CONCURRENCY, details)) {
        if (!o.ok) throw o.error;
        fresh.set(o.id, o.value);
      }
      for (const id of ids) {
        const entry = fresh.get(id);
        if (entry === undefined) continue;
        const t = instant(entry.updated_at);
        if (t === undefined) why = 'a sub-merchant without updated_at';
        else if (t > previous) why = 'the gateway did not list them newest change first';
        else if (t < since) stopped = true;
        if (why !== undefined || stopped) break;
        previous = t as number;
      }
    }
  }
  // Everything when the index cannot be trusted; else only what it has never seen (none, in order).
  const missing = order.filter((id) => !fresh.has(id) && (why !== undefined || old?.merchants[id] === undefined));
  if (missing.length > 0) {
    const progress = startProgress(ctx.io, missing.length, 'reading sub-merchant details');
    const outcomes = await fetchAll(missing, DEFAULT_CONCURRENCY, details, () => progress.tick());
    progress.done();
    for (const o of outcomes) {
      if (!o.ok) throw o.error;
      fresh.set(o.id, o.value);
    }
  }

  const merchants = new Map<string, IndexEntry>();
  for (const id of order) {
    const entry = fresh.has(id) ? fresh.get(id) : old?.merchants[id];
    if (entry) merchants.set(id, entry);
  }
  const saved = save(path, { version: 1, account, ...(newest?.updated_at ? { safe_before: newest.updated_at } : {}), merchants: Object.fromEntries(merchants) });
  // Detail reads: the newest first (1.), then those of the walk or of the full read.
  const read = fresh.size;
  const what = why === undefined ? `details read: ${read}, the rest unchanged since the last check` : `details read: all ${order.length} (${why})`;
  return { merchants, said: `duplicate check: ${order.length} existing sub-merchants; ${what}; ${requests} requests; ${saved}` };
}

/** The account an index belongs to, as a results file names it (results.ts). */
async function accountKey(ctx: Context): Promise<string> {
  const a = await resultsAccount(ctx);
  return `${a.gateway}\n${a.client_id ?? ''}\n${a.merchant_id ?? ''}`;
}

function save(path: string, index: IndexFile): string {
  try {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    writePrivateFile(path, `${JSON.stringify(index)}\n`);
    return `index ${path}`;
  } catch (err) {
    return `index not saved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}
