// Which `pgw sandbox serve` runs on a database, and where (issue 33 item 11). The embedded
// profiles' sandbox listens on no port: the buyer pages of what it creates (checkout, 3-D Secure,
// UPI simulator, payment links) open only in a serve on the same database. Addressing them on
// serve's default port was wrong whenever that serve listened elsewhere (`--port 4210`, `--port 0`).
// So a serve leaves a small record beside its database, `<db>.serve.json`: its base URL and its
// process id, nothing secret (the credentials stay in --ready-file). Whoever opens the database
// reads it and addresses pages where that serve actually listens. The record is written the way of
// src/files/private-file.ts (whole, 0600, never through a link) and removed when the serve stops;
// one left by a serve that was killed names a process that is gone, and is ignored.
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { writePrivateFile } from '../files/private-file.js';
import { DEFAULT_SANDBOX_PORT } from './default-port.js';

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

/** The serve running on `dbPath`, if its record is there and its process still runs; never throws. */
export function readServeRecord(dbPath: string): ServeRecord | undefined {
  let data: Partial<ServeRecord>;
  try {
    data = JSON.parse(readFileSync(serveRecordPath(dbPath), 'utf8')) as Partial<ServeRecord>;
  } catch {
    return undefined;
  }
  if (typeof data.base_url !== 'string' || !/^https?:\/\/[^\s/]+$/.test(data.base_url)) return undefined;
  if (typeof data.pid !== 'number' || !Number.isInteger(data.pid) || data.pid <= 0 || !alive(data.pid)) return undefined;
  return { base_url: data.base_url, pid: data.pid };
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
  return () => {
    if (readServeRecord(dbPath)?.pid === process.pid) rmSync(path, { force: true });
  };
}

/** Where the buyer pages of `dbPath`'s orders open: the serve running on it, else serve's default address. */
export function pagesBaseFor(dbPath: string): { baseUrl: string; serving: boolean } {
  const record = readServeRecord(dbPath);
  return record ? { baseUrl: record.base_url, serving: true } : { baseUrl: DEFAULT_SERVE_URL, serving: false };
}
