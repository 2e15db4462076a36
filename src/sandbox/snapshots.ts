// Snapshots of the sandbox (issue 24): a saved world a test suite restores before each test.
//
// Save is `VACUUM INTO` a private temporary file, renamed into place: SQLite copies one read
// transaction's view, so the copy is consistent while `sandbox serve` and other pgw processes
// keep writing (WAL readers never wait for writers), and a half-written snapshot is never seen.
//
// Restore never swaps files under open connections (a process with the database open would keep
// reading the old file, or a torn mix of pages). It runs inside ONE write transaction on the live
// database: the snapshot is ATTACHed, and every data table's rows are replaced from it. Every
// process sees the commit as one change: a reader's transaction shows the state before it or the
// state after, never a mix, and the read caches of every process drop at that commit (wal-index).
// The sandbox clock and every other table of the database come back too (a global restore).
//
// Where: beside the database, in `<db>-snapshots/` (0700, files 0600: they hold the demo
// accounts' secrets). A snapshot taken over HTTP covers the caller's data only (data-scope.ts),
// kept under `accounts/<merchant_id>/`, so one team's snapshot names never meet another's.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Db, stamp, type MicroClock } from './db.js';
import { clockOffset, moveClock } from './store/clock.js';
import { migrate, schemaVersion } from './migrations.js';
import { SandboxError } from './errors.js';
import { dataTables, deleteData, quoteIdent as q, scopeCondition, scopedParent, type TableShape } from './store/data-scope.js';
import type { Scope } from './store/core.js';

export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface SnapshotInfo {
  name: string;
  /** global: the whole database; account: the data of `merchant_ids` only. */
  scope: 'global' | 'account';
  /** The account whose snapshot it is (scope account), else null. */
  account: string | null;
  merchant_ids: string[] | null;
  /** The sandbox clock when it was taken. */
  created_at: string;
  schema_version: number;
  orders: number;
  payments: number;
  bytes: number;
}

/** Where snapshots live: the global ones, or one account's. */
export interface SnapshotPlace {
  dbPath: string;
  /** The account whose snapshots these are (HTTP without --allow-global-snapshots). */
  account?: string;
}

const snapshotNotFound = (name: string) => new SandboxError(404, 'ERR_SNAPSHOT_002', 'Snapshot not found', { name: `no snapshot named ${name}` });

export function checkSnapshotName(name: unknown): string {
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
    throw new SandboxError(400, 'ERR_VALIDATION_000', 'Invalid request', {
      name: 'a snapshot name is 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit',
    });
  }
  return name;
}

export function snapshotsRoot(dbPath: string): string {
  if (dbPath === '' || dbPath === ':memory:') {
    throw new SandboxError(400, 'ERR_SNAPSHOT_001', 'Snapshots need a database file', { database: 'an in-memory sandbox has no place for snapshots' });
  }
  return `${dbPath}-snapshots`;
}

function placeDir(place: SnapshotPlace): string {
  const root = snapshotsRoot(place.dbPath);
  return place.account === undefined ? root : join(root, 'accounts', place.account);
}

function fileOf(place: SnapshotPlace, name: string): string {
  return join(placeDir(place), `${checkSnapshotName(name)}.db`);
}

/** Read a snapshot file's own description (the pgw_snapshot table). */
function readInfo(db: Db, file: string, name: string): SnapshotInfo {
  const conn = db.driver.open(file);
  try {
    const rows = conn.prepare('SELECT key, value FROM pgw_snapshot').all() as { key: string; value: string }[];
    const meta = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown])) as Partial<SnapshotInfo>;
    return {
      name,
      scope: meta.scope ?? 'global',
      account: meta.account ?? null,
      merchant_ids: meta.merchant_ids ?? null,
      created_at: meta.created_at ?? '',
      schema_version: schemaVersion(conn),
      orders: meta.orders ?? 0,
      payments: meta.payments ?? 0,
      bytes: statSync(file).size,
    };
  } finally {
    conn.close();
  }
}

export interface SaveOptions {
  /** The accounts whose data it keeps; undefined: the whole database. */
  scope?: Scope;
  /** The sandbox clock now, in epoch microseconds: a global restore sets the clock back to it. */
  clockMicros: number;
}

/** Save (or replace) snapshot `name`; `replaced` says whether one of that name existed. */
export function saveSnapshot(db: Db, place: SnapshotPlace, name: string, opts: SaveOptions): SnapshotInfo & { replaced: boolean } {
  const file = fileOf(place, name);
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A name starting with a dot is never a snapshot's (SNAPSHOT_NAME), so temporaries never collide.
  const tmp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // Created empty and owner-only first: VACUUM INTO fills an empty file and keeps its mode.
  closeSync(openSync(tmp, 'wx', 0o600));
  try {
    if (db.inTransaction) throw new Error('a snapshot cannot be taken inside a transaction');
    db.raw.prepare('VACUUM INTO ?').run(tmp);
    describeCopy(db, tmp, name, place, opts);
    const replaced = existsSync(file);
    renameSync(tmp, file);
    chmodSync(file, 0o600);
    return { ...readInfo(db, file, name), replaced };
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** In the fresh copy: keep only the scope's rows (if scoped) and write its description. */
function describeCopy(db: Db, tmp: string, name: string, place: SnapshotPlace, opts: SaveOptions): void {
  const copy = new Db(tmp, db.driver);
  try {
    copy.raw.exec('PRAGMA foreign_keys = OFF');
    copy.write(() => {
      if (opts.scope) keepScope(copy, opts.scope);
      else copy.run("DELETE FROM webhooks WHERE listener = 1"); // live processes' registrations are never restored
      copy.run('CREATE TABLE IF NOT EXISTS pgw_snapshot (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      copy.run('DELETE FROM pgw_snapshot');
      const count = (t: string) => copy.get<{ n: number }>(`SELECT count(*) AS n FROM ${q(t)}`)!.n;
      const meta: Record<string, unknown> = {
        name,
        scope: opts.scope ? 'account' : 'global',
        account: opts.scope ? (place.account ?? null) : null,
        merchant_ids: opts.scope ? [...opts.scope] : null,
        created_at: stamp(opts.clockMicros),
        clock_micros: opts.clockMicros,
        orders: count('orders'),
        payments: count('payments'),
      };
      for (const [k, v] of Object.entries(meta)) copy.run('INSERT INTO pgw_snapshot (key, value) VALUES (?, ?)', k, JSON.stringify(v));
    });
    // One file, no -wal beside it: a snapshot is copied, listed and attached as a plain file.
    copy.raw.exec('PRAGMA journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

function keepScope(copy: Db, scope: Scope): void {
  const tables = dataTables(copy);
  const marks = scope.map(() => '?').join(', ');
  for (const t of tables) {
    if (t.name === 'merchants' || t.scoped) {
      const listeners = t.name === 'webhooks' ? ' OR listener = 1' : '';
      copy.run(`DELETE FROM ${q(t.name)} WHERE merchant_id NOT IN (${marks})${listeners}`, ...scope);
    }
  }
  for (const t of tables) {
    if (!scopedParent(t, tables)) continue;
    const cond = scopeCondition(t, tables, scope)!;
    copy.run(`DELETE FROM ${q(t.name)} WHERE NOT (${cond.where})`, ...cond.params);
  }
  // I2: another tree's clock is not the caller's to keep (its own is, through clock_micros).
  copy.run(`DELETE FROM account_clocks WHERE account_id NOT IN (${marks})`, ...scope);
}

export interface RestoreOptions {
  /**
   * Restore only these accounts' data (a snapshot over HTTP): their current rows are replaced by
   * the snapshot's; every other account's, and the database's own tables (the clock), stay.
   */
  scope?: Scope;
  /** The caller (never deleted as a created sub-merchant). */
  caller?: string;
  /**
   * The machine's clock: a restore sets the sandbox clocks it brings back to what they read when
   * the snapshot was taken (then they run on), so a restored world's due times and expiries are
   * as they were. A whole-database restore moves every clock; a scoped one the clock of the
   * account tree whose root account the snapshot holds (I2: a sub-merchant's snapshot leaves its
   * PSP's clock, which is its siblings' too, alone).
   */
  machineMicros?: MicroClock;
}

/** Restore snapshot `name` into the live database, in one write transaction. */
export function restoreSnapshot(db: Db, place: SnapshotPlace, name: string, opts: RestoreOptions = {}): SnapshotInfo {
  const file = fileOf(place, name);
  if (!existsSync(file)) throw snapshotNotFound(name);
  upgrade(db, file);
  const info = readInfo(db, file, name);
  if (info.scope === 'account' && !opts.scope) {
    throw new SandboxError(400, 'ERR_SNAPSHOT_003', 'Snapshot covers one account', { name: `${name} holds the data of ${info.account ?? 'one account'} only: restore it over HTTP as that account` });
  }
  if (db.inTransaction) throw new Error('a snapshot cannot be restored inside a transaction');
  db.raw.prepare('ATTACH DATABASE ? AS snap').run(file);
  try {
    db.write(() => {
      db.run('PRAGMA defer_foreign_keys = ON');
      const tables = dataTables(db);
      const inSnap = new Set(dataTables(db, 'snap').map((t) => t.name));
      const at = clockAtSave(db);
      const machine = opts.machineMicros;
      if (opts.scope) {
        restoreScope(db, tables, inSnap, opts.scope, info.merchant_ids ?? [], opts.caller);
        if (at !== undefined && machine) {
          const roots = db.raw.prepare('SELECT merchant_id FROM snap.merchants WHERE parent_id IS NULL').all() as { merchant_id: string }[];
          for (const r of roots) if ((info.merchant_ids ?? []).includes(r.merchant_id)) moveClock(db, machine, { merchantId: r.merchant_id }, { to: at });
        }
      } else {
        restoreAll(db, tables, inSnap);
        // Every clock as it read at the save: the default's reading was kept, the trees' move with it.
        if (at !== undefined && machine) moveClock(db, machine, { all: true }, { by: at - (machine() + clockOffset(db, null)) });
      }
      // Claimed IDs are only ever added: one handed out after the snapshot is never handed out again.
      db.raw.prepare('INSERT OR IGNORE INTO ids (id) SELECT id FROM snap.ids').run();
    });
  } finally {
    db.raw.exec('DETACH DATABASE snap');
  }
  return info;
}

/** The sandbox clock when the attached snapshot was taken (older snapshots: unknown). */
function clockAtSave(db: Db): number | undefined {
  const row = db.raw.prepare("SELECT value FROM snap.pgw_snapshot WHERE key = 'clock_micros'").get() as { value: string } | undefined;
  const n = row === undefined ? NaN : Number(JSON.parse(row.value));
  return Number.isFinite(n) ? n : undefined;
}

const cols = (t: TableShape) => t.columns.map(q).join(', ');

function restoreAll(db: Db, tables: readonly TableShape[], inSnap: ReadonlySet<string>): void {
  for (const t of tables) {
    // Registrations of running `pgw listen`s belong to live processes: kept, never brought back.
    const live = t.name === 'webhooks' ? ' WHERE listener = 0' : '';
    db.raw.prepare(`DELETE FROM main.${q(t.name)}${live}`).run();
    if (!inSnap.has(t.name)) continue;
    db.raw.prepare(`INSERT INTO main.${q(t.name)} (${cols(t)}) SELECT ${cols(t)} FROM snap.${q(t.name)}${live}`).run();
  }
}

/**
 * I3: a scoped restore replaces exactly the accounts the snapshot holds. Each must be the
 * caller's to restore: in its scope now, or (a sub-merchant created and since deleted) gone, with
 * its parent in the scope. Anything else refuses the whole restore (ERR_SNAPSHOT_005): a
 * sub-merchant's snapshot restored while acting for its sibling would otherwise empty the sibling
 * and bring back nothing of it. A PSP's own list of sub-merchants is part of its data: when the
 * snapshot holds the PSP, sub-merchants it created since go (as a reset removes them); nothing of
 * an account the snapshot does not hold is touched.
 */
function restoreScope(db: Db, tables: readonly TableShape[], inSnap: ReadonlySet<string>, scope: Scope, saved: readonly string[], caller?: string): void {
  const parents = new Map(
    (db.raw.prepare(`SELECT merchant_id, parent_id FROM snap.merchants`).all() as { merchant_id: string; parent_id: string | null }[]).map((r) => [r.merchant_id, r.parent_id]),
  );
  const exists = (id: string) => db.get('SELECT 1 FROM merchants WHERE merchant_id = ?', id) !== undefined;
  const outside = saved.filter((id) => !scope.includes(id) && (exists(id) || !scope.includes(parents.get(id) ?? '')));
  if (outside.length > 0) {
    throw new SandboxError(400, 'ERR_SNAPSHOT_005', 'Snapshot holds accounts outside your scope', {
      name: `the snapshot holds ${outside.join(', ')}, which this request may not restore (it acts for ${scope.join(', ') || 'no account'}): restore it as the account that saved it, without X-Merchant-ID or with the same one`,
    });
  }
  if (saved.length === 0) return;
  const createdSince = db
    .all<{ merchant_id: string }>(
      `SELECT merchant_id FROM merchants WHERE seed_role IS NULL AND parent_id IN (${marks(saved)}) AND merchant_id NOT IN (${marks(saved)})`,
      ...saved,
      ...saved,
    )
    .map((r) => r.merchant_id)
    .filter((id) => scope.includes(id));
  // The accounts' data now goes first (those of them that exist), then the snapshot's comes back.
  deleteData(db, [...saved.filter(exists), ...createdSince], caller);
  for (const t of tables) {
    if (!inSnap.has(t.name)) continue;
    if (t.name === 'merchants') {
      db.raw.prepare(`INSERT OR REPLACE INTO main.merchants (${cols(t)}) SELECT ${cols(t)} FROM snap.merchants WHERE merchant_id IN (${marks(saved)})`).run(...saved);
    } else if (t.scoped) {
      const live = t.name === 'webhooks' ? ' AND listener = 0' : '';
      db.raw.prepare(`INSERT INTO main.${q(t.name)} (${cols(t)}) SELECT ${cols(t)} FROM snap.${q(t.name)} WHERE merchant_id IN (${marks(saved)})${live}`).run(...saved);
    }
  }
  // Rows that follow a scoped parent (deliveries of an event, attempts of a delivery), parents first.
  const shifts = new Map<string, number>();
  for (const t of tables) {
    if (!inSnap.has(t.name) || !scopedParent(t, tables)) continue;
    const cond = scopeCondition(t, tables, saved, 'snap')!;
    const shift = rowNumberShift(db, t, cond);
    if (shift > 0) shifts.set(t.name, shift);
    const values = t.columns.map((c) => {
      if (c === 'id' && shift > 0) return `${q(c)} + ${shift}`;
      const fk = t.foreignKeys.find((f) => f.column === c && shifts.has(f.parent));
      return fk ? `${q(c)} + ${shifts.get(fk.parent)!}` : q(c);
    });
    db.raw.prepare(`INSERT INTO main.${q(t.name)} (${cols(t)}) SELECT ${values.join(', ')} FROM snap.${q(t.name)} WHERE ${cond.where}`).run(...cond.params);
  }
}

const marks = (ids: readonly string[]) => ids.map(() => '?').join(', ');

/**
 * Follower rows are numbered (deliveries, attempts). Numbers are never handed out twice since
 * migration 9, so a snapshot's rows keep theirs; a snapshot saved before it may hold a number a
 * reset handed out again to another account's row: then the snapshot's rows are renumbered past
 * every number used (and the rows that point at them follow), never skipped or grafted.
 */
function rowNumberShift(db: Db, t: TableShape, cond: { where: string; params: string[] }): number {
  if (!t.columns.includes('id')) return 0;
  const clash = db.raw.prepare(`SELECT 1 FROM snap.${q(t.name)} s WHERE ${cond.where} AND s.id IN (SELECT id FROM main.${q(t.name)}) LIMIT 1`).get(...cond.params);
  if (clash === undefined) return 0;
  const used = db.raw.prepare(`SELECT max(coalesce((SELECT seq FROM main.sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(id) FROM main.${q(t.name)}), 0)) AS n`).get(t.name) as { n: number };
  return Number(used.n);
}

/** A snapshot saved by an older pgw is brought to this schema first; a newer one is refused. */
function upgrade(db: Db, file: string): void {
  const conn = db.driver.open(file);
  try {
    conn.exec('PRAGMA busy_timeout = 5000');
    migrate(conn);
  } catch (err) {
    throw new SandboxError(400, 'ERR_SNAPSHOT_004', 'Snapshot cannot be restored', { name: (err as Error).message });
  } finally {
    conn.close();
  }
}

export function listSnapshots(db: Db, place: SnapshotPlace): SnapshotInfo[] {
  const dir = placeDir(place);
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.db') && SNAPSHOT_NAME.test(f.slice(0, -3)))
    .map((f) => f.slice(0, -3))
    .sort();
  const out: SnapshotInfo[] = [];
  for (const name of names) {
    try {
      out.push(readInfo(db, join(dir, `${name}.db`), name));
    } catch {
      // deleted meanwhile, or not a snapshot pgw wrote: not listed
    }
  }
  return out;
}

export function deleteSnapshot(db: Db, place: SnapshotPlace, name: string): SnapshotInfo {
  const file = fileOf(place, name);
  if (!existsSync(file)) throw snapshotNotFound(name);
  const info = readInfo(db, file, name);
  rmSync(file, { force: true });
  return info;
}
