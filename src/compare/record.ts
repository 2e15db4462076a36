// `pgw sandbox compare --record <dir>`: both sides' exchanges and the report as JSON files, ready to
// attach to a bug report (docs/sandbox.md, "Checking the sandbox against your gateway"). The
// client secret, the Encryption Key and card data never reach them: the secret header is left
// out, secret-named keys are redacted, and everything passes the run's output guard (the secrets
// it knows, card numbers by their shape, CVV keys dropped), as every file pgw writes does. Each
// file is created exclusively at its own name, never through a symbolic link (files/private-file.ts).
import { closeSync, fsyncSync, lstatSync, mkdirSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createPrivateFile, fileProblem } from '../files/private-file.js';
import { PgwError, UsageError } from '../errors.js';
import { redactBody, redactHeaders } from '../safety/redact.js';
import type { Exchange } from './exchange.js';

export const RECORD_FILES = ['gateway.json', 'sandbox.json', 'report.json'] as const;

/** Headers a recording leaves out altogether: the secret's, and cookies a gateway may set. */
const DROPPED_HEADERS = new Set(['x-client-secret', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

/**
 * Checked before anything is sent: the directory is one (or can be made: its parent is), is not a
 * symbolic link, and holds none of the three files yet (a recording never replaces another).
 */
export function checkRecordDir(dir: string): void {
  const where = resolve(dir);
  const stat = lstatSync(where, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) throw new UsageError(`--record ${dir}: it is a symbolic link, and pgw never writes through one: name the directory itself`);
  if (stat && !stat.isDirectory()) throw new UsageError(`--record ${dir}: not a directory`);
  if (!stat) {
    const parent = lstatSync(dirname(where), { throwIfNoEntry: false });
    if (!parent?.isDirectory()) throw new UsageError(`--record ${dir}: its parent directory does not exist`);
    return;
  }
  const taken = RECORD_FILES.filter((f) => lstatSync(join(where, f), { throwIfNoEntry: false }) !== undefined);
  if (taken.length > 0) throw new UsageError(`--record ${dir}: ${taken.join(', ')} already there: a recording never replaces another; name a new directory`);
}

/** An exchange as a file keeps it: no secret header, secret-named keys redacted, cards masked. */
export function recordedExchange(exchange: Exchange, secret: string | undefined): Exchange {
  const headers = (h: Record<string, string>) =>
    redactHeaders(Object.fromEntries(Object.entries(h).filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase()))), secret);
  return {
    step: exchange.step,
    request: { ...exchange.request, headers: headers(exchange.request.headers), ...(exchange.request.body === undefined ? {} : { body: redactBody(exchange.request.body, secret) }) },
    response: { ...exchange.response, headers: headers(exchange.response.headers), body: redactBody(exchange.response.body, secret) },
  };
}

/** Writes the files, each through `clean` (the output guard), and returns their paths. */
export function writeRecording(dir: string, files: Record<(typeof RECORD_FILES)[number], unknown>, clean: <T>(value: T) => T): string[] {
  const where = resolve(dir);
  mkdirSync(where, { recursive: true, mode: 0o700 });
  return RECORD_FILES.map((name) => {
    const path = join(where, name);
    let fd: number;
    try {
      fd = createPrivateFile(path);
    } catch (err) {
      throw new PgwError(`--record: cannot create ${path}: ${fileProblem(err)}`, { code: 'RECORD_FAILED' });
    }
    try {
      const bytes = Buffer.from(`${JSON.stringify(clean(files[name]), null, 2)}\n`, 'utf8');
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return path;
  });
}
