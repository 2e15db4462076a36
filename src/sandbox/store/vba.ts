// Virtual bank accounts (vendor 11.7.1-11.7.3, 11.10 P6): create, list, get, edit, status. The
// credits they receive are in vba-credits.ts. Every look-up is by virtual_account_id inside the
// caller's scope: another merchant's account is "not found" (vendor 11.7.2: 404 not this merchant's).
import type { VbaCreate, VbaEdit } from '../../api/schemas/vba.js';
import { vbaNotFound } from '../errors.js';
import { newVbaUid, newVirtualAccountId } from '../ids.js';
import { nowStamp, parseJson, type Core, type Scope } from './core.js';
import { assertMayCollect } from './kyc-gate.js';

/**
 * vendor 11.10 P6: one fixed sandbox bank, IFSC and account-number prefix; the account number is
 * the prefix and the virtual_account_id. Not a real bank's: money sent there goes nowhere.
 */
export const VBA_BANK_CODE = 'PGWSBX';
export const VBA_IFSC = 'PGWS0000001';
export const VBA_ACCOUNT_PREFIX = '2222';

export interface VbaRow {
  uid: string;
  virtual_account_id: string;
  merchant_id: string;
  account_name: string;
  account_number: string;
  status: string;
  remitter_lock: string | null;
  amount_lock: string | null;
  created_at: string;
  updated_at: string;
}

export interface RemitterLock {
  allowed_remitters: { account_number: string; ifsc?: string }[];
}
export interface AmountLock {
  min_amount?: number | null;
  max_amount?: number | null;
}

/** vendor 11.7.2 list entry. */
export function vbaListEntry(v: VbaRow): Record<string, unknown> {
  return {
    uid: v.uid,
    virtual_account_id: v.virtual_account_id,
    vba_account_name: v.account_name,
    vba_bank_code: VBA_BANK_CODE,
    vba_account_number: v.account_number,
    vba_ifsc: VBA_IFSC,
    vba_status: v.status,
  };
}

/** vendor 11.7.2 get (and the data of create, edit and status change): the entry with its locks (null when none). */
export function vbaView(v: VbaRow): Record<string, unknown> {
  return {
    ...vbaListEntry(v),
    remitter_lock_details: parseJson<RemitterLock>(v.remitter_lock),
    amount_lock_details: parseJson<AmountLock>(v.amount_lock),
  };
}

export function vbaById(core: Core, scope: Scope, virtualAccountId: string): VbaRow {
  const row = core.db.get<VbaRow>('SELECT * FROM vbas WHERE virtual_account_id = ?', virtualAccountId);
  if (!row || !scope.includes(row.merchant_id)) throw vbaNotFound(virtualAccountId);
  return row;
}

/** A lock as stored: null when absent or null; an amount lock with neither bound is no lock. */
function lockJson(lock: object | null | undefined): string | null {
  if (lock === null || lock === undefined) return null;
  const kept = Object.fromEntries(Object.entries(lock).filter(([, v]) => v !== undefined && v !== null));
  return Object.keys(kept).length === 0 ? null : JSON.stringify(kept);
}

/** POST /pg/vba/ (vendor 11.7.1): a new ACTIVE account named after the merchant; no limit on how many. */
export function createVba(core: Core, merchantId: string, body: VbaCreate): VbaRow {
  const { db } = core;
  return db.write(() => {
    // An account to collect into: not for a sub-merchant that is not APPROVED (kyc-gate.ts).
    assertMayCollect(core, merchantId);
    const merchant = db.get<{ brand_name: string }>('SELECT brand_name FROM merchants WHERE merchant_id = ?', merchantId);
    const at = nowStamp(core, merchantId);
    const virtualAccountId = newVirtualAccountId(db);
    const row: VbaRow = {
      uid: newVbaUid(db),
      virtual_account_id: virtualAccountId,
      merchant_id: merchantId,
      account_name: merchant?.brand_name ?? 'Sandbox merchant',
      account_number: `${VBA_ACCOUNT_PREFIX}${virtualAccountId}`,
      status: 'ACTIVE',
      remitter_lock: lockJson(body.remitter_lock_details),
      amount_lock: lockJson(body.amount_lock_details),
      created_at: at,
      updated_at: at,
    };
    db.run(
      `INSERT INTO vbas (uid, virtual_account_id, merchant_id, account_name, account_number, status, remitter_lock, amount_lock, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.uid,
      row.virtual_account_id,
      row.merchant_id,
      row.account_name,
      row.account_number,
      row.status,
      row.remitter_lock,
      row.amount_lock,
      row.created_at,
      row.updated_at,
    );
    return row;
  });
}

/** GET /pg/vba/ (vendor 11.7.2): newest first, optionally of one status. */
export function listVbas(core: Core, scope: Scope, status: string | undefined, page: number, pageSize: number): { count: number; results: unknown[] } {
  return core.db.read(() => {
    if (scope.length === 0) return { count: 0, results: [] };
    const where = [`merchant_id IN (${scope.map(() => '?').join(', ')})`];
    const args: unknown[] = [...scope];
    if (status !== undefined) {
      where.push('status = ?');
      args.push(status);
    }
    const clause = where.join(' AND ');
    const count = core.db.get<{ n: number }>(`SELECT count(*) AS n FROM vbas WHERE ${clause}`, ...args)!.n;
    const rows = core.db.all<VbaRow>(`SELECT * FROM vbas WHERE ${clause} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`, ...args, pageSize, (page - 1) * pageSize);
    return { count, results: rows.map(vbaListEntry) };
  });
}

/** PUT /pg/vba/{id}/ (vendor 11.7.3): the name and/or the remitter list (replaced whole; null removes it). */
export function editVba(core: Core, scope: Scope, virtualAccountId: string, body: VbaEdit): VbaRow {
  const { db } = core;
  return db.write(() => {
    const v = vbaById(core, scope, virtualAccountId);
    const next: VbaRow = {
      ...v,
      account_name: body.virtual_account_name ?? v.account_name,
      remitter_lock: body.remitter_lock_details === undefined ? v.remitter_lock : lockJson(body.remitter_lock_details),
      updated_at: nowStamp(core, v.merchant_id),
    };
    db.run('UPDATE vbas SET account_name = ?, remitter_lock = ?, updated_at = ? WHERE uid = ?', next.account_name, next.remitter_lock, next.updated_at, v.uid);
    return next;
  });
}

/** PATCH /pg/vba/{id}/ (vendor 11.7.3, 11.7.7): ACTIVE ↔ INACTIVE. No lifecycle event exists (11.7.7). */
export function setVbaStatus(core: Core, scope: Scope, virtualAccountId: string, status: string): VbaRow {
  const { db } = core;
  return db.write(() => {
    const v = vbaById(core, scope, virtualAccountId);
    if (v.status === status) return v;
    const at = nowStamp(core, v.merchant_id);
    db.run('UPDATE vbas SET status = ?, updated_at = ? WHERE uid = ?', status, at, v.uid);
    return { ...v, status, updated_at: at };
  });
}
