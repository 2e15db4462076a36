// Answers read from the database, kept per connection while nothing has changed (issue 7: GET
// payment throughput). Exact across processes: an entry is valid only for the Db epoch it was
// filled at, and the epoch moves on every commit by any connection or process (the WAL-index
// header, wal-index.ts, checked once at the start of each read transaction) and around every
// write of this connection (db.ts `write` and `run`). A `read()` transaction answers from and
// fills the cache; with no transaction the value is always computed.
//
// A cache that names the tables its answers read has an epoch of its own (db.ts `domain`): this
// connection's writes to other tables leave it, so the accounts and faults every request reads
// survive a stream of creates (issue 23). Another connection's commit still moves it. Such a cache
// also answers inside a write that checked the WAL index under its lock (db.ts `snapshotEpoch`);
// any other cache computes inside writes.
import type { CacheDomain, Db } from './db.js';

/** Enough for every payment a bench or a busy test touches; beyond it, start over. */
const MAX_ENTRIES = 10_000;

export class ReadCache<V> {
  private epoch = -1;
  private readonly entries = new Map<string, V>();

  private readonly domain?: CacheDomain;

  /** `tables`: every table a cached answer reads; none: any change of any table starts over. */
  constructor(
    private readonly db: Db,
    tables?: readonly string[],
  ) {
    if (tables) this.domain = db.domain(tables);
  }

  /** The cached value for `key`, or `compute()`'s (not cached when it throws). */
  get(key: string, compute: () => V): V {
    const epoch = this.db.snapshotEpoch(this.domain);
    if (epoch === undefined) return compute();
    if (epoch !== this.epoch) {
      this.entries.clear();
      this.epoch = epoch;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    // Computing must not have changed anything; if it did, the value belongs to no epoch.
    if (this.db.snapshotEpoch(this.domain) === epoch) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
