// Profile writes from several pgw processes at once: each one's change survives (nothing is lost),
// and the file stays whole JSON at 0600.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnPgw } from '../helpers/spawn.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function configDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-profiles-race-'));
  dirs.push(dir);
  return dir;
}

const PROCESSES = 8;

const add = (dir: string, name: string) =>
  spawnPgw(['profile', 'add', name, '--env', 'sandbox', '--client-id', `cid_${name}`, '--client-secret-stdin'], {
    env: { PGW_CONFIG_DIR: dir },
    input: `cs_${name}_0123456789`,
  });

function stored(dir: string): { current?: string; profiles?: Record<string, { client_id?: string }> } {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
}

describe('profile writes from processes running at once', () => {
  it(`${PROCESSES} processes adding a profile each: all ${PROCESSES} are kept`, async () => {
    const dir = configDir();
    const names = Array.from({ length: PROCESSES }, (_, i) => `race${i}`);
    const results = await Promise.all(names.map((name) => add(dir, name)));
    expect(results.map((r) => [r.code, r.stderr])).toEqual(names.map(() => [0, expect.any(String)]));
    const profiles = stored(dir).profiles ?? {};
    expect(Object.keys(profiles).sort()).toEqual(names);
    for (const name of names) expect(profiles[name]?.client_id).toBe(`cid_${name}`);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('adds, a use and a remove at once: every change lands', async () => {
    const dir = configDir();
    for (const name of ['keep', 'gone']) expect((await add(dir, name)).code).toBe(0);
    const results = await Promise.all([
      add(dir, 'new1'),
      add(dir, 'new2'),
      spawnPgw(['profile', 'use', 'keep'], { env: { PGW_CONFIG_DIR: dir } }),
      spawnPgw(['profile', 'remove', 'gone', '--yes'], { env: { PGW_CONFIG_DIR: dir } }),
    ]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const file = stored(dir);
    expect(Object.keys(file.profiles ?? {}).sort()).toEqual(['keep', 'new1', 'new2']);
    expect(file.current).toBe('keep');
  });
});
