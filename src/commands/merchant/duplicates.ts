// Duplicate sub-merchants in a `merchant create --file` run (issue 33 item 1): a row identical to an
// earlier row (the same content hash the results file records), a row with the registration_number
// or tax_id of an earlier row, and a row with the registration_number or tax_id of a sub-merchant
// that already exists (read with the list operation, spec 4.8, and each one's details, beyond 5.1:
// the list item has neither number; kept between runs in a local index, known-index.ts, so a run
// reads again only what changed). All refused before anything is sent, unless
// --allow-duplicates. The gateway itself is not known to refuse any of them (spec 4.9 names no
// uniqueness rule), so without this a repeated row is a second merchant.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { wantsJson } from '../../output/render.js';
import type { MerchantDetails } from './get.js';
import { knownMerchants, type IndexEntry } from './known-index.js';

/** A row of the input: its number, content hash and the object read from it. */
export interface Row {
  n: number;
  hash: string;
  value?: unknown;
}

const KEYS = ['registration_number', 'tax_id'] as const;
type Key = (typeof KEYS)[number];

function companyOf(value: unknown): Record<string, unknown> {
  const company = (value as { company_details?: unknown } | null | undefined)?.company_details;
  return company !== null && typeof company === 'object' && !Array.isArray(company) ? (company as Record<string, unknown>) : {};
}

/** The number as compared: spaces dropped, any case (`ABCDE 1234 f` is `ABCDE1234F`). */
function numberOf(company: Record<string, unknown>, key: Key): string | undefined {
  const v = company[key];
  if (typeof v !== 'string') return undefined;
  const text = v.replace(/\s+/g, '').toUpperCase();
  return text === '' ? undefined : text;
}

/**
 * Rows (among `check`) that repeat an earlier row of the same input: line → reason. Every row read
 * as an object counts as an earlier row, whether or not it is sent this time (a row created by the
 * run being resumed, or one refused for another reason, still means that merchant).
 */
export function repeatsInInput(rows: readonly Row[], check: ReadonlySet<number>, unit: string): Map<number, string> {
  const reasons = new Map<number, string>();
  const byHash = new Map<string, number>();
  const byKey: Record<Key, Map<string, number>> = { registration_number: new Map(), tax_id: new Map() };
  for (const row of rows) {
    if (row.value === undefined) continue;
    const company = companyOf(row.value);
    const earlier = byHash.get(row.hash);
    if (check.has(row.n)) {
      if (earlier !== undefined) reasons.set(row.n, `duplicate: identical to ${unit} ${earlier}`);
      else {
        const same = KEYS.map((k) => {
          const v = numberOf(company, k);
          return { k, at: v === undefined ? undefined : byKey[k].get(v) };
        }).filter((x) => x.at !== undefined);
        const at = same[0]?.at;
        const keys = same.filter((x) => x.at === at).map((x) => x.k);
        if (at !== undefined) reasons.set(row.n, `duplicate: same ${keys.join(' and ')} as ${unit} ${at}`);
      }
    }
    if (earlier === undefined) byHash.set(row.hash, row.n);
    for (const k of KEYS) {
      const v = numberOf(company, k);
      if (v !== undefined && !byKey[k].has(v)) byKey[k].set(v, row.n);
    }
  }
  return reasons;
}

interface Existing {
  id: string;
  brand?: string;
}

/** What the index keeps of a sub-merchant's details: its two numbers as compared, brand, updated_at. */
function entryOf(m: MerchantDetails): IndexEntry {
  // The sandbox's company_details, or the browser client's `company` (vendor C13).
  const company = { ...(m.company ?? {}), ...(m.company_details ?? {}) };
  const entry: IndexEntry = {};
  for (const k of KEYS) {
    const v = numberOf(company, k);
    if (v !== undefined) entry[k] = v;
  }
  if (typeof company.brand_name === 'string') entry.brand = company.brand_name;
  if (typeof m.updated_at === 'string') entry.updated_at = m.updated_at;
  return entry;
}

/** Every sub-merchant of the account with its two numbers (the index, refreshed; stderr says what was read). */
async function existingNumbers(ctx: Context, api: ApiClient): Promise<Record<Key, Map<string, Existing>>> {
  const { merchants, said } = await knownMerchants(ctx, api, entryOf);
  // Said as the run's summary is (bulk-report.ts): to a person; in JSON mode, with --verbose only.
  if (!wantsJson(ctx.output) || ctx.verbose) ctx.log(said);
  const found: Record<Key, Map<string, Existing>> = { registration_number: new Map(), tax_id: new Map() };
  for (const [id, entry] of merchants) {
    for (const k of KEYS) {
      const v = entry[k];
      if (v !== undefined && !found[k].has(v)) found[k].set(v, { id, ...(entry.brand ? { brand: entry.brand } : {}) });
    }
  }
  return found;
}

/** Rows whose registration_number or tax_id an existing sub-merchant already has: line → reason. */
export async function matchExisting(ctx: Context, api: ApiClient, rows: readonly Row[]): Promise<Map<number, string>> {
  const reasons = new Map<number, string>();
  if (rows.length === 0) return reasons;
  const found = await existingNumbers(ctx, api);
  for (const row of rows) {
    const company = companyOf(row.value);
    const same = KEYS.map((k) => {
      const v = numberOf(company, k);
      return { k, m: v === undefined ? undefined : found[k].get(v) };
    }).filter((x): x is { k: Key; m: Existing } => x.m !== undefined);
    if (same.length === 0) continue;
    const m = same[0]!.m;
    const keys = same.filter((x) => x.m.id === m.id).map((x) => x.k);
    reasons.set(row.n, `duplicate: same ${keys.join(' and ')} as sub-merchant ${m.id}${m.brand ? ` (${m.brand})` : ''}`);
  }
  return reasons;
}

export const DUPLICATE_HINT = '--allow-duplicates creates them anyway';
