// Which `pgw sandbox serve` runs on a database, and where (issue 33 item 11). The embedded
// profiles' sandbox listens on no port: the buyer pages of what it creates (checkout, 3-D Secure,
// UPI simulator, payment links) open only in a serve on the same database. Addressing them on
// serve's default port was wrong whenever that serve listened elsewhere (`--port 4210`, `--port 0`).
// So a serve leaves a small record beside its database, `<db>.serve.json`: its base URL and its
// process id, nothing secret (the credentials stay in --ready-file). Whoever opens the database
// reads it and addresses pages where that serve actually listens. The record is written the way of
// src/files/private-file.ts (whole, 0600, never through a link) and removed when the serve stops;
// one left by a serve that was killed names a process that is gone, and is ignored.
//
// Trusted only for what it is for (issue 44 item 8): anyone who can write beside the database can
// plant one, and `pgw sandbox env` would print the sandbox's credentials with its address and
// checkout pages would open there. So a record is used only when its address is this machine's
// loopback (127.x, localhost, [::1]) and its process is a `pgw sandbox serve` (its command line,
// process-command-line.ts; this process's own only when it wrote it). Anything else is ignored
// with one warning saying why. Windows cannot tell a process's command line cheaply: there the
// loopback address alone decides.
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { writePrivateFile } from '../files/private-file.js';
import { DEFAULT_SANDBOX_PORT } from './default-port.js';
import { commandLineOf, isPgwServe } from './process-command-line.js';

/** Where `pgw sandbox serve` listens when given no --host and --port. */
export const DEFAULT_SERVE_URL = `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`;

export interface ServeRecord {
  base_url: string;
  pid: number;
}

export function serveRecordPath(dbPath: string): string {
  return `${resolve(dbPath)}.serve.json`;
}

/** A process of this machine with that id runs (a record of a killed serve names none). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where a warning goes: the command's stderr (context.ts); none for the callers that only compare. */
export type Warn = (line: string) => void;

/** Records this process wrote: the only ones naming this process it trusts. */
const written = new Set<string>();
/** Each reason is told once per process (sandbox wait reads the record on every poll). */
const warned = new Set<string>();

function loopback(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}

/** Why a record is not to be trusted (its address, or the process it names), if it is not. */
function distrust(path: string, record: ServeRecord): string | undefined {
  if (!loopback(record.base_url)) return `it names ${record.base_url}, which is not this machine's loopback address`;
  if (record.pid === process.pid) return written.has(path) ? undefined : 'it names this process, which is not serving it';
  if (process.platform === 'win32') return undefined;
  const argv = commandLineOf(record.pid);
  if (argv === undefined && !alive(record.pid)) return undefined; // gone in between: dropped below
  if (argv === undefined || !isPgwServe(argv)) return `process ${record.pid} is not pgw sandbox serve`;
  return undefined;
}

/**
 * The serve running on `dbPath`, if its record is there, its process still runs, and it can be
 * trusted (above); never throws. `warn` hears why a record that is there was not used (one left
 * by a killed serve is dropped without a word: that is what a killed serve leaves).
 */
export function readServeRecord(dbPath: string, warn?: Warn): ServeRecord | undefined {
  const path = serveRecordPath(dbPath);
  const ignore = (why: string) => {
    if (warn && !warned.has(`${path}\n${why}`)) {
      warned.add(`${path}\n${why}`);
      warn(`warning: ${path} ignored: ${why}; using ${DEFAULT_SERVE_URL} (remove the file unless a pgw sandbox serve of this database runs)`);
    }
    return undefined;
  };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let data: Partial<ServeRecord>;
  try {
    data = JSON.parse(text) as Partial<ServeRecord>;
  } catch {
    return ignore('it is not a serve record');
  }
  if (typeof data.base_url !== 'string' || !/^https?:\/\/[^\s/]+$/.test(data.base_url)) return ignore('it names no http address');
  if (typeof data.pid !== 'number' || !Number.isInteger(data.pid) || data.pid <= 0) return ignore('it names no process');
  if (!alive(data.pid)) return undefined;
  const record = { base_url: data.base_url, pid: data.pid };
  const why = distrust(path, record);
  if (why !== undefined) return ignore(why);
  return alive(record.pid) ? record : undefined;
}

/**
 * Record this process as the serve of `dbPath`; the returned function removes the record if it is
 * still this process's (a second serve on the same database may have replaced it). Best effort:
 * a directory pgw cannot write into only costs the page addresses their accuracy.
 */
export function writeServeRecord(dbPath: string, baseUrl: string): () => void {
  const path = serveRecordPath(dbPath);
  try {
    writePrivateFile(path, `${JSON.stringify({ base_url: baseUrl, pid: process.pid })}\n`);
  } catch {
    return () => undefined;
  }
  written.add(path);
  return () => {
    if (readServeRecord(dbPath)?.pid === process.pid) rmSync(path, { force: true });
    written.delete(path);
  };
}

/** Where the buyer pages of `dbPath`'s orders open: the serve running on it, else serve's default address. */
export function pagesBaseFor(dbPath: string, warn?: Warn): { baseUrl: string; serving: boolean } {
  const record = readServeRecord(dbPath, warn);
  return record ? { baseUrl: record.base_url, serving: true } : { baseUrl: DEFAULT_SERVE_URL, serving: false };
}
