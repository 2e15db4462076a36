// Raw SQLite access for tests that play "another connection" or "another process" on the
// sandbox's file, on whichever engine this Node runs the sandbox with (issue 12): the child uses
// node:sqlite where Node has it, better-sqlite3 otherwise (or when PGW_SQLITE_DRIVER asks).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { SqlConnection } from '../../src/sandbox/sqlite/connection.js';
import { sqliteDriver } from '../../src/sandbox/sqlite/select.js';

/** A plain connection through the product's engine, without the sandbox's settings or migrations. */
export function openRaw(path: string): SqlConnection {
  return sqliteDriver().open(path);
}

/** The one value a PRAGMA answers. */
export function pragmaValue(db: SqlConnection, pragma: string): unknown {
  return Object.values((db.prepare(`PRAGMA ${pragma}`).get() ?? {}) as Record<string, unknown>)[0];
}

function betterSqlite3Path(): string {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return ''; // not installed: the child only needs it where Node has no node:sqlite
  }
}

const CHILD = `
const wanted = process.env.PGW_SQLITE_DRIVER;
const builtin = wanted === 'better-sqlite3' ? undefined : process.getBuiltinModule?.('node:sqlite');
const [path, sqlJson, paramsJson] = process.argv.slice(1);
const db = builtin ? new builtin.DatabaseSync(path) : new (require(${JSON.stringify(betterSqlite3Path())}))(path);
db.exec('PRAGMA busy_timeout = 5000');
let row;
for (const sql of JSON.parse(sqlJson)) {
  const st = db.prepare(sql);
  const reads = builtin ? st.columns().length > 0 : st.reader;
  if (reads) { const r = st.get(...JSON.parse(paramsJson)); row = r === undefined ? undefined : Object.values(r); }
  else { st.run(...JSON.parse(paramsJson)); row = undefined; }
}
process.stdout.write(JSON.stringify(row ?? null));
db.close();`;

/**
 * Statements run by a separate node process on the file, which then closes its connection; the
 * last statement's first row as an array (null when it returns none). Each statement gets `params`.
 */
export function sqlInAnotherProcess(path: string, sql: string[], params: (string | number)[] = []): unknown {
  const out = execFileSync(process.execPath, ['--no-warnings', '-e', CHILD, path, JSON.stringify(sql), JSON.stringify(params)]).toString();
  return JSON.parse(out);
}
