// One better-sqlite3 connection with the settings every connection needs, a statement cache (each
// SQL text is prepared once per connection) and the two transaction kinds the store uses.
//
// Several pgw processes may open the same file at once (docs/sandbox.md): WAL lets readers run
// beside a writer, busy_timeout makes a writer wait for the lock instead of failing, and every
// read-modify-write runs in BEGIN IMMEDIATE, which takes the write lock up front, so two
// processes never both read "not settled yet" and both settle.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { migrate } from './migrations.js';
import { WalIndexWatch } from './wal-index.js';
import { sleepSync } from '../sleep-sync.js';

// better-sqlite3 is CommonJS: required, not imported, so Node does not first scan its source for
// named exports (the ESM-to-CommonJS lexer costs ~3 ms on the first use). Its addon is named by
// path when it is where npm builds it, which skips the `bindings` package's search.
const requireCjs = createRequire(import.meta.url);
const SqliteDatabase = requireCjs('better-sqlite3') as typeof Database;
const ADDON = join(dirname(requireCjs.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
const nativeBinding = existsSync(ADDON) ? ADDON : undefined;

export type Statement = Database.Statement<unknown[], unknown>;

export const BUSY_TIMEOUT_MS = 5000;

/** Epoch microseconds. Timestamps are UTC with microseconds (spec 2.7). */
export type MicroClock = () => number;

let lastMicros = 0;
/** Wall clock in microseconds, strictly increasing within this process so "newest first" is stable. */
export const systemMicros: MicroClock = () => {
  const now = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  lastMicros = now > lastMicros ? now : lastMicros + 1;
  return lastMicros;
};

/** `2026-11-21T10:00:00.123456Z` */
export function stamp(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, -1)}${String(micros - ms * 1000).padStart(3, '0')}Z`;
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED';
}

/** Run `fn`, retrying while another connection holds a lock the busy handler does not wait for. */
function retryBusy<T>(fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!isBusy(err) || Date.now() > deadline) throw err;
      sleepSync(10 + Math.floor(Math.random() * 20));
    }
  }
}

export class Db {
  readonly raw: Database.Database;
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

  constructor(path: string) {
    this.raw = new SqliteDatabase(path, { timeout: BUSY_TIMEOUT_MS, nativeBinding });
    // Set explicitly on every connection (none of them persist except journal_mode).
    this.raw.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const journal = retryBusy(() => this.raw.pragma('journal_mode = WAL', { simple: true }));
    this.raw.pragma('synchronous = NORMAL');
    this.raw.pragma('foreign_keys = ON');
    retryBusy(() => migrate(this.raw));
    // Only once the connection has the shm open and locked (the migrations read through it).
    if (journal === 'wal') this.walIndex = WalIndexWatch.open(path);
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

  run(sql: string, ...params: unknown[]): Database.RunResult {
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
      return retryBusy(() => this.transaction('BEGIN IMMEDIATE', fn));
    } finally {
      this.epochValue++;
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
    const version = (this.dataVersion ??= this.raw.prepare('PRAGMA data_version').pluck()).get() as number;
    const changes = (this.totalChanges ??= this.raw.prepare('SELECT total_changes()').pluck()).get() as number;
    if (version !== this.seenDataVersion || changes !== this.seenChanges) {
      this.seenDataVersion = version;
      this.seenChanges = changes;
      this.epochValue++;
    }
  }

  /**
   * What better-sqlite3's db.transaction(fn).immediate() does for a transaction that is not nested,
   * over statements prepared once: building that wrapper anew for every request cost ~8 µs, a
   * tenth of a sandbox GET (issue 7).
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
    if (this.raw.open) this.raw.close();
    // After the connection: closing a descriptor of the shm file drops every lock this process holds on it.
    this.walIndex?.close();
  }
}
