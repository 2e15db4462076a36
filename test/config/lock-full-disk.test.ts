// Issue 13 item 12: a full disk while the lock's pid is written (ENOSPC) used to leave an empty
// config.json.lock that blocked every profile change for 30 s. The lock is released and the error
// says what happened.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({ fullDisk: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
    if (state.fullDisk) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return (fs.writeSync as (...a: unknown[]) => number)(...args);
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

const { withFileLock } = await import('../../src/config/lock.js');
const { UsageError } = await import('../../src/errors.js');

const dir = mkdtempSync(join(tmpdir(), 'pgw-lock-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('withFileLock on a full disk', () => {
  it('removes the lock it could not write, says why, and the next change goes through at once', () => {
    const path = join(dir, 'config.json');
    state.fullDisk = true;
    let error: unknown;
    try {
      withFileLock(path, () => 'changed');
    } catch (err) {
      error = err;
    }
    state.fullDisk = false;
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('ENOSPC');
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(withFileLock(path, () => 'changed', 50)).toBe('changed');
  });
});

describe('withFileLock in a directory pgw may not write', () => {
  it('is one usage error naming the lock file, not an unexpected failure', () => {
    const path = join(dir, 'missing-dir', 'config.json'); // ENOENT stands in for EACCES (the tests run as root)
    let error: unknown;
    try {
      withFileLock(path, () => 'changed');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(`${path}.lock`);
  });
});
