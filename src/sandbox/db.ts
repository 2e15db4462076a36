// One SQLite connection with the settings every connection needs, a statement cache (each SQL text
// is prepared once per connection) and the two transaction kinds the store uses. The engine under
// it (node:sqlite or better-sqlite3) is chosen by sqlite/select.ts; nothing here depends on which.
//
// Several pgw processes may open the same file at once (docs/sandbox.md): WAL lets readers run
// beside a writer, busy_timeout makes a writer wait for the lock instead of failing, and every
// read-modify-write runs in BEGIN IMMEDIATE, which takes the write lock up front, so two
// processes never both read "not settled yet" and both settle.
import { migrate } from './migrations.js';
import type { RunInfo, SqlConnection, SqlStatement, SqliteDriver } from './sqlite/connection.js';
import { sqliteDriver } from './sqlite/select.js';
import { WalIndexWatch } from './wal-index.js';
import { sleepSync } from '../sleep-sync.js';
import { wallMicros } from '../monotonic.js';

export type Statement = SqlStatement;

export const BUSY_TIMEOUT_MS = 5000;
/** Pages of WAL after which a commit copies them back into the database file (see the constructor). */
export const WAL_AUTOCHECKPOINT = 10_000;

/** Epoch microseconds. Timestamps are UTC with microseconds (spec 2.7). */
export type MicroClock = () => number;

let lastMicros = 0;
/** Wall clock in microseconds, strictly increasing within this process so "newest first" is stable. */
export const systemMicros: MicroClock = () => {
  const now = wallMicros();
  lastMicros = now > lastMicros ? now : lastMicros + 1;
  return lastMicros;
};

/** `2026-11-21T10:00:00.123456Z` */
export function stamp(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}${String(micros - ms * 1000).padStart(3, '0')}Z`;
}

/** Run `fn`, retrying while another connection holds a lock the busy handler does not wait for. */
function retryBusy<T>(driver: SqliteDriver, fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!driver.isBusy(err) || Date.now() > deadline) throw err;
      sleepSync(10 + Math.floor(Math.random() * 20));
    }
  }
}

export class Db {
  readonly raw: SqlConnection;
  readonly driver: SqliteDriver;
  private readonly cache = new Map<string, Statement>();
  /**
   * Changes whenever the data this connection sees may have changed: bumped after each of its own
   * writes, and by `read()` when SQLite reports a commit by another connection (see `snapshotEpoch`).
   * Caches of read answers (read-cache.ts) are valid only for the epoch they were filled at.
   */
  private epochValue = 0;
  private seenDataVersion = -1;
  private seenChanges = -1;
  /** Inside `read()`: the only place caches may answer or be filled; BEGIN waits for a statement. */
  private lazyRead = false;
  /** Commits by any connection, read from the shm file (wal-index.ts); absent when not in WAL mode. */
  private readonly walIndex?: WalIndexWatch;
  private dataVersion?: Statement;
  private totalChanges?: Statement;

  constructor(path: string, driver: SqliteDriver = sqliteDriver()) {
    this.driver = driver;
    this.raw = driver.open(path);
    // Set explicitly on every connection, on every engine (none of them persist except
    // journal_mode): the engines' own defaults differ (node:sqlite has no busy timeout).
    this.raw.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const journal = retryBusy(driver, () => this.pragma('journal_mode = WAL'));
    this.raw.exec('PRAGMA synchronous = NORMAL');
    this.raw.exec('PRAGMA foreign_keys = ON');
    // Copy the WAL back into the database every WAL_AUTOCHECKPOINT pages rather than SQLite's 1000:
    // a checkpoint blocks the committing request on two fsyncs and a copy of every page it
    // touched, and a longer WAL copies each page once for many commits (issue 23: about a third of
    // a create's time under load went to checkpoints, when creates still touched random pages of
    // three indexes; ids.ts now makes those keys follow the clock). Durability is
    // unchanged: a commit is as durable as before, only copied later. The WAL file may grow to
    // about 40 MB under sustained writes; the last connection to close checkpoints and removes it.
    this.raw.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT}`);
    retryBusy(driver, () => migrate(this.raw));
    // Only once the connection has the shm open and locked (the migrations read through it).
    if (journal === 'wal') this.walIndex = WalIndexWatch.open(path);
  }

  /** The one value a PRAGMA answers (e.g. `journal_mode` → 'wal'). */
  pragma(statement: string): unknown {
    const row = this.raw.prepare(`PRAGMA ${statement}`).get() as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  /** The prepared statement for `sql`, prepared on first use only. */
  stmt(sql: string): Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.raw.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    if (this.lazyRead) this.beginLazyRead();
    return this.stmt(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    if (this.lazyRead) this.beginLazyRead();
    return this.stmt(sql).all(...params) as T[];
  }

  run(sql: string, ...params: unknown[]): RunInfo {
    if (this.lazyRead) this.beginLazyRead();
    this.epochValue++;
    try {
      return this.stmt(sql).run(...params);
    } finally {
      this.epochValue++;
    }
  }

  /** True inside `read()` or `write()`, even before a lazy read has issued its first statement. */
  get inTransaction(): boolean {
    return this.lazyRead || this.raw.inTransaction;
  }

  /** A read-modify-write: BEGIN IMMEDIATE, so the write lock is held from the first read. */
  write<T>(fn: () => T): T {
    if (this.inTransaction) {
      if (this.lazyRead) this.beginLazyRead();
      return fn();
    }
    // Bumped before and after (committed or not): no cached answer survives this connection's writes.
    this.epochValue++;
    try {
      return retryBusy(this.driver, () => this.transaction('BEGIN IMMEDIATE', fn));
    } finally {
      this.epochValue++;
    }
  }

  /**
   * `fn` as one step of the current write transaction that can fail alone: if it throws, what it
   * changed is undone (ROLLBACK TO) and the rest of the transaction stands. Group commit runs each
   * request of a batch in one (group-commit.ts). Where SQLite has already rolled the whole
   * transaction back itself (SQLITE_FULL, an I/O error), there is nothing to roll back to: the
   * error goes on, and the caller sees `inTransaction` false.
   */
  savepoint<T>(fn: () => T): T {
    if (!this.raw.inTransaction || this.lazyRead) throw new Error('a savepoint needs a write transaction');
    this.stmt('SAVEPOINT step').run();
    try {
      const result = fn();
      this.stmt('RELEASE step').run();
      return result;
    } catch (err) {
      if (this.raw.inTransaction) {
        this.stmt('ROLLBACK TO step').run();
        this.stmt('RELEASE step').run();
      }
      throw err;
    }
  }

  /**
   * Several reads from one snapshot (WAL readers never wait for writers). The transaction begins
   * at the first statement: a read answered wholly from caches (read-cache.ts) costs no BEGIN and
   * COMMIT, only the commit check (syncEpoch) that keeps those caches exact.
   */
  read<T>(fn: () => T): T {
    if (this.inTransaction) return fn();
    this.syncEpoch();
    this.lazyRead = true;
    try {
      const result = fn();
      if (result && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('a transaction function cannot return a promise');
      if (this.raw.inTransaction) this.stmt('COMMIT').run();
      return result;
    } catch (err) {
      if (this.raw.inTransaction) this.stmt('ROLLBACK').run();
      throw err;
    } finally {
      this.lazyRead = false;
    }
  }

  private beginLazyRead(): void {
    if (!this.raw.inTransaction) this.stmt('BEGIN DEFERRED').run();
  }

  /**
   * The epoch to file cached read answers under; undefined outside `read()` (inside a write, or
   * with no transaction, nothing may be answered from a cache).
   *
   * Exact: `read()` first checks for commits (syncEpoch: the WAL-index header), then takes its
   * snapshot at its first statement, which is at least as new. An entry filled from a
   * snapshot newer than that check is dropped by the next check, which sees the newer commit; an
   * entry that survives a check was read from the state the check found unchanged.
   */
  snapshotEpoch(): number | undefined {
    return this.lazyRead ? this.epochValue : undefined;
  }

  /**
   * In WAL mode, the WAL-index header moves with every commit by any connection, this one
   * included, whichever path made it (wal-index.ts). Otherwise (an in-memory database), PRAGMA
   * data_version moves when another connection committed since this one last looked, and
   * total_changes() counts this connection's own row changes. Any of them moving bumps the epoch
   * (write() and run() bump it too).
   */
  private syncEpoch(): void {
    if (this.walIndex) {
      if (this.walIndex.changed()) this.epochValue++;
      return;
    }
    const version = ((this.dataVersion ??= this.raw.prepare('PRAGMA data_version')).get() as { data_version: number }).data_version;
    const changes = ((this.totalChanges ??= this.raw.prepare('SELECT total_changes() AS n')).get() as { n: number }).n;
    if (version !== this.seenDataVersion || changes !== this.seenChanges) {
      this.seenDataVersion = version;
      this.seenChanges = changes;
      this.epochValue++;
    }
  }

  /**
   * What better-sqlite3's db.transaction(fn).immediate() does for a transaction that is not nested,
   * over statements prepared once, on either engine: building that wrapper anew for every request
   * cost ~8 µs, a tenth of a sandbox GET (issue 7).
   */
  private transaction<T>(begin: 'BEGIN IMMEDIATE' | 'BEGIN DEFERRED', fn: () => T): T {
    this.stmt(begin).run();
    try {
      const result = fn();
      if (result && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('a transaction function cannot return a promise');
      this.stmt('COMMIT').run();
      return result;
    } catch (err) {
      if (this.raw.inTransaction) this.stmt('ROLLBACK').run();
      throw err;
    }
  }

  close(): void {
    this.raw.close();
    // After the connection: closing a descriptor of the shm file drops every lock this process holds on it.
    this.walIndex?.close();
  }
}
