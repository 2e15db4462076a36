// `pgw --version -v`: the version, the Node line it runs on and the SQLite engine the sandbox uses
// there (issue 23), for bug reports. Loaded only for that flag pair: choosing the engine loads it.
import { ExitCode } from './errors.js';
import { sqliteDriver } from './sandbox/sqlite/select.js';

export interface VersionDetails {
  version: string;
  node: string;
  platform: string;
  sqlite: { engine: string; version: string } | { engine: null; error: string };
}

export function versionDetails(version: string, env: NodeJS.ProcessEnv): VersionDetails {
  let sqlite: VersionDetails['sqlite'];
  try {
    const driver = sqliteDriver(env);
    sqlite = { engine: driver.name, version: driver.sqliteVersion };
  } catch (err) {
    // No engine on this Node (Node 20 without better-sqlite3): say so, the version still prints.
    sqlite = { engine: null, error: err instanceof Error ? err.message : String(err) };
  }
  return { version, node: process.version, platform: `${process.platform}-${process.arch}`, sqlite };
}

export function versionText(d: VersionDetails): string {
  const sqlite = d.sqlite.engine === null ? `none (${d.sqlite.error})` : `${d.sqlite.engine} (SQLite ${d.sqlite.version})`;
  return `${d.version}\nnode: ${d.node} (${d.platform})\nsqlite: ${sqlite}\n`;
}

export function printVersion(version: string, env: NodeJS.ProcessEnv, json: boolean, out: (text: string) => void): number {
  const details = versionDetails(version, env);
  out(json ? `${JSON.stringify(details)}\n` : versionText(details));
  return ExitCode.ok;
}
