// What a merchant update changes, for people (issue 22 item 6, issue 20 item 6): after the PATCH,
// the new value of each field it changed; before a production PATCH, current → new for each field,
// read from the gateway first, so the person confirming sees what the change does. The bank
// account number shows its last 4 characters only, as `merchant get` does on a terminal.
import type { MerchantDetails } from './get.js';
import { lastFour } from './get.js';

type Body = Record<string, unknown>;

export interface Change {
  /** `company_details.website` */
  path: string;
  object: string;
  key: string;
  value: unknown;
}

const MASKED = new Set(['bank_account_number']);

/** Every field of the body sent, in the order given (company_details before settlement_details as written). */
export function changesOf(body: Body): Change[] {
  const changes: Change[] = [];
  for (const [object, fields] of Object.entries(body)) {
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) continue;
    for (const [key, value] of Object.entries(fields as Body)) changes.push({ path: `${object}.${key}`, object, key, value });
  }
  return changes;
}

/** A value as a person reads it: lists joined, booleans as yes/no, nothing as "(none)". */
export function shown(key: string, value: unknown): string {
  if (value === undefined || value === null) return '(none)';
  if (value === '') return '(empty)';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return MASKED.has(key) ? (lastFour(text) ?? text) : text;
}

/** Only the objects the gateway says it updated (all sent, when it does not say). */
export function appliedChanges(changes: Change[], updated: string[] | undefined): Change[] {
  if (!Array.isArray(updated) || updated.length === 0) return changes;
  return changes.filter((c) => updated.includes(c.object) || updated.includes(c.path));
}

/** The sub-merchant's current value of a field; beyond 5.1's older `company`/`bank` keys as well. */
function currentValue(current: MerchantDetails, change: Change): unknown {
  const older = change.object === 'company_details' ? current.company : current.bank;
  const object = ((current as Body)[change.object] ?? older ?? {}) as Body;
  return object[change.key];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** `  company_details.website  https://old.example → https://new.example` per field; unchanged ones said so. */
export function diffLines(current: MerchantDetails, changes: Change[]): string[] {
  const width = Math.max(...changes.map((c) => c.path.length));
  return changes.map((c) => {
    const before = currentValue(current, c);
    const label = c.path.padEnd(width);
    if (same(before, c.value)) return `  ${label}  ${shown(c.key, c.value)} (unchanged)`;
    return `  ${label}  ${shown(c.key, before)} → ${shown(c.key, c.value)}`;
  });
}

/** Each field current → new as data (a two-step `pgw mcp` preview): the bank account number masked as in diffLines. */
export function changeRows(current: MerchantDetails, changes: Change[]): { field: string; current: string; new: string; unchanged: boolean }[] {
  return changes.map((c) => {
    const before = currentValue(current, c);
    return { field: c.path, current: shown(c.key, before), new: shown(c.key, c.value), unchanged: same(before, c.value) };
  });
}
