// The profile file's writer lock (src/config/lock.ts): held while a change is made, released after
// it (even a failed one), waited for while its owner lives, taken over once its owner is gone.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STALE_LOCK_MS, withFileLock } from '../../src/config/lock.js';
import { UsageError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = () => join(dir, `config-${++n}.json`);

/** The pid of a process that has already exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

describe('withFileLock', () => {
  it('holds <file>.lock, with its pid, while the change runs, and removes it after', () => {
    const path = file();
    const seen = withFileLock(path, () => readFileSync(`${path}.lock`, 'utf8'));
    expect(seen).toBe(String(process.pid));
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('releases the lock when the change throws', () => {
    const path = file();
    expect(() => withFileLock(path, () => { throw new Error('boom'); })).toThrow('boom');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('waits for a live owner, then gives up with one clear line', () => {
    const path = file();
    writeFileSync(`${path}.lock`, String(process.ppid)); // a live process that is not this one
    let ran = false;
    const started = Date.now();
    const attempt = () => withFileLock(path, () => (ran = true), 200);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/is being changed by another pgw \(lock file .*\.lock\)/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(ran).toBe(false);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(String(process.ppid)); // not taken from its owner
  });

  it('takes over a lock whose owner is gone', () => {
    const path = file();
    writeFileSync(`${path}.lock`, String(deadPid()));
    expect(withFileLock(path, () => 'done', 200)).toBe('done');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('takes over an unreadable lock only once it is old', () => {
    const path = file();
    writeFileSync(`${path}.lock`, '');
    expect(() => withFileLock(path, () => 'done', 100)).toThrow(UsageError); // maybe its owner is writing its pid
    const old = (Date.now() - STALE_LOCK_MS - 1000) / 1000;
    utimesSync(`${path}.lock`, old, old);
    expect(withFileLock(path, () => 'done', 100)).toBe('done');
  });
});
