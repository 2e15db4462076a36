import { describe, expect, test } from 'vitest';
import { buildProfileShowOptions } from '../../../src/commands/profile/show.js';
import { PUBLIC_BASE_URLS } from '../../../src/config/types.js';
import { LAST4, SECRET, addProfile, useConfigDir } from './helpers.js';

const { pgw } = useConfigDir();

describe('pgw profile list', () => {
  test('a fresh install lists the built-ins, local current (JSON)', async () => {
    const r = await pgw(['profile', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'local', current: true, built_in: true, env: 'embedded', base_url: null, api_version: null, client_id: null, client_secret: null, encryption_key: null, merchant_id: null, account: 'merchant' },
      { name: 'local-psp', current: false, built_in: true, env: 'embedded', base_url: null, api_version: null, client_id: null, client_secret: null, encryption_key: null, merchant_id: null, account: 'psp' },
    ]);
  });

  test('JSON: stored profiles after the built-ins, the secret masked to its last 4', async () => {
    await addProfile(pgw, 'zz-prod', ['--env', 'production']);
    await addProfile(pgw, 'dev', ['--base-url', 'http://127.0.0.1:4010']);
    const r = await pgw(['profile', 'list']); // not a terminal: JSON by default
    const list = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(list.map((p) => p.name)).toEqual(['local', 'local-psp', 'dev', 'zz-prod']);
    expect(list[2]).toMatchObject({ env: 'sandbox', base_url: 'http://127.0.0.1:4010', client_id: 'cid_dev', client_secret: LAST4 });
    expect(list[3]).toMatchObject({ env: 'production', base_url: PUBLIC_BASE_URLS.production, client_secret: LAST4 });
  });

  test('table: marker, name, env, address or "embedded sandbox", client id, masked secret', async () => {
    await addProfile(pgw, 'dev');
    await pgw(['profile', 'use', 'dev']);
    const r = await pgw(['profile', 'list', '-o', 'table']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const row = (name: string) => lines.find((l) => l.includes(` ${name} `))!;
    expect(lines.join('\n')).toMatch(/NAME.*ENV.*BASE URL.*CLIENT ID.*SECRET/);
    expect(row('local')).toContain('embedded sandbox');
    expect(row('local')).not.toContain('*');
    expect(row('dev')).toMatch(/│ \* +│ dev +│ sandbox +│ https:\/\/api-pacb-uat\.eximpe\.com +│ cid_dev +│ ••••5b4a/);
    expect(r.stderr).toBe('');
  });

  test('--query works on the JSON and prints a string raw', async () => {
    await addProfile(pgw, 'dev');
    const r = await pgw(['profile', 'list', '--query', "[?name=='dev'].client_secret | [0]"]);
    expect(r.stdout).toBe(`${LAST4}\n`);
  });

  test('a short secret is fully masked', async () => {
    await pgw(['profile', 'add', 'short', '--client-id', 'c', '--client-secret-stdin'], { input: 'abc123' });
    const r = await pgw(['profile', 'list', '--json']);
    const p = (JSON.parse(r.stdout) as { name: string; client_secret: string }[]).find((x) => x.name === 'short')!;
    expect(p.client_secret).toBe('••••');
    expect(r.stdout).not.toContain('abc123');
    expect(r.stdout).not.toContain('c123');
  });
});

describe('buildProfileShowOptions', () => {
  test('the argument, then --profile, then PGW_PROFILE, else the current one', () => {
    expect(buildProfileShowOptions('a', { profile: 'b' }, { PGW_PROFILE: 'c' })).toEqual({ name: 'a' });
    expect(buildProfileShowOptions(undefined, { profile: 'b' }, { PGW_PROFILE: 'c' })).toEqual({ name: 'b' });
    expect(buildProfileShowOptions(undefined, {}, { PGW_PROFILE: 'c' })).toEqual({ name: 'c' });
    expect(buildProfileShowOptions(undefined, {}, { PGW_PROFILE: '' })).toEqual({});
    expect(() => buildProfileShowOptions('bad name', {}, {})).toThrow(/invalid profile name/);
  });
});

describe('pgw profile show', () => {
  test('JSON of a named profile, secret masked', async () => {
    await addProfile(pgw, 'dev', ['--merchant-id', 'M42', '--api-version', '2.0.0']);
    const r = await pgw(['profile', 'show', 'dev', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      name: 'dev',
      current: false,
      built_in: false,
      env: 'sandbox',
      base_url: PUBLIC_BASE_URLS.sandbox,
      api_version: '2.0.0',
      client_id: 'cid_dev',
      client_secret: LAST4,
      encryption_key: null,
      merchant_id: 'M42',
      account: null,
    });
  });

  test('defaults to the current profile; --profile and PGW_PROFILE choose another', async () => {
    await addProfile(pgw, 'dev');
    await addProfile(pgw, 'other');
    const current = await pgw(['profile', 'show', '--json']);
    expect(JSON.parse(current.stdout).name).toBe('local');
    await pgw(['profile', 'use', 'dev']);
    expect(JSON.parse((await pgw(['profile', 'show', '--json'])).stdout)).toMatchObject({ name: 'dev', current: true });
    expect(JSON.parse((await pgw(['-p', 'other', 'profile', 'show', '--json'])).stdout).name).toBe('other');
    expect(JSON.parse((await pgw(['profile', 'show', '--json'], { env: { PGW_PROFILE: 'other' } })).stdout).name).toBe('other');
  });

  test('the detail view on a terminal shows the masked secret and where it is stored', async () => {
    await addProfile(pgw, 'dev');
    const r = await pgw(['profile', 'show', 'dev', '-o', 'table']);
    expect(r.stdout).toMatch(/Client secret +••••5b4a/);
    expect(r.stdout).toMatch(/Base URL +https:\/\/api-pacb-uat\.eximpe\.com/);
    expect(r.stdout).toMatch(/Stored in +.*config\.json/);
    expect(r.stdout).not.toContain(SECRET);
  });

  test('a built-in shows as the embedded sandbox', async () => {
    const r = await pgw(['profile', 'show', 'local-psp', '-o', 'table']);
    expect(r.stdout).toMatch(/Name +local-psp \(built-in\)/);
    expect(r.stdout).toMatch(/Base URL +embedded sandbox/);
    expect(r.stdout).toMatch(/Account +psp/);
  });

  test('a missing profile is exit 2 with a hint to pgw profile list', async () => {
    const r = await pgw(['profile', 'show', 'ghost', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('profile "ghost" not found');
    expect(r.stderr).toContain('pgw profile list');
  });

  test('no production banner for profile management', async () => {
    await addProfile(pgw, 'prod', ['--env', 'production']);
    await pgw(['profile', 'use', 'prod']);
    const r = await pgw(['profile', 'show', '--json']);
    expect(r.stderr).toBe('');
  });
});
