// One writer at a time for a file that several pgw processes may change at once (the profile
// file: two `pgw profile add` in a CI script's parallel jobs). conf writes atomically, but a
// read-modify-write from two processes still loses one change; under this lock each writer
// reads the file as it is now and changes only that.
//
// The lock is `<file>.lock`, created with O_EXCL (atomic on local filesystems) and holding the
// owner's pid; it is removed when the change is written. A lock whose owner is gone (a pgw killed
// mid-write) is taken over at once; one that cannot be read and is older than STALE_LOCK_MS too.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { sleepSync } from '../sleep-sync.js';

export const LOCK_WAIT_MS = 10_000;
export const STALE_LOCK_MS = 30_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** True when nobody holds `lock` any more: its process is gone, or it is unreadable and old. */
function abandoned(lock: string): boolean {
  let text: string;
  let age: number;
  try {
    text = readFileSync(lock, 'utf8');
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile: just try again
  }
  const pid = /^[0-9]+$/.test(text) ? Number(text) : undefined;
  if (pid !== undefined && pid !== process.pid) return !alive(pid);
  // No pid yet (its owner is between creating and writing it) or a foreign file: only age tells.
  return age > STALE_LOCK_MS;
}

/** Runs `change` while holding `<path>.lock`; gives up with a usage error after `waitMs`. */
export function withFileLock<T>(path: string, change: () => T, waitMs = LOCK_WAIT_MS): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        // Another user's directory (EACCES), a read-only or full disk: one line naming the place.
        throw new UsageError(`cannot create the lock file ${lock}: ${code ?? (err as Error).message}`, {
          suggestion: 'check that the config directory is yours and writable (PGW_CONFIG_DIR), then try again; nothing was changed',
        });
      }
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, String(process.pid));
      } catch (err) {
        // A full disk (ENOSPC) would leave an empty lock that blocks every change for STALE_LOCK_MS.
        closeSync(fd);
        releaseLock(lock);
        throw new UsageError(`cannot write the lock file ${lock}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
          suggestion: 'free some disk space (or fix the directory) and try again; nothing was changed',
        });
      }
      closeSync(fd);
      break;
    }
    if (abandoned(lock)) {
      try {
        unlinkSync(lock);
      } catch {
        // another process took it over first
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new UsageError(`${path} is being changed by another pgw (lock file ${lock})`, {
        suggestion: `try again; if no pgw is running, delete ${lock}`,
      });
    }
    sleepSync(5 + Math.floor(Math.random() * 20));
  }
  try {
    return change();
  } finally {
    releaseLock(lock);
  }
}

function releaseLock(lock: string): void {
  try {
    unlinkSync(lock);
  } catch {
    // already gone: nothing to release
  }
}
