// `pgw sandbox env` (issue 32 item 4): a CI job gets the credentials of the sandbox it started,
// without jq, as lines to eval (sh, fish) or to append to $GITHUB_ENV; refused for anything that
// is not a pgw sandbox. And `sandbox serve --quiet` prints nothing but errors.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';
import { startServe } from '../helpers/serve-process.js';

let dir: string;
let bin: string;
let serve: { child: ChildProcessWithoutNullStreams; out: () => string; err: () => string; exited: Promise<number | null> };
let readyFile: string;
let ready: { base_url: string; accounts: { name: string; client_id: string; client_secret: string; merchant_id: string; psp: boolean; encryption_key: string }[] };
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-env-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'pgw'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'pgw'), 0o755);
  readyFile = join(dir, 'sandbox.ready');
  // Its own database (not the embedded one's): the credentials can only come from the ready file.
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', join(dir, 'served.db'), '--ready-file', readyFile, '--quiet'], {
    cwd: ROOT,
    env: { ...clean, NO_COLOR: '1', PGW_CONFIG_DIR: join(dir, 'serve') },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  serve = { child, out: () => out, err: () => err, exited: new Promise((r) => child.on('close', (code) => r(code))) };
  for (let i = 0; i < 1500 && !existsSync(readyFile); i++) {
    if (child.exitCode !== null) throw new Error(`serve exited: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  ready = JSON.parse(readFileSync(readyFile, 'utf8'));
}, 60_000);

afterAll(async () => {
  if (serve?.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

function bash(script: string, env: Record<string, string> = {}) {
  return spawnSync('bash', ['-c', script], { env: { ...clean, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1', PGW_CONFIG_DIR: join(dir, 'client'), ...env }, encoding: 'utf8', timeout: 60_000 });
}

describe('sandbox serve --quiet', () => {
  it('prints nothing (the credentials are in the ready file only), not even with stdout piped', () => {
    expect(serve.out()).toBe('');
    expect(serve.err()).toBe('');
    expect(ready.accounts.map((a) => a.psp).sort()).toEqual([false, true]);
  });
});

describe('pgw sandbox env', () => {
  it('sh: eval it in bash, then pgw payment list works against the served sandbox', () => {
    const r = bash(`set -e\neval "$(pgw sandbox env --ready-file '${readyFile}')"\npgw payment list --json >/dev/null\nprintf '%s\\n' "$PGW_BASE_URL" "$PGW_CLIENT_ID" "$PGW_CLIENT_SECRET" "$PGW_ENCRYPTION_KEY"`);
    expect(r.status, r.stderr).toBe(0);
    const merchant = ready.accounts.find((a) => !a.psp)!;
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([ready.base_url, merchant.client_id, merchant.client_secret, merchant.encryption_key]);
  });

  it("sh output: four export lines, nothing on stderr; eval'd twice (the secret already in the environment) it still prints it", async () => {
    const merchant = ready.accounts.find((a) => !a.psp)!;
    const r = await pgwInProcess(['sandbox', 'env', '--ready-file', readyFile], { env: { PGW_CONFIG_DIR: join(dir, 'client') } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `export PGW_BASE_URL='${ready.base_url}'\nexport PGW_CLIENT_ID='${merchant.client_id}'\nexport PGW_CLIENT_SECRET='${merchant.client_secret}'\nexport PGW_ENCRYPTION_KEY='${merchant.encryption_key}'\n`,
    );
    const again = bash(`set -e\neval "$(pgw sandbox env --ready-file '${readyFile}')"\npgw sandbox env --ready-file '${readyFile}'`);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(r.stdout);
  });

  it('--psp and --account pick the account; fish and github formats', async () => {
    const psp = ready.accounts.find((a) => a.psp)!;
    const env = { PGW_CONFIG_DIR: join(dir, 'client') };
    const fish = await pgwInProcess(['sandbox', 'env', '--ready-file', readyFile, '--psp', '--shell', 'fish'], { env });
    expect(fish.code, fish.stderr).toBe(0);
    expect(fish.stdout).toBe(
      `set -gx PGW_BASE_URL '${ready.base_url}'\nset -gx PGW_CLIENT_ID '${psp.client_id}'\nset -gx PGW_CLIENT_SECRET '${psp.client_secret}'\nset -gx PGW_ENCRYPTION_KEY '${psp.encryption_key}'\n`,
    );
    const gh = await pgwInProcess(['sandbox', 'env', '--ready-file', readyFile, '--account', psp.name, '--shell', 'github'], { env });
    expect(gh.code, gh.stderr).toBe(0);
    expect(gh.stdout).toBe(`PGW_BASE_URL=${ready.base_url}\nPGW_CLIENT_ID=${psp.client_id}\nPGW_CLIENT_SECRET=${psp.client_secret}\nPGW_ENCRYPTION_KEY=${psp.encryption_key}\n`);
    const byRole = await pgwInProcess(['sandbox', 'env', '--ready-file', readyFile, '--account', 'psp', '--shell', 'github'], { env });
    expect(byRole.stdout).toBe(gh.stdout);
    const unknown = await pgwInProcess(['sandbox', 'env', '--ready-file', readyFile, '--account', 'nobody'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('nobody');
    const both = await pgwInProcess(['sandbox', 'env', '--ready-file', readyFile, '--account', 'psp', '--psp'], { env });
    expect(both.code).toBe(2);
    const shell = await pgwInProcess(['sandbox', 'env', '--ready-file', readyFile, '--shell', 'pwsh'], { env });
    expect(shell.code).toBe(2);
    expect(shell.stdout).toBe('');
  });

  it('without --ready-file: the embedded profile\'s own database, at the address serve listens on by default', async () => {
    const env = { PGW_CONFIG_DIR: join(dir, 'embedded') };
    const r = await pgwInProcess(['sandbox', 'env', '--shell', 'github'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = Object.fromEntries(r.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(lines.PGW_BASE_URL).toBe('http://127.0.0.1:4010');
    expect(lines.PGW_CLIENT_ID).toMatch(/^sbx_ci_/);
    expect(lines.PGW_CLIENT_SECRET).toMatch(/^sbx_cs_/);
    expect(lines.PGW_ENCRYPTION_KEY).toMatch(/^sbx_ek_/);
    // The same database a serve with no --db opens: its banner shows the same merchant.
    const served = await startServe(env.PGW_CONFIG_DIR, '0');
    await served.stop();
    const banner = { accounts: served.accounts };
    expect(banner.accounts.find((a: { psp: boolean }) => !a.psp)?.client_secret).toBe(lines.PGW_CLIENT_SECRET);
    const psp = await pgwInProcess(['-p', 'local-psp', 'sandbox', 'env', '--shell', 'github'], { env });
    expect(psp.stdout).toContain(`PGW_CLIENT_ID=${banner.accounts.find((a: { psp: boolean }) => a.psp)?.client_id}\n`);
  }, 30_000);

  it('refused for a production profile and for a gateway that is not a pgw sandbox (exit 6, nothing printed)', async () => {
    const env = { PGW_CONFIG_DIR: join(dir, 'prod') };
    const add = await pgwInProcess(['profile', 'add', 'live', '--env', 'production', '--client-id', 'live_id', '--client-secret-stdin'], { env, input: 'live-secret-123456\n' });
    expect(add.code, add.stderr).toBe(0);
    const prod = await pgwInProcess(['-p', 'live', 'sandbox', 'env'], { env });
    expect(prod.code).toBe(6);
    expect(prod.stdout).toBe('');
    expect(prod.stderr).not.toContain('live-secret-123456');
    const remote = await pgwInProcess(['sandbox', 'env'], { env: { ...env, PGW_BASE_URL: 'https://sandbox.gateway.example', PGW_CLIENT_ID: 'c', PGW_CLIENT_SECRET: 'remote-secret-1234' } });
    expect(remote.code).toBe(6);
    expect(remote.stdout).toBe('');
    expect(remote.stderr).not.toContain('remote-secret-1234');
    // A ready file that does not hold a pgw sandbox's credentials (a production address, other secrets).
    const forged = join(dir, 'forged.ready');
    writeFileSync(forged, `${JSON.stringify({ base_url: 'https://api-pacb.eximpe.com', accounts: [{ name: 'x', client_id: 'a', client_secret: 'sbx_cs_abc', merchant_id: '1', psp: false, encryption_key: 'sbx_ek_abc' }] })}\n`);
    const f1 = await pgwInProcess(['sandbox', 'env', '--ready-file', forged], { env });
    expect(f1.code).toBe(6);
    expect(f1.stdout).toBe('');
    writeFileSync(forged, `${JSON.stringify({ base_url: 'http://127.0.0.1:4010', accounts: [{ name: 'x', client_id: 'a', client_secret: 'not-a-sandbox-secret', merchant_id: '1', psp: false, encryption_key: 'k' }] })}\n`);
    const f2 = await pgwInProcess(['sandbox', 'env', '--ready-file', forged], { env });
    expect(f2.code).toBe(6);
    expect(f2.stdout).toBe('');
    expect(f2.stderr).not.toContain('not-a-sandbox-secret');
    const missing = await pgwInProcess(['sandbox', 'env', '--ready-file', join(dir, 'none.ready')], { env });
    expect(missing.code).toBe(2);
  });
});
