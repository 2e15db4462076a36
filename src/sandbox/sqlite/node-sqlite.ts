// The storage engine on Node 22.13+, 24 and 26: node:sqlite's DatabaseSync, built into Node, so
// nothing is compiled at install and nothing native outlives the environment at exit (the
// better-sqlite3 12 abort on Node 24.19+, issue 12).
import type { RunInfo, SqlConnection, SqlStatement, SqliteDriver } from './connection.js';

// The part of node:sqlite used here, declared locally: @types/node for Node 20 (the oldest line
// pgw supports, whose types the project compiles against) has no node:sqlite.
interface StatementSync {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunInfo;
}
interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
  /** Node 22.16+, 24+. */
  readonly isTransaction?: boolean;
  /** Node 22.15+, 24+. */
  readonly isOpen?: boolean;
}
export interface NodeSqlite {
  DatabaseSync: new (path: string) => DatabaseSync;
}

/**
 * node:sqlite, or undefined where this Node has none (Node 20; Node 22 before 22.13 without
 * --experimental-sqlite). On Node 22 loading it emits an ExperimentalWarning that would reach the
 * user's terminal on every sandbox command: that one warning, and only while the module loads, is
 * not passed on (issue 12: no runtime noise on any supported line).
 */
export function loadNodeSqlite(
  // null: a Node without process.getBuiltinModule (before 20.16), which has no node:sqlite either.
  getBuiltin: ((id: string) => unknown) | null = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.bind(process) ?? null,
): NodeSqlite | undefined {
  if (!getBuiltin) return undefined;
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if ((type === 'ExperimentalWarning' || (warning as Error).name === 'ExperimentalWarning') && /SQLite/i.test(text)) return;
    return (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const mod = getBuiltin('node:sqlite') as NodeSqlite | undefined;
    return typeof mod?.DatabaseSync === 'function' ? mod : undefined;
  } catch {
    return undefined; // present but behind a flag on this Node
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** SQLITE_BUSY (5) and SQLITE_LOCKED (6), extended codes included (low byte). */
const BUSY_CODES = new Set([5, 6]);

class NodeSqliteConnection implements SqlConnection {
  /** Kept only where this Node's DatabaseSync has no isTransaction (22.13 to 22.15). */
  private trackedTransaction = false;
  private readonly hasIsTransaction: boolean;

  constructor(private readonly db: DatabaseSync) {
    this.hasIsTransaction = typeof db.isTransaction === 'boolean';
  }

  prepare(sql: string): SqlStatement {
    const stmt = this.db.prepare(sql);
    return this.hasIsTransaction ? stmt : this.tracking(sql, stmt);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  get inTransaction(): boolean {
    return this.hasIsTransaction ? this.db.isTransaction === true : this.trackedTransaction;
  }

  close(): void {
    if (this.db.isOpen !== false) this.db.close();
  }

  /** Older 22.x: follow BEGIN / COMMIT / ROLLBACK as the store issues them (it issues all of them). */
  private tracking(sql: string, stmt: StatementSync): SqlStatement {
    // ROLLBACK TO a savepoint (db.ts `savepoint`) keeps the transaction open: not followed.
    const verb = /^\s*(BEGIN|COMMIT|END|ROLLBACK)\b(?!\s+(?:TRANSACTION\s+)?TO\b)/i.exec(sql)?.[1]?.toUpperCase();
    if (!verb) return stmt;
    return {
      get: (...p) => stmt.get(...p),
      all: (...p) => stmt.all(...p),
      run: (...p) => {
        try {
          const info = stmt.run(...p);
          this.trackedTransaction = verb === 'BEGIN';
          return info;
        } catch (err) {
          // A failed BEGIN leaves no transaction and a failed COMMIT leaves it open (ROLLBACK
          // follows). A failed ROLLBACK means SQLite had already rolled back on its own.
          if (verb !== 'ROLLBACK') throw err;
          this.trackedTransaction = false;
          return { changes: 0 };
        }
      },
    };
  }
}

export function nodeSqliteDriver(mod: NodeSqlite): SqliteDriver {
  let version: string | undefined;
  return {
    name: 'node:sqlite',
    get sqliteVersion() {
      if (version === undefined) {
        const db = new mod.DatabaseSync(':memory:');
        version = String((db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v);
        db.close();
      }
      return version;
    },
    // Foreign keys are set by db.ts as on every engine; double-quoted strings stay off (the default,
    // as better-sqlite3 builds SQLite), so a typo'd identifier is an error, not a string.
    open: (path) => new NodeSqliteConnection(new mod.DatabaseSync(path)),
    isBusy(err) {
      const errcode = (err as { errcode?: unknown }).errcode;
      return typeof errcode === 'number' && BUSY_CODES.has(errcode & 0xff);
    },
  };
}
