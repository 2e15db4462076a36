// The storage interface (src/sandbox/sqlite/): which engine runs where, what pgw says when none
// can, the Node 22 warning kept off the terminal, and the behaviours db.ts relies on, checked on
// every engine this Node can load (node:sqlite on 22.13+; better-sqlite3 where it was built for
// this Node). CI runs this file on Node 20 and Node 24, so each engine is exercised on its line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from '../../src/sandbox/db.js';
import type { SqliteDriver } from '../../src/sandbox/sqlite/connection.js';
import { betterSqlite3Driver, loadBetterSqlite3 } from '../../src/sandbox/sqlite/better-sqlite3.js';
import { loadNodeSqlite, nodeSqliteDriver, type NodeSqlite } from '../../src/sandbox/sqlite/node-sqlite.js';
import { SqliteUnavailableError, chooseDriver, type EngineLoaders } from '../../src/sandbox/sqlite/select.js';
import { spawnPgw } from '../helpers/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-engines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `e-${++files}.db`);

const builtin = loadNodeSqlite();
function tryBetterSqlite3(): SqliteDriver | undefined {
  try {
    const driver = betterSqlite3Driver(loadBetterSqlite3());
    driver.open(':memory:').close(); // built for another Node: the addon refuses here
    return driver;
  } catch {
    return undefined;
  }
}
// better-sqlite3 is never loaded where node:sqlite exists outside these tests (Node 24.19+ aborts
// at exit with its statements alive); here it is opened and closed explicitly, on Node 20 only.
const engines: SqliteDriver[] = [...(builtin ? [nodeSqliteDriver(builtin)] : []), ...(!builtin ? [tryBetterSqlite3()].filter((d): d is SqliteDriver => !!d) : [])];

const notInstalled = (): never => {
  throw Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
};
const fakeBetter = (): ReturnType<typeof loadBetterSqlite3> => ({ Database: class {} as never });

describe('which engine', () => {
  it('node:sqlite wherever this Node has it, better-sqlite3 only where it does not', () => {
    const hasBuiltin = typeof (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') === 'object';
    expect(chooseDriver({}).name).toBe(hasBuiltin ? 'node:sqlite' : 'better-sqlite3');
  });

  it('PGW_SQLITE_DRIVER names one; an unknown name is refused with the names it takes', () => {
    const loaders: EngineLoaders = { nodeSqlite: () => ({ DatabaseSync: class {} as never }), betterSqlite3: fakeBetter };
    expect(chooseDriver({ PGW_SQLITE_DRIVER: 'better-sqlite3' }, loaders).name).toBe('better-sqlite3');
    expect(chooseDriver({ PGW_SQLITE_DRIVER: 'node:sqlite' }, loaders).name).toBe('node:sqlite');
    expect(chooseDriver({}, loaders).name).toBe('node:sqlite');
    expect(() => chooseDriver({ PGW_SQLITE_DRIVER: 'sqlite4' }, loaders)).toThrow(/PGW_SQLITE_DRIVER=sqlite4 is not a SQLite engine pgw knows/);
    expect(() => chooseDriver({ PGW_SQLITE_DRIVER: 'node:sqlite' }, { ...loaders, nodeSqlite: () => undefined })).toThrow(/has no node:sqlite/);
  });

  it('a Node without node:sqlite and without a built better-sqlite3 gets one clear error saying what to do', () => {
    let err: unknown;
    try {
      chooseDriver({}, { nodeSqlite: () => undefined, betterSqlite3: notInstalled });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SqliteUnavailableError);
    expect((err as Error).message).toMatch(/^the sandbox needs SQLite: Node v[\d.]+ has no node:sqlite, and better-sqlite3 is not installed/);
    // Run from the sources of this checkout: `npm install` brings it through the optional carrier on Node 20 (engine-hint.test.ts has the rest).
    expect((err as SqliteUnavailableError).suggestion).toMatch(/Node 22\.13 or newer.*install it: npm install --prefix \S+$/);
    const broken = () => {
      throw new Error('The module was compiled against a different Node.js version using NODE_MODULE_VERSION 115.\nmore');
    };
    expect(() => chooseDriver({}, { nodeSqlite: () => undefined, betterSqlite3: broken })).toThrow(/better-sqlite3 does not load: The module was compiled against a different Node\.js version using NODE_MODULE_VERSION 115\.$/);
  });

  it('through the binary: one line and a hint, exit 1, no stack', async () => {
    const r = await spawnPgw(['payment', 'get', 'PR0000000001', '-o', 'table'], { env: { PGW_CONFIG_DIR: dir, PGW_SQLITE_DRIVER: 'sqlite4' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: PGW_SQLITE_DRIVER=sqlite4 is not a SQLite engine pgw knows\nhint: use one of: node:sqlite, better-sqlite3\n');
  });
});

describe('node:sqlite on Node 22 says nothing', () => {
  it('its ExperimentalWarning is not passed on while it loads; other warnings are', async () => {
    const seen: string[] = [];
    const onWarning = (w: Error) => seen.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const mod = loadNodeSqlite((id) => {
        expect(id).toBe('node:sqlite');
        process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
        process.emitWarning('something else', 'ExperimentalWarning');
        return { DatabaseSync: class {} } as unknown as NodeSqlite;
      });
      expect(typeof mod?.DatabaseSync).toBe('function');
      process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning'); // after: not ours to hide
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(seen).toEqual(['ExperimentalWarning: something else', 'ExperimentalWarning: SQLite is an experimental feature and might change at any time']);
  });

  it('a Node where node:sqlite sits behind a flag counts as having none', () => {
    expect(loadNodeSqlite(() => {
      throw Object.assign(new Error('No such built-in module: node:sqlite'), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });
    })).toBeUndefined();
    expect(loadNodeSqlite(null)).toBeUndefined();
  });
});

describe.each(engines.map((e) => [e.name, e] as const))('%s behaves as db.ts needs', (_name, driver) => {
  it('positional parameters, rows as objects, changes counted', () => {
    const db = driver.open(':memory:');
    try {
      db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, amount TEXT)');
      expect(Number(db.prepare('INSERT INTO t VALUES (?, ?, ?)').run('a', 1, '10.00').changes)).toBe(1);
      expect(Number(db.prepare('INSERT OR IGNORE INTO t VALUES (?, ?, ?)').run('a', 2, '20.00').changes)).toBe(0);
      expect({ ...(db.prepare('SELECT * FROM t WHERE id = ?').get('a') as object) }).toEqual({ id: 'a', n: 1, amount: '10.00' });
      expect(db.prepare('SELECT * FROM t WHERE id = ?').get('b')).toBeUndefined();
      expect(db.prepare('SELECT id FROM t').all().map((r) => ({ ...(r as object) }))).toEqual([{ id: 'a' }]);
    } finally {
      db.close();
    }
  });

  it('the transaction flag follows BEGIN, COMMIT and ROLLBACK', () => {
    const db = driver.open(':memory:');
    try {
      expect(db.inTransaction).toBe(false);
      db.prepare('BEGIN IMMEDIATE').run();
      expect(db.inTransaction).toBe(true);
      db.prepare('COMMIT').run();
      expect(db.inTransaction).toBe(false);
      db.prepare('BEGIN DEFERRED').run();
      db.prepare('ROLLBACK').run();
      expect(db.inTransaction).toBe(false);
    } finally {
      db.close();
    }
  });

  it('a lock held by another connection is recognised as busy; other errors are not', () => {
    const path = freshPath();
    const a = driver.open(path);
    const b = driver.open(path);
    try {
      a.exec('PRAGMA journal_mode = WAL');
      a.exec('CREATE TABLE t (x)');
      b.exec('PRAGMA busy_timeout = 0');
      a.prepare('BEGIN IMMEDIATE').run();
      let busy: unknown;
      try {
        b.prepare('BEGIN IMMEDIATE').run();
      } catch (e) {
        busy = e;
      }
      expect(busy).toBeDefined();
      expect(driver.isBusy(busy)).toBe(true);
      a.prepare('ROLLBACK').run();
      let other: unknown;
      try {
        b.prepare('SELECT * FROM missing').get();
      } catch (e) {
        other = e;
      }
      expect(other).toBeDefined();
      expect(driver.isBusy(other)).toBe(false);
    } finally {
      a.close();
      b.close();
    }
  });

  it('Db over it: WAL, busy timeout, foreign keys, and a write rolled back whole', () => {
    const db = new Db(freshPath(), driver);
    try {
      expect(db.pragma('journal_mode')).toBe('wal');
      expect(db.pragma('busy_timeout')).toBe(5000);
      expect(db.pragma('foreign_keys')).toBe(1);
      db.run('CREATE TABLE t (x INTEGER NOT NULL)');
      expect(() =>
        db.write(() => {
          db.run('INSERT INTO t VALUES (1)');
          db.run('INSERT INTO t VALUES (NULL)');
        }),
      ).toThrow();
      expect(db.inTransaction).toBe(false);
      expect(db.get<{ n: number }>('SELECT count(*) AS n FROM t')?.n).toBe(0);
      db.close();
      db.close(); // twice is harmless (the store and the server may both close)
    } finally {
      db.close();
    }
  });
});

describe('node:sqlite before 22.16 (no isTransaction): the flag is followed from the statements', () => {
  // A DatabaseSync as Node 22.13-22.15 has it, played by whichever engine this Node has.
  const base = engines[0]!;
  const olderNode: NodeSqlite = {
    DatabaseSync: class {
      private readonly conn;
      constructor(path: string) {
        this.conn = base.open(path);
      }
      prepare(sql: string) {
        return this.conn.prepare(sql);
      }
      exec(sql: string) {
        this.conn.exec(sql);
      }
      close() {
        this.conn.close();
      }
    },
  };

  it('BEGIN, COMMIT, ROLLBACK, and a ROLLBACK after SQLite already rolled back', () => {
    const db = nodeSqliteDriver(olderNode).open(':memory:');
    try {
      expect(db.inTransaction).toBe(false);
      db.prepare('BEGIN IMMEDIATE').run();
      expect(db.inTransaction).toBe(true);
      db.prepare('COMMIT').run();
      expect(db.inTransaction).toBe(false);
      db.prepare('BEGIN').run();
      expect(db.inTransaction).toBe(true);
      db.exec('ROLLBACK'); // ended behind the tracker's back, as an automatic rollback would
      expect(() => db.prepare('ROLLBACK').run()).not.toThrow();
      expect(db.inTransaction).toBe(false);
      expect(() => db.prepare('COMMIT').run()).toThrow();
      expect(db.inTransaction).toBe(false);
    } finally {
      db.close();
    }
  });

  it('ROLLBACK TO a savepoint keeps the transaction open (group commit, db.ts savepoint)', () => {
    const db = nodeSqliteDriver(olderNode).open(':memory:');
    try {
      db.prepare('BEGIN IMMEDIATE').run();
      db.prepare('SAVEPOINT step').run();
      db.prepare('ROLLBACK TO step').run();
      db.prepare('RELEASE step').run();
      expect(db.inTransaction).toBe(true);
      db.prepare('SAVEPOINT step').run();
      db.prepare('ROLLBACK TRANSACTION TO SAVEPOINT step').run();
      expect(db.inTransaction).toBe(true);
      db.prepare('ROLLBACK').run();
      expect(db.inTransaction).toBe(false);
    } finally {
      db.close();
    }
  });
});
