// Which SQLite engine the sandbox runs on (docs/sandbox.md, "Storage engines"): node:sqlite
// wherever the running Node has it, better-sqlite3 only where it does not. The choice is made once
// per process; PGW_SQLITE_DRIVER names one explicitly (the benchmarks compare the two on one Node).
import { fileURLToPath } from 'node:url';
import { PgwError } from '../../errors.js';
import type { DriverName, SqliteDriver } from './connection.js';
import { betterSqlite3Driver, loadBetterSqlite3 } from './better-sqlite3.js';
import { loadNodeSqlite, nodeSqliteDriver } from './node-sqlite.js';
import { engineHint } from './engine-hint.js';

export const DRIVER_ENV = 'PGW_SQLITE_DRIVER';
const NAMES: readonly DriverName[] = ['node:sqlite', 'better-sqlite3'];

/** The sandbox cannot run on this Node: no engine is available (exit 1, with what to do). */
export class SqliteUnavailableError extends PgwError {
  constructor(message: string, suggestion: string) {
    super(message, { code: 'SQLITE_UNAVAILABLE', suggestion });
  }
}

/** How each engine is loaded; tests pass their own to play a Node without one. */
export interface EngineLoaders {
  nodeSqlite: typeof loadNodeSqlite;
  betterSqlite3: typeof loadBetterSqlite3;
}

const LOADERS: EngineLoaders = { nodeSqlite: () => loadNodeSqlite(), betterSqlite3: loadBetterSqlite3 };

function nodeSqlite(loaders: EngineLoaders): SqliteDriver | undefined {
  const mod = loaders.nodeSqlite();
  return mod && nodeSqliteDriver(mod);
}

function betterSqlite3(loaders: EngineLoaders, why: string): SqliteDriver {
  let mod;
  try {
    mod = loaders.betterSqlite3();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const missing = code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
    const what = missing ? 'better-sqlite3 is not installed (its native build failed or was skipped at install)' : `better-sqlite3 does not load: ${String((err as Error).message).split('\n')[0]}`;
    throw new SqliteUnavailableError(`the sandbox needs SQLite: ${why}, and ${what}`, engineHint(missing ? 'missing' : 'broken', fileURLToPath(import.meta.url)));
  }
  return betterSqlite3Driver(mod);
}

/** node:sqlite where this Node has it, else better-sqlite3; PGW_SQLITE_DRIVER names one instead. */
export function chooseDriver(env: NodeJS.ProcessEnv, loaders: EngineLoaders = LOADERS): SqliteDriver {
  const wanted = env[DRIVER_ENV];
  if (wanted !== undefined && wanted !== '') {
    if (!NAMES.includes(wanted as DriverName)) {
      throw new SqliteUnavailableError(`${DRIVER_ENV}=${wanted} is not a SQLite engine pgw knows`, `use one of: ${NAMES.join(', ')}`);
    }
    if (wanted === 'better-sqlite3') return betterSqlite3(loaders, `${DRIVER_ENV} asks for it`);
    const driver = nodeSqlite(loaders);
    if (!driver) throw new SqliteUnavailableError(`${DRIVER_ENV}=node:sqlite, but Node ${process.version} has no node:sqlite`, 'use Node 22.13 or newer, or unset it');
    return driver;
  }
  return nodeSqlite(loaders) ?? betterSqlite3(loaders, `Node ${process.version} has no node:sqlite`);
}

let chosen: SqliteDriver | undefined;

/** The engine for this process, chosen on first use (never on the start-up path of other verbs). */
export function sqliteDriver(env: NodeJS.ProcessEnv = process.env): SqliteDriver {
  chosen ??= chooseDriver(env);
  return chosen;
}
