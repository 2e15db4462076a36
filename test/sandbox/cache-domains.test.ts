// Caches that name their tables (db.ts `domain`, read-cache.ts) survive this connection's writes
// to other tables, and nothing else: the account and fault caches every request reads stay warm
// through a stream of creates (issue 23), yet any change they cannot attribute (another
// connection's commit, even one that lands between our COMMIT and our look at the WAL index, or a
// statement that bypassed `run`) drops them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Db, writtenTable } from '../../src/sandbox/db.js';
import { openStore, type Store } from '../../src/sandbox/store.js';
import { WalIndexWatch } from '../../src/sandbox/wal-index.js';
import { orderCreateV3Schema } from '../../src/api/schemas/orders.js';
import { sandboxFaultSchema } from '../../src/api/schemas/sandbox.js';
import { sqlInAnotherProcess } from '../helpers/sqlite.js';
import { orderBody } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-cache-domains-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** The tables the store's named caches read (store.ts, store/clock.ts). */
const CACHED_TABLES = ['merchants', 'faults', 'sandbox_clock'];

const order = (reference: string) => orderCreateV3Schema.parse(orderBody({ reference_id: reference }));

let store: Store;
let other: Store;
let path: string;
let merchant: { merchant_id: string; client_id: string; client_secret: string };
beforeEach(() => {
  path = join(dir, `db-${++files}.db`);
  store = openStore(path);
  other = openStore(path);
  const row = store.db.get<{ merchant_id: string; client_id: string; client_secret: string }>("SELECT merchant_id, client_id, client_secret FROM merchants WHERE is_psp = 0 AND parent_id IS NULL LIMIT 1");
  merchant = row!;
});
afterEach(() => {
  vi.restoreAllMocks();
  other.close();
  store.close();
});

/** How many statements reading the merchants table `fn` ran on `db`. */
function merchantReads(db: Db, fn: () => void): number {
  const get = vi.spyOn(db, 'get');
  try {
    fn();
    return get.mock.calls.filter(([sql]) => /FROM merchants/.test(String(sql))).length;
  } finally {
    get.mockRestore();
  }
}

const authenticate = (s: Store, secret = merchant.client_secret) => s.db.read(() => s.authenticate(merchant.client_id, secret));

describe('writtenTable', () => {
  it('names the table of each kind of write, and nothing else', () => {
    expect(writtenTable('INSERT INTO orders (a) VALUES (?)')).toBe('orders');
    expect(writtenTable('  INSERT OR IGNORE INTO ids(id) VALUES (?)')).toBe('ids');
    expect(writtenTable('REPLACE INTO main."Faults" (id) VALUES (?)')).toBe('faults');
    expect(writtenTable('UPDATE OR ROLLBACK merchants SET x = 1')).toBe('merchants');
    expect(writtenTable('DELETE FROM sandbox_clock')).toBe('sandbox_clock');
    expect(writtenTable('DELETE FROM snap.merchants')).toBeNull();
    expect(writtenTable('WITH x AS (SELECT 1) UPDATE merchants SET y = 1')).toBeNull();
    expect(writtenTable('SAVEPOINT step')).toBeNull();
    expect(writtenTable('CREATE TABLE t (x)')).toBeNull();
  });
});

describe('the schema keeps named caches exact', () => {
  it('has no trigger, and no cascade that changes a cached table', () => {
    const db = store.db;
    expect(db.all("SELECT name FROM sqlite_master WHERE type = 'trigger'")).toEqual([]);
    const tables = db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map((t) => t.name);
    const acted: string[] = [];
    for (const t of tables) {
      for (const fk of db.all<{ on_update: string; on_delete: string }>(`SELECT on_update, on_delete FROM pragma_foreign_key_list('${t}')`)) {
        if (fk.on_update !== 'NO ACTION' || fk.on_delete !== 'NO ACTION') acted.push(t);
      }
    }
    expect(acted.length).toBeGreaterThan(0); // deliveries and attempts cascade: the check looks
    expect(acted.filter((t) => CACHED_TABLES.includes(t))).toEqual([]);
  });
});

describe("this connection's writes", () => {
  it('a create leaves the account cache warm; the account is read once', () => {
    expect(merchantReads(store.db, () => authenticate(store))).toBe(1);
    store.createOrder(merchant.merchant_id, order('keep-1'), '3.0.0');
    store.createOrder(merchant.merchant_id, order('keep-2'), '3.0.0');
    expect(merchantReads(store.db, () => expect(authenticate(store)?.merchant_id).toBe(merchant.merchant_id))).toBe(0);
  });

  it('its own write to merchants is seen at once', () => {
    authenticate(store);
    store.db.write(() => store.db.run('UPDATE merchants SET client_secret = ? WHERE merchant_id = ?', 'rotated-secret', merchant.merchant_id));
    expect(authenticate(store)).toBeUndefined();
    expect(authenticate(store, 'rotated-secret')?.merchant_id).toBe(merchant.merchant_id);
  });

  it('a write that bypassed run (raw statement) drops every cache', () => {
    authenticate(store);
    store.db.write(() => {
      store.db.run('INSERT OR IGNORE INTO ids(id) VALUES (?)', 'XX-bypass');
      store.db.raw.prepare('UPDATE merchants SET client_secret = ? WHERE merchant_id = ?').run('raw-secret', merchant.merchant_id);
    });
    expect(authenticate(store)).toBeUndefined();
    expect(authenticate(store, 'raw-secret')?.merchant_id).toBe(merchant.merchant_id);
  });
});

describe('inside a write', () => {
  /** How many statements reading the clock's offset `fn` ran on `db`. */
  function clockReads(db: Db, fn: () => void): number {
    const get = vi.spyOn(db, 'get');
    try {
      fn();
      return get.mock.calls.filter(([sql]) => /sandbox_clock/.test(String(sql))).length;
    } finally {
      get.mockRestore();
    }
  }

  it('the clock answers from its cache: a stream of creates reads the offset once', () => {
    store.createOrder(merchant.merchant_id, order('clock-0'), '3.0.0');
    expect(clockReads(store.db, () => {
      for (let i = 1; i <= 3; i++) store.createOrder(merchant.merchant_id, order(`clock-${i}`), '3.0.0');
    })).toBe(0);
  });

  it('a clock moved by another connection is read again by the next write', () => {
    store.createOrder(merchant.merchant_id, order('moved-0'), '3.0.0');
    const before = store.db.write(() => store.nowMicros(null));
    other.advanceClock({ all: true }, 3600);
    const after = store.db.write(() => store.nowMicros(null));
    expect(after - before).toBeGreaterThanOrEqual(3600 * 1_000_000);
  });

  it('what a rolled-back write put in a cache is gone after it', () => {
    const base = store.db.read(() => store.nowMicros(null));
    expect(() =>
      store.db.write(() => {
        store.db.run('UPDATE sandbox_clock SET offset_micros = offset_micros + ? WHERE id = 1', 86_400_000_000);
        expect(store.nowMicros(null) - base).toBeGreaterThanOrEqual(86_400_000_000); // cached inside
        throw new Error('undone');
      }),
    ).toThrow('undone');
    expect(store.db.read(() => store.nowMicros(null)) - base).toBeLessThan(60_000_000);
    expect(store.db.write(() => store.nowMicros(null)) - base).toBeLessThan(60_000_000);
  });

  it('what a rolled-back savepoint put in a cache is gone after it, the rest of the write stands', () => {
    const base = store.db.read(() => store.nowMicros(null));
    store.db.write(() => {
      expect(() =>
        store.db.savepoint(() => {
          store.db.run('UPDATE sandbox_clock SET offset_micros = offset_micros + ? WHERE id = 1', 86_400_000_000);
          store.nowMicros(null);
          throw new Error('step undone');
        }),
      ).toThrow('step undone');
      expect(store.nowMicros(null) - base).toBeLessThan(60_000_000);
    });
    expect(store.db.read(() => store.nowMicros(null)) - base).toBeLessThan(60_000_000);
  });
});

describe("another connection's commits", () => {
  it('one before our write is seen after it', () => {
    authenticate(store);
    other.db.write(() => other.db.run('UPDATE merchants SET client_secret = ? WHERE merchant_id = ?', 'other-secret', merchant.merchant_id));
    store.createOrder(merchant.merchant_id, order('after-other'), '3.0.0');
    expect(authenticate(store)).toBeUndefined();
    expect(authenticate(store, 'other-secret')?.merchant_id).toBe(merchant.merchant_id);
  });

  it('one landing between our COMMIT and our look at the WAL index is not taken for ours', () => {
    authenticate(store);
    const commitsNow = WalIndexWatch.prototype.commitsNow;
    let raced = false;
    vi.spyOn(WalIndexWatch.prototype, 'commitsNow').mockImplementation(function (this: WalIndexWatch) {
      if (!raced) {
        raced = true;
        other.db.write(() => other.db.run('UPDATE merchants SET client_secret = ? WHERE merchant_id = ?', 'raced-secret', merchant.merchant_id));
      }
      return commitsNow.call(this);
    });
    store.createOrder(merchant.merchant_id, order('raced'), '3.0.0');
    expect(raced).toBe(true);
    expect(authenticate(store)).toBeUndefined();
    expect(authenticate(store, 'raced-secret')?.merchant_id).toBe(merchant.merchant_id);
  });

  it('a commit by another process after our own is seen', () => {
    authenticate(store);
    store.createOrder(merchant.merchant_id, order('mine'), '3.0.0');
    expect(merchantReads(store.db, () => authenticate(store))).toBe(0);
    sqlInAnotherProcess(path, ['UPDATE merchants SET client_secret = ? WHERE merchant_id = ?'], ['process-secret', merchant.merchant_id]);
    expect(authenticate(store)).toBeUndefined();
    expect(authenticate(store, 'process-secret')?.merchant_id).toBe(merchant.merchant_id);
  });

  it('a fault armed by another connection fires on the next request after our creates', () => {
    expect(store.db.read(() => store.armedFaults(merchant.merchant_id))).toEqual([]);
    store.createOrder(merchant.merchant_id, order('before-fault'), '3.0.0');
    other.addFault(merchant.merchant_id, sandboxFaultSchema.parse({ route: 'POST /pg/orders/', status: 503 }));
    store.createOrder(merchant.merchant_id, order('after-fault'), '3.0.0');
    expect(store.db.read(() => store.armedFaults(merchant.merchant_id))).toHaveLength(1);
  });
});
