// The bulk results file (--results, --resume): one JSON line per merchant as it happens, written
// and flushed before the next request so an interruption loses nothing; mode 0600 (it holds bank
// details' outcomes, never credentials). Each line carries a hash of the merchant it describes, so
// a resumed run skips exactly the merchants already created, even if lines moved. Every request is
// preceded by an attempt record, flushed before anything is sent: a run killed while a create is
// in flight (kill -9, power loss) leaves an attempt without an outcome, which a resume reads as
// "may have been created" and never sends blindly again (issue 21 item 4). A new file is created
// exclusively, and neither a new nor a resumed one is ever opened through a symbolic link (issue 31
// item 8: src/files/private-file.ts).
import { createHash } from 'node:crypto';
import { closeSync, constants, fchmodSync, fdatasyncSync, lstatSync, readFileSync, writeSync } from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { LINK_REFUSED, PRIVATE_MODE, createPrivateFile, fileProblem, openNoFollow } from '../../files/private-file.js';
import type { TextGuard } from '../../output/io.js';

export interface ResultError {
  code: string | null;
  message: string;
  details: Record<string, unknown> | null;
  status: number | null;
}

export interface ResultLine {
  line: number;
  hash: string;
  brand_name?: string;
  id?: string;
  error?: ResultError;
  /** The request may have reached the gateway (interrupted or timed out in flight). */
  uncertain?: true;
  /**
   * Written before the request is sent; its outcome follows as a record of its own. One left
   * without an outcome means the run stopped while the request was in flight.
   */
  attempt?: true;
}

/** Canonical JSON (keys sorted at every level): reformatting a line does not change its hash. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function contentHash(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonical(value)).digest('hex').slice(0, 32)}`;
}

/**
 * The account a results file was written for: the gateway (its base address, or the embedded
 * sandbox of a config directory) and the credentials' client and merchant IDs. A resume against
 * another account would take its "already created" lines for the other account's merchants.
 */
export interface ResultsAccount {
  gateway: string;
  client_id: string | null;
  merchant_id: string | null;
}

/** The account of this run (the profile, --base-url and -m as given). */
export async function resultsAccount(ctx: Context): Promise<ResultsAccount> {
  const target = await ctx.target();
  const gateway = target.embedded ? `embedded sandbox (${ctx.configDir})` : target.baseUrl.replace(/\/+$/, '');
  return { gateway, client_id: target.clientId ?? null, merchant_id: target.merchantId ?? null };
}

export const sameAccount = (a: ResultsAccount, b: ResultsAccount): boolean =>
  a.gateway === b.gateway && a.client_id === b.client_id && a.merchant_id === b.merchant_id;

export function describeAccount(a: ResultsAccount): string {
  return `${a.gateway}, client ${a.client_id ?? '-'}${a.merchant_id ? `, merchant ${a.merchant_id}` : ''}`;
}

export interface ResultsWriter {
  readonly path: string;
  append(result: ResultLine): void;
  close(): void;
}

/** The one line for a results file that is already there: finish that run, or name another file. */
function alreadyThere(path: string): UsageError {
  return new UsageError(`--results: ${path} already exists`, {
    suggestion: `to finish that run: --resume ${path}; to start afresh, name a new results file`,
  });
}

/**
 * A new results file must not exist in any form: a file (another run's records), or a link,
 * dangling or not (lstat, not existsSync, which follows the link and finds nothing at the end
 * of a dangling one). Checked before anything starts; openResults's exclusive open holds it.
 */
export function checkNewResults(path: string): void {
  const there = lstatSync(path, { throwIfNoEntry: false });
  if (there?.isSymbolicLink()) throw new UsageError(`--results: cannot write ${path}: ${LINK_REFUSED}`);
  if (there) throw alreadyThere(path);
}

/** The resumed run's file, for appending, owner-only again (it may have been copied with another mode). */
function reopen(path: string): number {
  const fd = openNoFollow(path, constants.O_WRONLY | constants.O_APPEND);
  try {
    fchmodSync(fd, PRIVATE_MODE);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/**
 * Open for appending. A new file is created exclusively, 0600; an existing one is appended to
 * only when it is the run being resumed (anything else would mix two runs' records), and never
 * through a link.
 */
export function openResults(path: string, resuming: boolean, guard?: TextGuard, account?: ResultsAccount): ResultsWriter {
  const flag = resuming ? '--resume' : '--results';
  if (!resuming) checkNewResults(path);
  let fd: number;
  try {
    fd = resuming ? reopen(path) : createPrivateFile(path);
  } catch (err) {
    // Created by someone else since the check: the same answer as if it had been there before.
    if (!resuming && (err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyThere(path);
    throw new UsageError(`${flag}: cannot write ${path}: ${fileProblem(err)}`);
  }
  const write = (record: unknown): void => {
    writeSync(fd, `${JSON.stringify(guard ? guard.data(record) : record)}\n`);
    fdatasyncSync(fd);
  };
  // A new file starts with the account it is written for (readResults checks it on --resume).
  if (!resuming && account) write({ account });
  return {
    path,
    append(result) {
      // A gateway's error quoting the secret or a card number is kept out of the file too.
      writeSync(fd, `${JSON.stringify(guard ? guard.data(result) : result)}\n`);
      fdatasyncSync(fd);
    },
    close() {
      closeSync(fd);
    },
  };
}

export interface PriorResults {
  lines: ResultLine[];
  /** Lines that could not be read (a write cut short by a kill). */
  unreadable: number[];
  /** The account the file was written for (files of earlier versions have none). */
  account?: ResultsAccount;
}

export function readResults(path: string): PriorResults {
  let text: string;
  try {
    // Not through a link: the records resumed are the ones this run appends to (openResults).
    const fd = openNoFollow(path, constants.O_RDONLY);
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--resume: cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : fileProblem(err)}`);
  }
  const lines: ResultLine[] = [];
  const unreadable: number[] = [];
  let account: ResultsAccount | undefined;
  // Attempts not (yet) followed by their outcome, by line and merchant.
  const open = new Map<string, ResultLine>();
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      const r = JSON.parse(raw) as ResultLine & { account?: ResultsAccount };
      if (typeof r.line === 'number' && typeof r.hash === 'string') {
        const key = `${r.line}\u0000${r.hash}`;
        if (r.attempt === true && typeof r.id !== 'string') open.set(key, r);
        else {
          open.delete(key);
          lines.push(r);
        }
      } else if (r.account && typeof r.account === 'object' && typeof r.account.gateway === 'string') account ??= r.account;
      else unreadable.push(i + 1);
    } catch {
      unreadable.push(i + 1);
    }
  });
  // An attempt without an outcome: the request may have reached the gateway and created it.
  for (const r of open.values()) lines.push({ ...r, uncertain: true });
  return { lines, unreadable, ...(account ? { account } : {}) };
}
