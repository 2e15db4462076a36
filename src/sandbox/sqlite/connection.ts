// The one interface the sandbox's storage is written against (issue 12). Two small
// implementations sit behind it: Node's built-in node:sqlite wherever the running Node has it,
// and better-sqlite3 only where it does not (Node 20). Everything above (db.ts, migrations, the
// store) sees only this: prepared statements with positional parameters, exec, a transaction
// flag, close, and a way to recognise "another connection holds the lock".

/** What `run()` reports; both engines count changed rows the same way (sqlite3_changes), as a number (BigInt reads are never turned on). */
export interface RunInfo {
  changes: number;
}

export interface SqlStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunInfo;
}

export interface SqlConnection {
  prepare(sql: string): SqlStatement;
  /** One or more statements with no parameters and no result (migrations, PRAGMA writes). */
  exec(sql: string): void;
  /** True between BEGIN and COMMIT/ROLLBACK, including a transaction SQLite rolled back itself. */
  readonly inTransaction: boolean;
  close(): void;
}

export interface SqliteDriver {
  /** `node:sqlite` or `better-sqlite3`: shown by `PGW_DEBUG=1` and the benchmarks. */
  readonly name: DriverName;
  /** The SQLite library version the engine links (they differ: Node bundles its own). */
  readonly sqliteVersion: string;
  open(path: string): SqlConnection;
  /** SQLITE_BUSY or SQLITE_LOCKED (any extended code): worth retrying after a pause. */
  isBusy(err: unknown): boolean;
}

export type DriverName = 'node:sqlite' | 'better-sqlite3';
