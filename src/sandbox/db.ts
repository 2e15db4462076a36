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
/** A stamp (`2026-11-21T10:00:00.123456Z`) back to epoch microseconds, all six digits kept (Date.parse keeps three). */
export function stampMicros(text: string): number {
  const m = /\.(\d{1,6})Z$/.exec(text);
  const ms = Date.parse(text);
  if (!m) return ms * 1000;
  return Math.floor(ms / 1000) * 1_000_000 + Number(m[1]!.padEnd(6, '0'));
}

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

/**
 * A cache's share of the epoch (read-cache.ts): caches that name the tables they read are kept
 * across this connection's writes to other tables. Every change the connection cannot attribute
 * to a table (another connection's commit, a statement it cannot read the table of) moves all.
 */
export interface CacheDomain {
  readonly tables: ReadonlySet<string>;
  epoch: number;
}

const WRITTEN_TABLE = [
  /^\s*(?:INSERT|REPLACE)(?:\s+OR\s+[A-Z]+)?\s+INTO\s+(?:main\.)?["`]?([A-Za-z_][A-Za-z0-9_]*)["`]?[\s(]/i,
  /^\s*UPDATE(?:\s+OR\s+[A-Z]+)?\s+(?:main\.)?["`]?([A-Za-z_][A-Za-z0-9_]*)["`]?\s+SET\s/i,
  /^\s*DELETE\s+FROM\s+(?:main\.)?["`]?([A-Za-z_][A-Za-z0-9_]*)["`]?(?:\s|$)/i,
];

/**
 * The one table an INSERT, UPDATE or DELETE writes, lowercase; null for any other statement
 * (a CTE, a schema change, SAVEPOINT) and for any table of another schema. The schema has no
 * triggers and its cascades never reach a cached table (test/sandbox/cache-domains.test.ts).
 */
export function writtenTable(sql: string): string | null {
  for (const re of WRITTEN_TABLE) {
    const m = re.exec(sql);
    if (m) return m[1]!.toLowerCase();
  }
  return null;
}

/** What a write transaction knew at BEGIN IMMEDIATE, to tell its own commit from another's. */
interface OwnCommit {
  /** The WAL-index commit counter under the write lock (exact: nobody else can commit). */
  commits: number | undefined;
  /** total_changes() then. */
  total: number;
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
  /** Caches that named their tables (`domain`). */
  private readonly domains: CacheDomain[] = [];
  /** Per SQL text: the table it writes (`writtenTable`), looked up once. */
  private readonly written = new Map<string, string | null>();
  /** Rows changed through `run` since the current write transaction began. */
  private runChanges = 0;
  /**
   * Inside a write transaction that checked the WAL index under its lock (`beginOwnCommit`):
   * nobody else can commit until it ends, so named caches (`domain`) answer exactly inside it too.
   */
  private checkedWrite = false;

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
    const statement = this.stmt(sql);
    let table = this.written.get(sql);
    if (table === undefined) this.written.set(sql, (table = writtenTable(sql)));
    this.bumpFor(table);
    try {
      const info = statement.run(...params);
      this.runChanges += info.changes;
      return info;
    } finally {
      this.bumpFor(table);
    }
  }

  /**
   * A cache domain for the tables a cache reads: its epoch moves with this connection's writes to
   * them and with every change that cannot be attributed. Name every table the cached answer reads.
   */
  domain(tables: readonly string[]): CacheDomain {
    const d: CacheDomain = { tables: new Set(tables.map((t) => t.toLowerCase())), epoch: 0 };
    this.domains.push(d);
    return d;
  }

  /** A change of unknown extent: every cache starts over. */
  private bumpAll(): void {
    this.epochValue++;
    for (const d of this.domains) d.epoch++;
  }

  /** This connection writes `table` (null: a table it cannot name, so all of them). */
  private bumpFor(table: string | null): void {
    if (table === null) {
      this.bumpAll();
      return;
    }
    this.epochValue++;
    for (const d of this.domains) if (d.tables.has(table)) d.epoch++;
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
      return retryBusy(this.driver, () => this.immediateTransaction(fn));
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
      // A cache filled inside the undone step may hold what it wrote.
      this.bumpAll();
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
   * The epoch to file cached read answers under; undefined outside `read()`, except for a named
   * cache inside a write that checked the WAL index under its lock (nobody else can commit while
   * it runs; a rollback drops every cache). With no transaction nothing is answered from a cache.
   *
   * Exact: `read()` first checks for commits (syncEpoch: the WAL-index header), then takes its
   * snapshot at its first statement, which is at least as new. An entry filled from a
   * snapshot newer than that check is dropped by the next check, which sees the newer commit; an
   * entry that survives a check was read from the state the check found unchanged.
   */
  snapshotEpoch(domain?: CacheDomain): number | undefined {
    if (this.lazyRead) return domain ? domain.epoch : this.epochValue;
    return domain && this.checkedWrite ? domain.epoch : undefined;
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
      if (this.walIndex.changed()) this.bumpAll();
      return;
    }
    const version = ((this.dataVersion ??= this.raw.prepare('PRAGMA data_version')).get() as { data_version: number }).data_version;
    const changes = this.totalChangesNow();
    if (version !== this.seenDataVersion || changes !== this.seenChanges) {
      this.seenDataVersion = version;
      this.seenChanges = changes;
      this.bumpAll();
    }
  }

  /**
   * What better-sqlite3's db.transaction(fn).immediate() does for a transaction that is not nested,
   * over statements prepared once, on either engine: building that wrapper anew for every request
   * cost ~8 µs, a tenth of a sandbox GET (issue 7).
   */
  private immediateTransaction<T>(fn: () => T): T {
    this.stmt('BEGIN IMMEDIATE').run();
    const own = this.beginOwnCommit();
    try {
      const result = fn();
      if (result && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('a transaction function cannot return a promise');
      const changes = own ? this.attributableChanges(own) : -1;
      this.checkedWrite = false;
      this.stmt('COMMIT').run();
      if (own) this.endOwnCommit(own, changes);
      return result;
    } catch (err) {
      this.checkedWrite = false;
      if (this.raw.inTransaction) this.stmt('ROLLBACK').run();
      // Caches filled inside the transaction may hold what it wrote and undid.
      this.bumpAll();
      throw err;
    }
  }

  /**
   * Under the write lock just taken: commits by others since the last look move every cache
   * (the WAL-index header cannot move again until this transaction ends), and the counts this
   * transaction's own commit will be recognised by are taken (`endOwnCommit`).
   */
  private beginOwnCommit(): OwnCommit | undefined {
    if (!this.walIndex) return undefined;
    if (this.walIndex.changed()) this.bumpAll();
    this.runChanges = 0;
    this.checkedWrite = true;
    return { commits: this.walIndex.seenCommits(), total: this.totalChangesNow() };
  }

  /** Rows this transaction changed, when every one went through `run` (its tables known); else -1. */
  private attributableChanges(own: OwnCommit): number {
    return this.totalChangesNow() - own.total === this.runChanges ? this.runChanges : -1;
  }

  /**
   * After COMMIT: if the header's commit counter moved by exactly this transaction's own commit
   * (one when it changed rows, none when it did not), nothing else was committed in between, and
   * the caches of the tables it did not write stay (issue 23: a create no longer drops the
   * account and fault caches every request reads). Anything else moves every cache. Either way
   * the header read is the one seen.
   */
  private endOwnCommit(own: OwnCommit, changes: number): void {
    const watch = this.walIndex!;
    try {
      const now = watch.commitsNow();
      const expected = own.commits === undefined || changes < 0 ? undefined : (own.commits + (changes > 0 ? 1 : 0)) >>> 0;
      if (now === undefined || now !== expected) this.bumpAll();
      watch.acceptNow();
    } catch {
      this.bumpAll();
    }
  }

  private totalChangesNow(): number {
    return ((this.totalChanges ??= this.raw.prepare('SELECT total_changes() AS n')).get() as { n: number }).n;
  }

  close(): void {
    this.raw.close();
    // After the connection: closing a descriptor of the shm file drops every lock this process holds on it.
    this.walIndex?.close();
  }
}
