import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  BUILT_IN_PROFILES,
  maskSecret,
  openProfileStore,
  resolveProfile,
  validateProfileName,
  type ProfileStore,
} from '../../src/config/profiles.js';
import { PUBLIC_BASE_URLS } from '../../src/config/types.js';
import { ExitCode, UsageError, exitCodeFor } from '../../src/errors.js';

const posix = process.platform !== 'win32';
const mode = (path: string) => statSync(path).mode & 0o777;

// Not tempConfigDir from helpers/run.ts: this file tests the store alone, without the CLI.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect(exitCodeFor(err)).toBe(ExitCode.usage);
    return err as UsageError;
  }
  throw new Error('expected a UsageError, nothing was thrown');
}

describe('openProfileStore', () => {
  test('a fresh install has the built-ins, current local, and no file until a write', async () => {
    const store = await openProfileStore(join(dir, 'cfg'));
    expect(store.path).toBe(join(dir, 'cfg', 'config.json'));
    expect(store.current()).toBe('local');
    expect(store.list().map((e) => [e.name, e.builtIn, e.current])).toEqual([
      ['local', true, true],
      ['local-psp', true, false],
    ]);
    expect(store.get('local')).toEqual({ env: 'embedded', account: 'merchant' });
    expect(store.get('local-psp')).toEqual({ env: 'embedded', account: 'psp' });
    expect(store.get('local')!.base_url).toBeUndefined();
    expect(store.get('nope')).toBeUndefined();
  });

  test.runIf(posix)('creates the directory 0700 and the file 0600', async () => {
    const cfg = join(dir, 'nested', 'cfg');
    const store = await openProfileStore(cfg);
    expect(mode(cfg)).toBe(0o700);
    store.set('dev', { env: 'sandbox', client_id: 'cid', client_secret: 'sk_marker_9f8e7d6c5b4a' });
    expect(mode(store.path)).toBe(0o600);
    store.setCurrent('dev');
    expect(mode(store.path)).toBe(0o600);
  });

  test.runIf(posix)('fixes an existing 0644 file when opened; an existing directory keeps its mode (issue 13 item 8)', async () => {
    const cfg = join(dir, 'cfg');
    mkdirSync(cfg, { mode: 0o755 });
    chmodSync(cfg, 0o755);
    const file = join(cfg, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { old: { env: 'sandbox', client_id: 'c', client_secret: 's' } } }));
    chmodSync(file, 0o644);
    expect(mode(file)).toBe(0o644);
    const store = await openProfileStore(cfg);
    expect(mode(file)).toBe(0o600);
    expect(mode(cfg)).toBe(0o755);
    expect(store.get('old')).toEqual({ env: 'sandbox', client_id: 'c', client_secret: 's' });
  });

  test.runIf(posix)('a write keeps 0600 even if the file was loosened meanwhile', async () => {
    const store = await openProfileStore(dir);
    store.set('a', { env: 'sandbox' });
    chmodSync(store.path, 0o644);
    store.set('b', { env: 'sandbox' });
    expect(mode(store.path)).toBe(0o600);
  });

  test('set, get, list (sorted, after the built-ins), and persistence across opens', async () => {
    const store = await openProfileStore(dir);
    store.set('zeta', { env: 'production', client_id: 'z', client_secret: 'zz' });
    store.set('alpha', { env: 'sandbox', base_url: 'http://127.0.0.1:4010', client_id: 'a', client_secret: 'aa', merchant_id: undefined });
    const again = await openProfileStore(dir);
    expect(again.list().map((e) => e.name)).toEqual(['local', 'local-psp', 'alpha', 'zeta']);
    expect(again.get('alpha')).toEqual({ env: 'sandbox', base_url: 'http://127.0.0.1:4010', client_id: 'a', client_secret: 'aa' });
    const onDisk = JSON.parse(readFileSync(again.path, 'utf8'));
    expect(onDisk.profiles.zeta).toEqual({ env: 'production', client_id: 'z', client_secret: 'zz' });
  });

  test('setCurrent needs an existing profile; built-ins can be current', async () => {
    const store = await openProfileStore(dir);
    expect(usage(() => store.setCurrent('ghost')).message).toBe('profile "ghost" not found');
    store.setCurrent('local-psp');
    expect(store.current()).toBe('local-psp');
    store.set('dev', { env: 'sandbox' });
    store.setCurrent('dev');
    expect((await openProfileStore(dir)).current()).toBe('dev');
    expect(store.list().filter((e) => e.current).map((e) => e.name)).toEqual(['dev']);
  });

  test('built-ins cannot be replaced or removed', async () => {
    const store = await openProfileStore(dir);
    expect(usage(() => store.set('local', { env: 'production' })).message).toMatch(/built-in/);
    expect(usage(() => store.remove('local-psp')).message).toMatch(/built-in/);
    expect(store.get('local')).toEqual(BUILT_IN_PROFILES.local);
  });

  test('removing the current profile falls back to local; removing another keeps current', async () => {
    const store = await openProfileStore(dir);
    store.set('a', { env: 'sandbox' });
    store.set('b', { env: 'sandbox' });
    store.setCurrent('a');
    store.remove('b');
    expect(store.current()).toBe('a');
    store.remove('a');
    expect(store.current()).toBe('local');
    expect(store.get('a')).toBeUndefined();
    expect(usage(() => store.remove('a')).message).toBe('profile "a" not found');
  });

  test('a corrupt file is a clear usage error naming the file', async () => {
    writeFileSync(join(dir, 'config.json'), '{not json');
    const err = await openProfileStore(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(join(dir, 'config.json'));
  });

  test('a store opened for reading reads the same file and refuses to write', async () => {
    const writer = await openProfileStore(dir);
    writer.set('dev', { env: 'sandbox', client_id: 'cid' });
    writer.setCurrent('dev');
    const reader = await openProfileStore(dir, { write: false });
    expect(reader.current()).toBe('dev');
    expect(reader.get('dev')).toEqual({ env: 'sandbox', client_id: 'cid' });
    expect(reader.list().map((e) => e.name)).toEqual(['local', 'local-psp', 'dev']);
    expect(() => reader.set('other', { env: 'sandbox' })).toThrow(/read-only/);
    expect(() => reader.setCurrent('local')).toThrow(/read-only/);
    expect((await openProfileStore(dir, { write: false })).current()).toBe('dev');
  });

  test('a file that is JSON but not an object is a clear usage error', async () => {
    writeFileSync(join(dir, 'config.json'), '[1, 2]');
    const err = await openProfileStore(dir, { write: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(join(dir, 'config.json'));
  });

  test('bad names are refused by every writer', async () => {
    const store = await openProfileStore(dir);
    for (const name of ['', '-lead', '_lead', 'has space', 'a.b', 'x'.repeat(65), 'ünï', '../up']) {
      usage(() => validateProfileName(name));
      usage(() => store.set(name, { env: 'sandbox' }));
    }
    expect(existsSync(store.path)).toBe(false);
    for (const name of ['a', 'A1', 'prod_eu-2', '9', 'x'.repeat(64)]) expect(validateProfileName(name)).toBe(name);
  });
});

describe('maskSecret', () => {
  test.each([
    [undefined, ''],
    ['', ''],
    ['abc', '••••'],
    ['12345678901', '••••'],
    ['123456789012', '••••9012'],
    ['sk_marker_9f8e7d6c5b4a', '••••5b4a'],
  ])('%j → %j', (secret, masked) => {
    expect(maskSecret(secret)).toBe(masked);
  });
});

describe('resolveProfile', () => {
  let store: ProfileStore;
  beforeEach(async () => {
    store = await openProfileStore(dir);
    store.set('p', {
      env: 'sandbox',
      base_url: 'http://profile.test',
      api_version: '2.5.0',
      merchant_id: 'M_PROFILE',
      client_id: 'CID_PROFILE',
      client_secret: 'SECRET_PROFILE',
    });
    store.set('bare', { env: 'sandbox' });
    store.set('prod', { env: 'production' });
    store.setCurrent('p');
  });

  test('a fresh install resolves to the built-in local with every default', async () => {
    const fresh = await openProfileStore(join(dir, 'fresh'));
    expect(resolveProfile(fresh, {}, {})).toEqual({
      name: 'local',
      env: 'embedded',
      builtIn: true,
      baseUrl: undefined,
      clientId: undefined,
      clientSecret: undefined,
      merchantId: undefined,
      apiVersion: '3.0.0',
      timeoutMs: 30000,
      account: 'merchant',
    });
    expect(resolveProfile(fresh, { profile: 'local-psp' }, {}).account).toBe('psp');
  });

  test.each([
    ['flag', { profile: 'bare' }, { PGW_PROFILE: 'prod' }, 'bare'],
    ['environment', {}, { PGW_PROFILE: 'prod' }, 'prod'],
    ['current profile', {}, {}, 'p'],
    ['empty environment is unset', {}, { PGW_PROFILE: '' }, 'p'],
  ])('profile name from the %s', (_, globals, env, name) => {
    expect(resolveProfile(store, globals, env).name).toBe(name);
  });

  // Each row: the setting, how to give it as flag / env / profile, and the default.
  type Row = {
    setting: 'baseUrl' | 'apiVersion' | 'merchantId' | 'timeoutMs' | 'clientId' | 'clientSecret';
    flag?: [string, string];
    env?: [string, string];
    profile?: string;
    expectFlag?: unknown;
    expectEnv?: unknown;
    fallback: unknown;
  };
  const rows: Row[] = [
    { setting: 'baseUrl', flag: ['baseUrl', 'http://flag.test'], env: ['PGW_BASE_URL', 'https://env.test/'], profile: 'http://profile.test', fallback: PUBLIC_BASE_URLS.sandbox },
    { setting: 'apiVersion', flag: ['apiVersion', '1.0.0'], env: ['PGW_API_VERSION', '2.0.0'], profile: '2.5.0', fallback: '3.0.0' },
    { setting: 'merchantId', flag: ['merchant', 'M_FLAG'], env: ['PGW_MERCHANT_ID', 'M_ENV'], profile: 'M_PROFILE', fallback: undefined },
    { setting: 'timeoutMs', flag: ['timeout', '1500'], env: ['PGW_TIMEOUT', '2500'], expectFlag: 1500, expectEnv: 2500, fallback: 30000 },
    { setting: 'clientId', env: ['PGW_CLIENT_ID', 'CID_ENV'], profile: 'CID_PROFILE', fallback: undefined },
    { setting: 'clientSecret', env: ['PGW_CLIENT_SECRET', 'SECRET_ENV'], profile: 'SECRET_PROFILE', fallback: undefined },
  ];

  describe.each(rows)('$setting: flag > environment > profile > default', (row) => {
    const flagGlobals = row.flag ? { [row.flag[0]]: row.flag[1] } : {};
    const envVars = row.env ? { [row.env[0]]: row.env[1] } : {};

    if (row.flag) {
      test('the flag wins over the environment and the profile', () => {
        const r = resolveProfile(store, { ...flagGlobals }, { ...envVars });
        expect(r[row.setting]).toBe(row.expectFlag ?? row.flag![1]);
      });
    }
    if (row.env) {
      test('the environment wins over the profile', () => {
        const r = resolveProfile(store, {}, { ...envVars });
        expect(r[row.setting]).toBe(row.expectEnv ?? row.env![1]);
      });
      test('an empty environment variable counts as unset', () => {
        const r = resolveProfile(store, {}, { [row.env![0]]: '' });
        expect(r[row.setting]).toBe(row.profile ?? row.fallback);
      });
    }
    if (row.profile !== undefined) {
      test('the profile wins over the default', () => {
        expect(resolveProfile(store, {}, {})[row.setting]).toBe(row.profile);
      });
    }
    test('the built-in default applies when nothing is set', () => {
      expect(resolveProfile(store, { profile: 'bare' }, {})[row.setting]).toBe(row.fallback);
    });
  });

  test('the secret is never taken from a flag-like global', () => {
    const globals = { clientSecret: 'FROM_FLAG', profile: 'bare' } as unknown as Parameters<typeof resolveProfile>[1];
    expect(resolveProfile(store, globals, {}).clientSecret).toBeUndefined();
  });

  test('production profiles default to the public production address; embedded ones to none', () => {
    expect(resolveProfile(store, { profile: 'prod' }, {}).baseUrl).toBe(PUBLIC_BASE_URLS.production);
    expect(resolveProfile(store, { profile: 'local' }, {}).baseUrl).toBeUndefined();
    expect(resolveProfile(store, { profile: 'local' }, { PGW_BASE_URL: 'http://127.0.0.1:4010' }).baseUrl).toBe('http://127.0.0.1:4010');
  });

  test('a missing profile is exit 2 with a hint naming pgw profile list', () => {
    for (const [globals, env] of [
      [{ profile: 'ghost' }, {}],
      [{}, { PGW_PROFILE: 'ghost' }],
    ] as const) {
      const err = usage(() => resolveProfile(store, globals, env));
      expect(err.message).toBe('profile "ghost" not found');
      expect(err.suggestion).toContain('pgw profile list');
    }
  });

  // A store reads the file once, when it is opened (once per run): a hand edit is seen by the next run.
  test('a removed current profile is reported, not silently replaced', async () => {
    writeFileSync(store.path, JSON.stringify({ current: 'gone', profiles: {} }));
    const edited = await openProfileStore(dir, { write: false });
    expect(usage(() => resolveProfile(edited, {}, {})).message).toBe('profile "gone" not found');
  });

  test('a hand-edited profile with an unknown env is exit 2 naming the file', async () => {
    writeFileSync(store.path, JSON.stringify({ profiles: { odd: { env: 'staging' } } }));
    const edited = await openProfileStore(dir, { write: false });
    expect(usage(() => resolveProfile(edited, { profile: 'odd' }, {})).message).toBe(
      `profile "odd" has an unknown env "staging" in ${store.path}`,
    );
  });

  test('a bad profile name is exit 2', () => {
    expect(usage(() => resolveProfile(store, { profile: 'bad name' }, {})).message).toMatch(/invalid profile name "bad name"/);
  });

  test.each([
    ['--base-url', { baseUrl: 'not a url' }, {}, 'not a url'],
    ['--base-url', { baseUrl: 'ftp://files.test' }, {}, 'ftp://files.test'],
    ['--base-url', { baseUrl: 'localhost:4010' }, {}, 'localhost:4010'],
    ['PGW_BASE_URL', {}, { PGW_BASE_URL: 'example.com' }, 'example.com'],
  ])('a base URL that is not http(s) is exit 2 naming it (%s)', (source, globals, env, value) => {
    const err = usage(() => resolveProfile(store, globals, env));
    expect(err.message).toContain(`"${value}"`);
    expect(err.message).toContain(source);
  });

  test('a bad base URL stored in the profile is exit 2 naming the profile', () => {
    store.set('broken', { env: 'sandbox', base_url: 'nonsense' });
    expect(usage(() => resolveProfile(store, { profile: 'broken' }, {})).message).toMatch(/"nonsense".*profile "broken"/);
  });

  test.each(['0', '-5', '1.5', 'abc', '', '1e3', '99999999999'])('timeout %j is exit 2', (value) => {
    expect(usage(() => resolveProfile(store, { timeout: value }, {})).message).toContain('--timeout');
  });

  test('a bad PGW_TIMEOUT names the variable', () => {
    expect(usage(() => resolveProfile(store, {}, { PGW_TIMEOUT: 'soon' })).message).toContain('PGW_TIMEOUT');
  });

  test.each(['4.0.0', '3', '3.0', 'v3.0.0', '3.x', '0.9.1', '3.0.0-beta'])('API version %j is exit 2', (value) => {
    expect(usage(() => resolveProfile(store, { apiVersion: value }, {})).message).toContain(`"${value}"`);
  });

  test.each(['1.0.0', '2.1.3', '3.0.0', '3.10.2'])('API version %j is accepted', (value) => {
    expect(resolveProfile(store, { apiVersion: value }, {}).apiVersion).toBe(value);
  });
});
