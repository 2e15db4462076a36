// The storage engine on Node 20, which has no node:sqlite: better-sqlite3 12, compiled at install
// where no prebuilt binary can be had. It comes through @pgw-cli/sqlite-node20 (packages/), an
// optional dependency whose engines field makes npm skip it, and better-sqlite3 with it, on Node
// 22 and later (docs/sandbox.md, "Installing on each Node line"). Never loaded where node:sqlite
// exists: on Node 24.19+ its ObjectWrap statements abort the process when destroyed (issue 12).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import type { SqlConnection, SqlStatement, SqliteDriver } from './connection.js';

type BetterSqlite3 = typeof Database;

export interface BetterSqlite3Module {
  Database: BetterSqlite3;
  /** The addon's path where npm builds it, which skips the `bindings` package's search. */
  nativeBinding?: string;
}

/**
 * better-sqlite3 is CommonJS: required, not imported, so Node does not first scan its source for
 * named exports (~3 ms on the first use). Throws what require threw when it is not installed or
 * its addon does not load.
 */
export function loadBetterSqlite3(): BetterSqlite3Module {
  const requireCjs = fromCarrier(createRequire(import.meta.url));
  const Database = requireCjs('better-sqlite3') as BetterSqlite3;
  const addon = join(dirname(requireCjs.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
  return { Database, nativeBinding: existsSync(addon) ? addon : undefined };
}

/**
 * better-sqlite3 as the carrier package resolves it: npm may place it under the carrier rather than
 * beside pgw. Without the carrier (a checkout on Node 22+, where a benchmark forces the engine), as
 * pgw itself resolves it.
 */
function fromCarrier(requireCjs: NodeJS.Require): NodeJS.Require {
  try {
    return createRequire(requireCjs.resolve('@pgw-cli/sqlite-node20/package.json'));
  } catch {
    return requireCjs;
  }
}

class BetterSqlite3Connection implements SqlConnection {
  constructor(private readonly db: Database.Database) {}

  prepare(sql: string): SqlStatement {
    return this.db.prepare(sql) as unknown as SqlStatement;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export function betterSqlite3Driver(mod: BetterSqlite3Module): SqliteDriver {
  let version: string | undefined;
  const open = (path: string) => new mod.Database(path, { nativeBinding: mod.nativeBinding });
  return {
    name: 'better-sqlite3',
    get sqliteVersion() {
      if (version === undefined) {
        const db = open(':memory:');
        version = String(db.prepare('SELECT sqlite_version()').pluck().get());
        db.close();
      }
      return version;
    },
    open: (path) => new BetterSqlite3Connection(open(path)),
    isBusy(err) {
      const code = (err as { code?: unknown }).code;
      return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_LOCKED_'));
    },
  };
}
