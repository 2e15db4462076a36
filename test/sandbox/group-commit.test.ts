// Group commit (src/sandbox/group-commit.ts, issue 23): writes submitted together share one
// transaction, each in its own savepoint; a failing one is undone alone; nothing is answered
// before the COMMIT of its batch; a batch whose COMMIT fails answers every request with that.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from '../../src/sandbox/db.js';
import { GroupCommit, MAX_GROUP } from '../../src/sandbox/group-commit.js';
import { openStore } from '../../src/sandbox/store.js';
import { openRaw } from '../helpers/sqlite.js';
import { orderBody, startHarness } from './harness.js';
import { makeOrderCreateV3Schema } from '../../src/api/schemas/orders.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function freshDb(): { db: Db; path: string } {
  const path = join(dir, `g${n++}.db`);
  const db = new Db(path);
  db.raw.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  return { db, path };
}

const insert = (db: Db, k: string) => () => {
  db.run('INSERT INTO t (k) VALUES (?)', k);
  return k;
};
const keys = (db: Db) => db.all<{ k: string }>('SELECT k FROM t ORDER BY k').map((r) => r.k);

/** A group over `db` that counts the transactions it runs. */
function countingGroup(db: Db): { group: GroupCommit; transactions: () => number } {
  let count = 0;
  const group = new GroupCommit(db, {
    around: (batch) => {
      count++;
      return batch();
    },
  });
  return { group, transactions: () => count };
}

describe('GroupCommit', () => {
  it('a failing request is undone alone: the others of its batch commit, in one transaction', async () => {
    const { db } = freshDb();
    const { group, transactions } = countingGroup(db);
    try {
      const seenByThird: string[][] = [];
      const results = await Promise.allSettled([
        group.submit(insert(db, 'a')),
        group.submit(() => {
          db.run('INSERT INTO t (k) VALUES (?)', 'b');
          throw new Error('refused');
        }),
        group.submit(() => {
          // The same transaction: the first request's row is there, the failed one's is not.
          seenByThird.push(keys(db));
          return insert(db, 'c')();
        }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused');
      expect(seenByThird).toEqual([['a']]);
      expect(transactions()).toBe(1);
      expect(keys(db)).toEqual(['a', 'c']);
    } finally {
      db.close();
    }
  });

  it('answers only after the COMMIT: another connection already sees the row when the promise settles', async () => {
    const { db, path } = freshDb();
    const other = openRaw(path);
    const group = new GroupCommit(db);
    try {
      let settled = false;
      const answered = group.submit(insert(db, 'x')).then((k) => {
        settled = true;
        // A second connection reads only committed data.
        return { k, seen: other.prepare('SELECT k FROM t').all() };
      });
      // Not answered synchronously, nor at the next microtask: it waits for its batch's commit.
      await Promise.resolve();
      expect(settled).toBe(false);
      expect(other.prepare('SELECT k FROM t').all()).toEqual([]);
      expect(await answered).toEqual({ k: 'x', seen: [{ k: 'x' }] });
    } finally {
      other.close();
      db.close();
    }
  });

  it('a batch whose COMMIT fails fails every request of it, and stores nothing', async () => {
    const { db } = freshDb();
    // A deferred foreign key is checked at COMMIT: the savepoints all succeed, the COMMIT does not.
    db.raw.exec('CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (p TEXT REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)');
    const group = new GroupCommit(db);
    try {
      const results = await Promise.allSettled([
        group.submit(insert(db, 'kept?')),
        group.submit(() => db.run('INSERT INTO child (p) VALUES (?)', 'no such parent')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/i);
      expect(keys(db)).toEqual([]);
      expect(db.inTransaction).toBe(false);
      // The connection is usable afterwards.
      await group.submit(insert(db, 'after'));
      expect(keys(db)).toEqual(['after']);
    } finally {
      db.close();
    }
  });

  it('what a failed request queued besides its rows (the store: its events) is dropped', async () => {
    const { db } = freshDb();
    const queued: string[] = [];
    const group = new GroupCommit(db, {
      mark: () => queued.length,
      rewind: (mark) => {
        queued.length = mark as number;
      },
    });
    try {
      await Promise.allSettled([
        group.submit(() => queued.push('first')),
        group.submit(() => {
          queued.push('failed');
          throw new Error('refused');
        }),
        group.submit(() => queued.push('third')),
      ]);
      expect(queued).toEqual(['first', 'third']);
    } finally {
      db.close();
    }
  });

  it('a group stays open two turns of the event loop: a write submitted a turn after the first shares its transaction', async () => {
    const { db } = freshDb();
    const { group, transactions } = countingGroup(db);
    try {
      const first = group.submit(insert(db, 'first'));
      await new Promise<void>((resolve) => setImmediate(resolve));
      const second = group.submit(insert(db, 'second'));
      await Promise.all([first, second]);
      expect(transactions()).toBe(1);
      // Once it has committed, a write opens the next group.
      await group.submit(insert(db, 'third'));
      expect(transactions()).toBe(2);
      expect(keys(db)).toEqual(['first', 'second', 'third']);
    } finally {
      db.close();
    }
  });

  it(`at most ${MAX_GROUP} requests a transaction; the rest follow in the next`, async () => {
    const { db } = freshDb();
    const { group, transactions } = countingGroup(db);
    try {
      const all = Array.from({ length: MAX_GROUP + 6 }, (_, i) => group.submit(insert(db, `k${String(i).padStart(3, '0')}`)));
      await Promise.all(all);
      expect(transactions()).toBe(2);
      expect(keys(db)).toHaveLength(MAX_GROUP + 6);
    } finally {
      db.close();
    }
  });
});

describe('order create through group commit', () => {
  const input = makeOrderCreateV3Schema().parse(orderBody({ reference_id: 'grouped-1' }));

  it('an order queued when the store closes is committed and answered first', async () => {
    const path = join(dir, 'close.db');
    const store = openStore(path);
    const merchant = store.accounts().find((a) => !a.psp)!;
    const pending = store.createOrderGrouped(merchant.merchant_id, input, '3.0.0');
    store.close();
    const order = await pending;
    const again = openStore(path);
    try {
      expect(again.order(order.order_id)?.reference_id).toBe('grouped-1');
    } finally {
      again.close();
    }
  });

  it('the row it answers with is the row stored', async () => {
    const store = openStore(join(dir, 'row.db'));
    try {
      const merchant = store.accounts().find((a) => !a.psp)!;
      const order = await store.createOrderGrouped(merchant.merchant_id, input, '3.0.0');
      expect(order).toEqual(store.order(order.order_id));
    } finally {
      store.close();
    }
  });

  it('concurrent creates over HTTP: one reference_id gets one order, the others ERR_ORDER_002; distinct ones all commit', async () => {
    const h = await startHarness();
    try {
      const same = await Promise.all(Array.from({ length: 8 }, () => h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: 'same-ref' }) })));
      expect(same.filter((r) => r.status === 201)).toHaveLength(1);
      const refused = same.filter((r) => r.status !== 201);
      expect(refused).toHaveLength(7);
      for (const r of refused) expect([r.status, r.body.error.code]).toEqual([400, 'ERR_ORDER_002']);

      const distinct = await Promise.all(Array.from({ length: 8 }, (_, i) => h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: `distinct-${i}` }) })));
      expect(distinct.map((r) => r.status)).toEqual(Array(8).fill(201));
      const ids = distinct.map((r) => r.body.data.order_id as string);
      expect(new Set(ids).size).toBe(8);
      for (const id of ids) expect((await h.call('GET', `/pg/orders/${id}/`)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
