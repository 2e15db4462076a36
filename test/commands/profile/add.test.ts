import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildProfileAddOptions } from '../../../src/commands/profile/add.js';
import { PUBLIC_BASE_URLS } from '../../../src/config/types.js';
import { UsageError } from '../../../src/errors.js';
import { fakePrompter, interrupt } from '../../helpers/fake-prompter.js';
import { LAST4, SECRET, addProfile, useConfigDir } from './helpers.js';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type RunningSandbox } from '../../../src/sandbox/serve.js';
import { tempConfigDir } from '../../helpers/run.js';

/** A sandbox over HTTP for the credential check. */
function useSandboxServer() {
  let sandbox: RunningSandbox | undefined;
  const dir = tempConfigDir();
  beforeAll(async () => {
    sandbox = await startServer({ port: 0, host: '127.0.0.1', dbPath: join(dir.dir, 'sandbox.db') });
  });
  afterAll(async () => {
    await sandbox?.close();
    dir.cleanup();
  });
  return { baseUrl: () => sandbox!.baseUrl, account: () => sandbox!.accounts.find((a) => !a.psp)! };
}

const cfg = useConfigDir();
const pgw = cfg.pgw;
const stored = () => JSON.parse(readFileSync(join(cfg.dir, 'config.json'), 'utf8')) as { current?: string; profiles: Record<string, Record<string, string>> };

describe('buildProfileAddOptions', () => {
  test('turns flags and the global --base-url / --api-version into options', () => {
    expect(
      buildProfileAddOptions(
        'prod',
        { env: 'production', clientId: ' cid ', merchantId: 'M1', clientSecretStdin: true, force: true },
        { baseUrl: 'https://gw.test', apiVersion: '2.1.0' },
      ),
    ).toEqual({
      name: 'prod',
      env: 'production',
      baseUrl: 'https://gw.test',
      apiVersion: '2.1.0',
      clientId: 'cid',
      merchantId: 'M1',
      secretFromStdin: true,
      keyFromStdin: false,
      force: true,
    });
  });

  test('defaults: sandbox, nothing else', () => {
    expect(buildProfileAddOptions('dev', {}, {})).toEqual({
      name: 'dev',
      env: 'sandbox',
      baseUrl: undefined,
      apiVersion: undefined,
      clientId: undefined,
      merchantId: undefined,
      secretFromStdin: false,
      keyFromStdin: false,
      force: false,
    });
  });

  test.each([
    ['bad name', 'has space', {}, {}],
    ['built-in name', 'local', {}, {}],
    ['bad env', 'x', { env: 'staging' }, {}],
    ['bad base URL', 'x', {}, { baseUrl: 'gw.test' }],
    ['bad API version', 'x', {}, { apiVersion: '4.0.0' }],
    ['empty client id', 'x', { clientId: '  ' }, {}],
    ['control character in client id', 'x', { clientId: 'a\nb' }, {}],
  ])('refuses a %s', (_, name, flags, globals) => {
    expect(() => buildProfileAddOptions(name, flags, globals)).toThrow(UsageError);
  });
});

describe('pgw profile add', () => {
  test('stores the profile with --client-secret-stdin, trailing newline removed, file 0600', async () => {
    const r = await pgw(['profile', 'add', 'dev', '--client-id', 'cid_1', '--merchant-id', 'M9', '--client-secret-stdin'], {
      input: `${SECRET}\n`,
    });
    expect(r.code).toBe(0);
    expect(stored().profiles.dev).toEqual({ env: 'sandbox', client_id: 'cid_1', client_secret: SECRET, merchant_id: 'M9' });
    if (process.platform !== 'win32') {
      expect(statSync(join(cfg.dir, 'config.json')).mode & 0o777).toBe(0o600);
      expect(statSync(cfg.dir).mode & 0o777).toBe(0o700);
    }
    // Not a terminal: JSON on stdout, the secret masked.
    expect(JSON.parse(r.stdout)).toEqual({
      name: 'dev',
      current: false,
      built_in: false,
      env: 'sandbox',
      base_url: PUBLIC_BASE_URLS.sandbox,
      api_version: null,
      client_id: 'cid_1',
      client_secret: LAST4,
      encryption_key: null,
      merchant_id: 'M9',
      account: null,
    });
  });

  test('a CRLF line ending is removed too, and only one', async () => {
    await pgw(['profile', 'add', 'a', '--client-id', 'c', '--client-secret-stdin'], { input: `${SECRET}\r\n` });
    expect(stored().profiles.a!.client_secret).toBe(SECRET);
    const r = await pgw(['profile', 'add', 'b', '--client-id', 'c', '--client-secret-stdin'], { input: `${SECRET}\n\n` });
    expect(r.code).toBe(2);
  });

  test('the global --base-url and --api-version are stored, before or after the verb', async () => {
    await addProfile(pgw, 'one', ['--env', 'production', '--base-url', 'https://gw.example.test', '--api-version', '2.0.0']);
    const r = await pgw(['--base-url', 'http://127.0.0.1:4010', 'profile', 'add', 'two', '--client-id', 'c', '--client-secret-stdin'], {
      input: SECRET,
    });
    expect(r.code).toBe(0);
    expect(stored().profiles.one).toMatchObject({ env: 'production', base_url: 'https://gw.example.test', api_version: '2.0.0' });
    expect(stored().profiles.two).toMatchObject({ env: 'sandbox', base_url: 'http://127.0.0.1:4010' });
  });

  test('a human-readable confirmation on stderr with --output table, nothing on stdout', async () => {
    const r = await pgw(['profile', 'add', 'dev', '--client-id', 'c', '--client-secret-stdin', '-o', 'table'], { input: SECRET });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Added profile "dev" (sandbox, https://api-pacb-uat.eximpe.com)');
    expect(r.stderr).toContain('pgw profile use dev');
  });

  test('without a terminal, missing credentials are exit 2 naming both, and nothing is stored', async () => {
    const r = await pgw(['profile', 'add', 'dev']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--client-id');
    expect(r.stderr).toContain('--client-secret-stdin');
    expect(r.stdout).toBe('');
    const s = await pgw(['profile', 'add', 'dev', '--client-id', 'c']);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/missing the client secret \(--client-secret-stdin\)/);
    expect(s.stderr).not.toContain('--client-id)');
    const list = await pgw(['profile', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toEqual(['local', 'local-psp']);
  });

  test('--client-secret-stdin without --client-id names the client id only', async () => {
    const r = await pgw(['profile', 'add', 'dev', '--client-secret-stdin'], { input: SECRET });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing the client ID (--client-id)');
  });

  test('an empty stdin is exit 2', async () => {
    const r = await pgw(['profile', 'add', 'dev', '--client-id', 'c', '--client-secret-stdin'], { input: '\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stdin was empty');
  });

  test('--no-input in a terminal does not prompt: exit 2', async () => {
    const prompter = fakePrompter();
    const r = await pgw(['profile', 'add', 'dev', '--no-input'], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });

  test('in a terminal, asks for the client id and the secret (masked prompt)', async () => {
    const prompter = fakePrompter({ kind: 'input', answer: 'cid_typed' }, { kind: 'password', answer: SECRET }, { kind: 'confirm', answer: false });
    const r = await pgw(['profile', 'add', 'dev'], { tty: true, prompter });
    expect(r.code).toBe(0);
    prompter.assertDone();
    expect(prompter.asked.map((q) => [q.kind, q.message])).toEqual([
      ['input', 'Client ID:'],
      ['password', 'Client secret:'],
      ['confirm', 'Check these credentials with the gateway now?'],
    ]);
    expect(stored().profiles.dev).toEqual({ env: 'sandbox', client_id: 'cid_typed', client_secret: SECRET });
    // A terminal: the confirmation on stderr, no JSON on stdout.
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Added profile "dev"');
  });

  test('in a terminal with --client-id, asks only for the secret; an empty secret is re-asked', async () => {
    const prompter = fakePrompter({ kind: 'password', answer: '', rejectedWith: 'cannot be empty' }, SECRET, { kind: 'confirm', answer: false });
    const r = await pgw(['profile', 'add', 'dev', '--client-id', 'c'], { tty: true, prompter });
    expect(r.code).toBe(0);
    prompter.assertDone();
    expect(stored().profiles.dev!.client_secret).toBe(SECRET);
  });

  test('--client-secret-stdin on a terminal stdin is refused rather than read in clear', async () => {
    const prompter = fakePrompter();
    const r = await pgw(['profile', 'add', 'dev', '--client-id', 'c', '--client-secret-stdin'], { tty: true, prompter, input: SECRET });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('masked prompt');
  });

  test('Ctrl-C at the prompt is exit 130 and stores nothing', async () => {
    const prompter = fakePrompter('cid', interrupt());
    const r = await pgw(['profile', 'add', 'dev'], { tty: true, prompter });
    expect(r.code).toBe(130);
    const list = await pgw(['profile', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
  });

  test('an existing name is refused (exit 2) unless --force, which replaces it', async () => {
    await addProfile(pgw, 'dev');
    const again = await pgw(['profile', 'add', 'dev', '-o', 'table', '--client-id', 'other', '--client-secret-stdin'], {
      input: 'sk_other_000011112222',
    });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('profile "dev" already exists');
    expect(again.stderr).toContain('--force');
    expect(stored().profiles.dev!.client_id).toBe('cid_dev');
    const forced = await pgw(['profile', 'add', 'dev', '--force', '--client-id', 'other', '--client-secret-stdin'], {
      input: 'sk_other_000011112222',
    });
    expect(forced.code).toBe(0);
    expect(stored().profiles.dev).toEqual({ env: 'sandbox', client_id: 'other', client_secret: 'sk_other_000011112222' });
  });

  test.each(['local', 'local-psp'])('the built-in %s cannot be added over, even with --force', async (name) => {
    const r = await pgw(['profile', 'add', name, '--force', '--client-id', 'c', '--client-secret-stdin'], { input: SECRET });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('built-in');
  });

  test.each(['-bad', 'a.b', 'x'.repeat(65), 'sp ace'])('a bad name %j is exit 2', async (name) => {
    const r = await pgw(['profile', 'add', name, '--client-id', 'c', '--client-secret-stdin'], { input: SECRET });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  test('a base URL that is not http(s) is exit 2 naming it, and nothing is stored', async () => {
    const r = await pgw(['profile', 'add', 'dev', '--base-url', 'gw.example.test', '--client-id', 'c', '--client-secret-stdin'], {
      input: SECRET,
    });
    expect(r.code).toBe(2);
    // Not a terminal: the error is JSON on stderr, stdout stays empty.
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.message).toContain('"gw.example.test"');
    const list = await pgw(['profile', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toHaveLength(2);
  });

  test('--env accepts only sandbox and production', async () => {
    const r = await pgw(['profile', 'add', 'dev', '--env', 'embedded', '--client-id', 'c', '--client-secret-stdin'], { input: SECRET });
    expect(r.code).toBe(2);
  });

  test('help mentions the global --base-url and --api-version', async () => {
    const r = await pgw(['profile', 'add', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--base-url');
    expect(r.stdout).toContain('--api-version');
    expect(r.stdout).toContain('--client-secret-stdin');
  });
});

describe('the credentials are checked with the gateway before they are stored (a terminal)', () => {
  const sb = useSandboxServer();

  test('accepted: said so, and stored', async () => {
    const account = sb.account();
    const prompter = fakePrompter({ kind: 'password', answer: account.client_secret }, { kind: 'confirm', message: 'Check these credentials', answer: true });
    const r = await pgw(['profile', 'add', 'ok', '--client-id', account.client_id, '--base-url', sb.baseUrl()], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`The gateway at ${sb.baseUrl()} accepted the credentials.`);
    expect(stored().profiles.ok!.client_id).toBe(account.client_id);
  });

  test('refused: not stored unless the person says so (exit 4), and the secret is never printed', async () => {
    const prompter = fakePrompter(
      { kind: 'password', answer: 'sk_wrong_secret_0000' },
      { kind: 'confirm', message: 'Check these credentials', answer: true },
      { kind: 'confirm', message: 'Store the profile anyway?', answer: false },
    );
    const r = await pgw(['profile', 'add', 'bad', '--client-id', 'nope', '--base-url', sb.baseUrl()], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('refused them');
    expect(r.stderr).not.toContain('sk_wrong_secret_0000');
    const list = await pgw(['profile', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).not.toContain('bad');
  });
});
