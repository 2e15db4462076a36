// Whose rows are whose: the one place that knows which tables hold an account's data, used by
// reset (issue 21 item 6) and by snapshots over HTTP (issue 24). Read from the schema itself, not
// from a list: a table a later migration adds with a merchant_id column (events, faults...) is
// scoped with no change here, and a child table without one (a delivery attempt pointing at its
// event) follows its parent through the declared foreign key.
//
// Kinds of table:
// - `ids`: claimed identifiers. Never emptied: an ID is never handed out twice, even after reset.
// - `merchants`: the accounts. Seeded accounts (credentials) stay; sub-merchants created through
//   the API are data of their PSP and go with it.
// - `webhooks`: registrations of running `pgw listen`s (listener = 1) belong to live processes,
//   not to the data; they stay (a listener would otherwise go deaf without knowing it).
// - any other table with a merchant_id column: the data of that merchant.
// - a table without merchant_id whose foreign key points at one of those: follows its parent.
// - anything else (the sandbox clock): the database's, never an account's.
import type { Db } from '../db.js';
import type { Core, Scope } from './core.js';

/** Never part of the data (schema bookkeeping, a snapshot's own description). */
const NOT_DATA = new Set(['ids', 'pgw_snapshot']);

export interface ForeignKey {
  column: string;
  parent: string;
  parentColumn: string;
}

export interface TableShape {
  name: string;
  columns: string[];
  /** Has a merchant_id column: scoped by it. */
  scoped: boolean;
  foreignKeys: ForeignKey[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const quoteIdent = quote;

/** The data tables of the schema `schema` (main, or an attached snapshot), oldest first. */
export function dataTables(db: Db, schema = 'main'): TableShape[] {
  const names = db
    .all<{ name: string }>(`SELECT name FROM ${quote(schema)}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid`)
    .map((r) => r.name)
    .filter((n) => !NOT_DATA.has(n));
  return names.map((name) => {
    const info = db.all<{ name: string; pk: number }>(`PRAGMA ${quote(schema)}.table_info(${quote(name)})`);
    const columns = info.map((c) => c.name);
    const foreignKeys = db.all<{ table: string; from: string; to: string | null }>(`PRAGMA ${quote(schema)}.foreign_key_list(${quote(name)})`).map((fk) => ({
      column: fk.from,
      parent: fk.table,
      parentColumn: fk.to ?? primaryKeyOf(db, schema, fk.table),
    }));
    return { name, columns, scoped: columns.includes('merchant_id'), foreignKeys };
  });
}

function primaryKeyOf(db: Db, schema: string, table: string): string {
  const pk = db.all<{ name: string; pk: number }>(`PRAGMA ${quote(schema)}.table_info(${quote(table)})`).find((c) => c.pk === 1);
  return pk?.name ?? 'rowid';
}

/**
 * A table whose rows follow a scoped parent (it has no merchant_id of its own): the foreign key
 * to a table with merchant_id, or to another such follower (a delivery attempt → its delivery →
 * its event).
 */
export function scopedParent(table: TableShape, tables: readonly TableShape[], depth = 0): ForeignKey | undefined {
  if (table.scoped || depth > 4) return undefined;
  return table.foreignKeys.find((fk) => {
    const parent = tables.find((t) => t.name === fk.parent);
    return parent !== undefined && parent !== table && (parent.scoped || scopedParent(parent, tables, depth + 1) !== undefined);
  });
}

/**
 * The accounts `merchantId` answers for: itself, and a PSP's sub-merchants (spec part 5 rule 3).
 */
export function accountScope(core: Core, merchantId: string): string[] {
  const subs = core.db.all<{ merchant_id: string }>('SELECT merchant_id FROM merchants WHERE parent_id = ? ORDER BY created_at, merchant_id', merchantId);
  return [merchantId, ...subs.map((r) => r.merchant_id)];
}

const marks = (scope: Scope) => scope.map(() => '?').join(', ');

/** SQL condition (with its parameters) selecting the rows of `scope` in `table`; undefined: not an account's. */
export function scopeCondition(table: TableShape, tables: readonly TableShape[], scope: Scope, schema = 'main', depth = 0): { where: string; params: string[] } | undefined {
  if (table.name === 'merchants' || table.scoped) return { where: `merchant_id IN (${marks(scope)})`, params: [...scope] };
  const fk = scopedParent(table, tables);
  const parent = fk && tables.find((t) => t.name === fk.parent);
  if (!fk || !parent || depth > 4) return undefined;
  const inner = scopeCondition(parent, tables, scope, schema, depth + 1)!;
  return {
    where: `${quote(fk.column)} IN (SELECT ${quote(fk.parentColumn)} FROM ${quote(schema)}.${quote(fk.parent)} WHERE ${inner.where})`,
    params: inner.params,
  };
}

/** What a reset of `scope` (undefined: every account) would delete, per table, and which sub-merchants go. */
export interface ResetPreview {
  merchants: { merchant_id: string; brand_name: string; psp: boolean; sub_merchant: boolean; deleted: boolean }[];
  counts: Record<string, number>;
}

export function previewReset(core: Core, scope: Scope | undefined, caller?: string): ResetPreview {
  const { db } = core;
  return db.read(() => {
    const tables = dataTables(db);
    const counts: Record<string, number> = {};
    for (const t of tables) {
      if (t.name === 'merchants') continue;
      const cond = scope ? scopeCondition(t, tables, scope) : t.scoped || scopedParent(t, tables) ? { where: '1', params: [] } : undefined;
      if (!cond) continue;
      const listenerKept = t.name === 'webhooks' ? ' AND listener = 0' : '';
      counts[t.name] = db.get<{ n: number }>(`SELECT count(*) AS n FROM ${quote(t.name)} WHERE (${cond.where})${listenerKept}`, ...cond.params)!.n;
    }
    const rows = db.all<{ merchant_id: string; brand_name: string; is_psp: number; parent_id: string | null; seed_role: string | null }>(
      scope
        ? `SELECT merchant_id, brand_name, is_psp, parent_id, seed_role FROM merchants WHERE merchant_id IN (${marks(scope)}) ORDER BY parent_id IS NOT NULL, created_at, merchant_id`
        : 'SELECT merchant_id, brand_name, is_psp, parent_id, seed_role FROM merchants ORDER BY parent_id IS NOT NULL, created_at, merchant_id',
      ...(scope ?? []),
    );
    return {
      merchants: rows.map((m) => ({
        merchant_id: m.merchant_id,
        brand_name: m.brand_name,
        psp: m.is_psp === 1,
        sub_merchant: m.parent_id !== null,
        deleted: m.seed_role === null && m.merchant_id !== caller,
      })),
      counts,
    };
  });
}

/**
 * Delete the data of `scope` (undefined: of every account), inside the caller's write
 * transaction. Foreign keys are checked at commit (defer_foreign_keys), so the order of the
 * tables does not matter; rows of child tables whose parent went are removed after.
 */
export function deleteData(db: Db, scope: Scope | undefined, caller?: string): void {
  db.run('PRAGMA defer_foreign_keys = ON');
  const tables = dataTables(db);
  for (const t of tables) {
    if (t.name === 'merchants') continue;
    if (!t.scoped) continue; // children follow below; the database's own tables stay
    const cond = scope ? scopeCondition(t, tables, scope)! : { where: '1', params: [] as string[] };
    const listenerKept = t.name === 'webhooks' ? ' AND listener = 0' : '';
    db.run(`DELETE FROM ${quote(t.name)} WHERE (${cond.where})${listenerKept}`, ...cond.params);
  }
  // Created sub-merchants go with their data (never the caller itself); a listener registered for
  // one of them goes too (its merchant no longer exists).
  const created = scope ? `seed_role IS NULL AND merchant_id IN (${marks(scope)}) AND merchant_id IS NOT ?` : 'seed_role IS NULL';
  const params = scope ? [...scope, caller ?? null] : [];
  db.run(`DELETE FROM webhooks WHERE merchant_id IN (SELECT merchant_id FROM merchants WHERE ${created})`, ...params);
  db.run(`DELETE FROM merchants WHERE ${created}`, ...params);
  removeOrphans(db, tables);
}

/** Rows whose declared parent no longer exists, in every table, until none is left. */
export function removeOrphans(db: Db, tables: readonly TableShape[] = dataTables(db)): void {
  for (let pass = 0; pass < 8; pass++) {
    let removed = 0;
    for (const t of tables) {
      for (const fk of t.foreignKeys) {
        removed += db.run(
          `DELETE FROM ${quote(t.name)} WHERE ${quote(fk.column)} IS NOT NULL AND ${quote(fk.column)} NOT IN (SELECT ${quote(fk.parentColumn)} FROM ${quote(fk.parent)})`,
        ).changes;
      }
    }
    if (removed === 0) return;
  }
}
