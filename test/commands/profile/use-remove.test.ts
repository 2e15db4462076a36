import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildProfileRemoveOptions } from '../../../src/commands/profile/remove.js';
import { buildProfileUseOptions } from '../../../src/commands/profile/use.js';
import { fakePrompter } from '../../helpers/fake-prompter.js';
import { addProfile, useConfigDir } from './helpers.js';

const cfg = useConfigDir();
const pgw = cfg.pgw;
const names = async () => (JSON.parse((await pgw(['profile', 'list', '--json'])).stdout) as { name: string }[]).map((p) => p.name);
const current = async () => (JSON.parse((await pgw(['profile', 'list', '--json'])).stdout) as { name: string; current: boolean }[]).find((p) => p.current)?.name;

describe('builders', () => {
  test('use and remove validate the name; remove refuses built-ins', () => {
    expect(buildProfileUseOptions('dev')).toEqual({ name: 'dev' });
    expect(() => buildProfileUseOptions('no good')).toThrow(/invalid profile name/);
    expect(buildProfileRemoveOptions('dev')).toEqual({ name: 'dev' });
    expect(() => buildProfileRemoveOptions('local')).toThrow(/built-in/);
    expect(() => buildProfileRemoveOptions('a/b')).toThrow(/invalid profile name/);
  });
});

describe('pgw profile use', () => {
  test('makes a profile current, persisted in the file', async () => {
    await addProfile(pgw, 'dev');
    const r = await pgw(['profile', 'use', 'dev', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Now using profile "dev"');
    expect(await current()).toBe('dev');
    expect(JSON.parse(readFileSync(join(cfg.dir, 'config.json'), 'utf8')).current).toBe('dev');
  });

  test('JSON: prints the profile now current', async () => {
    await addProfile(pgw, 'dev');
    const r = await pgw(['profile', 'use', 'dev', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'dev', current: true });
  });

  test('a built-in can be made current again', async () => {
    await pgw(['profile', 'use', 'local-psp']);
    expect(await current()).toBe('local-psp');
  });

  test('a production profile is flagged when chosen', async () => {
    await addProfile(pgw, 'prod', ['--env', 'production']);
    const r = await pgw(['profile', 'use', 'prod', '-o', 'table']);
    expect(r.stderr).toContain('(PRODUCTION)');
  });

  test('a missing profile is exit 2 and the current one stays', async () => {
    const r = await pgw(['profile', 'use', 'ghost', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('profile "ghost" not found');
    expect(r.stderr).toContain('pgw profile list');
    expect(await current()).toBe('local');
  });

  test('a bad name is exit 2', async () => {
    expect((await pgw(['profile', 'use', '../x'])).code).toBe(2);
  });
});

describe('pgw profile remove', () => {
  test('with --yes removes without asking', async () => {
    await addProfile(pgw, 'dev');
    const prompter = fakePrompter();
    const r = await pgw(['profile', 'remove', 'dev', '--yes', '-o', 'table'], { prompter });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Removed profile "dev"');
    expect(prompter.asked).toEqual([]);
    expect(await names()).toEqual(['local', 'local-psp']);
  });

  test('without a terminal and without --yes it is exit 6 and keeps the profile', async () => {
    await addProfile(pgw, 'dev');
    const r = await pgw(['profile', 'remove', 'dev', '-o', 'table']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('needs --yes');
    expect(await names()).toContain('dev');
  });

  test('in a terminal: yes removes, no is exit 6 and keeps it', async () => {
    await addProfile(pgw, 'a');
    await addProfile(pgw, 'b');
    const no = fakePrompter({ kind: 'confirm', answer: false });
    const r1 = await pgw(['profile', 'remove', 'a'], { tty: true, prompter: no });
    expect(r1.code).toBe(6);
    no.assertDone();
    expect(no.asked[0]!.message).toContain('"a"');
    expect(no.asked[0]!.default).toBe(false);
    expect(await names()).toContain('a');
    const yes = fakePrompter({ kind: 'confirm', answer: true });
    const r2 = await pgw(['profile', 'rm', 'a'], { tty: true, prompter: yes });
    expect(r2.code).toBe(0);
    yes.assertDone();
    expect(await names()).toEqual(['local', 'local-psp', 'b']);
  });

  test('removing the current profile falls back to local', async () => {
    await addProfile(pgw, 'dev');
    await pgw(['profile', 'use', 'dev']);
    const r = await pgw(['profile', 'remove', 'dev', '-y', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ removed: 'dev', current: 'local' });
    expect(await current()).toBe('local');
  });

  test.each(['local', 'local-psp'])('the built-in %s cannot be removed (exit 2)', async (name) => {
    const r = await pgw(['profile', 'remove', name, '--yes']);
    expect(r.code).toBe(2);
    expect(await names()).toEqual(['local', 'local-psp']);
  });

  test('a missing profile is exit 2, before any question', async () => {
    const prompter = fakePrompter();
    const r = await pgw(['profile', 'remove', 'ghost'], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });
});
