// Answers read from the database, kept per connection while nothing has changed (issue 7: GET
// payment throughput). Exact across processes: an entry is valid only for the Db epoch it was
// filled at, and the epoch moves on every commit by any connection or process (the WAL-index
// header, wal-index.ts, checked once at the start of each read transaction) and around every
// write of this connection (db.ts `write` and `run`). Only a `read()` transaction answers from or
// fills the cache; inside a write, or with no transaction, the value is always computed.
import type { Db } from './db.js';

/** Enough for every payment a bench or a busy test touches; beyond it, start over. */
const MAX_ENTRIES = 10_000;

export class ReadCache<V> {
  private epoch = -1;
  private readonly entries = new Map<string, V>();

  constructor(private readonly db: Db) {}

  /** The cached value for `key`, or `compute()`'s (not cached when it throws). */
  get(key: string, compute: () => V): V {
    const epoch = this.db.snapshotEpoch();
    if (epoch === undefined) return compute();
    if (epoch !== this.epoch) {
      this.entries.clear();
      this.epoch = epoch;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    // Computing must not have changed anything; if it did, the value belongs to no epoch.
    if (this.db.snapshotEpoch() === epoch) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
