// The WAL-index watch (src/sandbox/wal-index.ts) stands in for PRAGMA data_version on every
// sandbox GET: it must see every commit, by any connection or process, and its file descriptor
// must never cost a connection its locks.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from '../../src/sandbox/db.js';
import { WalIndexWatch, openWalIndexDescriptors } from '../../src/sandbox/wal-index.js';
import { sqlInAnotherProcess } from '../helpers/sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-wal-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const freshPath = () => join(dir, `db-${++files}.db`);

/** SQL run by a separate `node` process on the file; the last statement's first row as a JSON array. */
function inAnotherProcess(path: string, ...sql: string[]): string {
  return JSON.stringify(sqlInAnotherProcess(path, sql));
}

describe('what the watch sees', () => {
  it('every commit by another connection, and nothing when nothing was committed', () => {
    const path = freshPath();
    const mine = new Db(path);
    const other = new Db(path);
    const watch = WalIndexWatch.open(path)!;
    try {
      other.raw.exec('CREATE TABLE t (x); INSERT INTO t VALUES (0)'); // so that every update changes a row
      expect(watch.changed()).toBe(true); // first look
      // Random interleavings of commits, reads, empty writes and checkpoints: a commit is always
      // seen; a plain read never moves anything. (A checkpoint may count as a change: harmless.)
      fc.assert(
        fc.property(fc.array(fc.constantFrom('insert', 'update', 'read', 'read-mine', 'checkpoint', 'nothing'), { maxLength: 30 }), (steps) => {
          watch.changed();
          for (const step of steps) {
            if (step === 'insert') other.raw.prepare('INSERT INTO t VALUES (?)').run(Math.random());
            if (step === 'update') other.raw.exec('UPDATE t SET x = x + 1');
            if (step === 'read') other.raw.prepare('SELECT count(*) FROM t').get();
            if (step === 'read-mine') mine.raw.prepare('SELECT count(*) FROM t').get();
            if (step === 'checkpoint') other.pragma('wal_checkpoint(PASSIVE)');
            const changed = watch.changed();
            if (step === 'insert' || step === 'update') expect(changed).toBe(true);
            if (step === 'read' || step === 'read-mine' || step === 'nothing') expect(changed).toBe(false);
          }
        }),
        { numRuns: 200 },
      );
    } finally {
      watch.close();
      other.close();
      mine.close();
    }
  });

  it('a commit by another process, and one that restarted the WAL after a checkpoint', () => {
    const path = freshPath();
    const mine = new Db(path);
    const watch = WalIndexWatch.open(path)!;
    try {
      mine.raw.exec('CREATE TABLE t (x)');
      watch.changed();
      inAnotherProcess(path, 'INSERT INTO t VALUES (1)');
      expect(watch.changed()).toBe(true);
      expect(watch.changed()).toBe(false);
      inAnotherProcess(path, 'PRAGMA wal_checkpoint(TRUNCATE)', 'INSERT INTO t VALUES (2)');
      expect(watch.changed()).toBe(true);
      expect(mine.raw.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    } finally {
      watch.close();
      mine.close();
    }
  });

  it("the connection's own commits too", () => {
    const path = freshPath();
    const mine = new Db(path);
    const watch = WalIndexWatch.open(path)!;
    try {
      watch.changed();
      mine.raw.exec('CREATE TABLE t (x)');
      expect(watch.changed()).toBe(true);
      mine.raw.exec('INSERT INTO t VALUES (1)');
      expect(watch.changed()).toBe(true);
      expect(watch.changed()).toBe(false);
    } finally {
      watch.close();
      mine.close();
    }
  });
});

describe('the shared descriptor', () => {
  it('one per file, closed after the last connection on it', () => {
    const before = openWalIndexDescriptors();
    const path = freshPath();
    const a = new Db(path);
    const b = new Db(path);
    expect(openWalIndexDescriptors()).toBe(before + 1);
    a.close();
    expect(openWalIndexDescriptors()).toBe(before + 1);
    b.close();
    expect(openWalIndexDescriptors()).toBe(before);
  });

  it('is per file, not per name: two names of one file share it; a file made again at a path does not', () => {
    const before = openWalIndexDescriptors();
    const path = freshPath();
    const a = new Db(path);
    const link = join(dir, `link-${files}.db`);
    symlinkSync(path, link);
    symlinkSync(`${path}-wal`, `${link}-wal`);
    symlinkSync(`${path}-shm`, `${link}-shm`);
    const viaLink = new Db(link);
    expect(openWalIndexDescriptors()).toBe(before + 1);
    viaLink.close();
    // The first database deleted while still open, and a new one made at its path.
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`);
    const b = new Db(path);
    const watch = WalIndexWatch.open(path)!;
    try {
      expect(openWalIndexDescriptors()).toBe(before + 2);
      b.raw.exec('CREATE TABLE t (x)');
      watch.changed();
      inAnotherProcess(path, 'INSERT INTO t VALUES (1)');
      expect(watch.changed()).toBe(true);
    } finally {
      watch.close();
      b.close();
      a.close();
    }
    expect(openWalIndexDescriptors()).toBe(before);
  });

  it('closing one connection leaves the locks of another on the same file in place', () => {
    // POSIX record locks belong to the process: closing any descriptor of the shm file drops all of
    // them. Here b reads inside a transaction, so its WAL read lock must keep another process from
    // restarting the WAL under its snapshot: that process's TRUNCATE checkpoint reports busy.
    const path = freshPath();
    const a = new Db(path);
    const b = new Db(path);
    try {
      b.raw.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
      b.raw.exec('BEGIN');
      expect(b.raw.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
      a.close();
      const [busy] = JSON.parse(inAnotherProcess(path, 'PRAGMA busy_timeout = 0', 'PRAGMA wal_checkpoint(TRUNCATE)')) as number[];
      expect(busy).toBe(1);
      b.raw.exec('COMMIT');
    } finally {
      b.close();
    }
  });

  it('an in-memory database has no shm: the Db asks SQLite instead', () => {
    const before = openWalIndexDescriptors();
    const db = new Db(':memory:');
    try {
      expect(openWalIndexDescriptors()).toBe(before);
      db.raw.exec('CREATE TABLE t (x)');
      expect(db.read(() => db.get<{ n: number }>('SELECT count(*) AS n FROM t'))).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
