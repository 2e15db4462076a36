// Readiness for CI (issue 24): GET /sandbox/health/ without credentials, `sandbox serve
// --ready-file`, `pgw listen --ready-file`, and `pgw sandbox wait`, which returns once the server
// is ready and not before (ordering is asserted, never durations).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, spawnPgw } from '../helpers/spawn.js';
import { startHarness } from '../sandbox/harness.js';

let dir: string;
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-ready-'));
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Proc {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string>): Proc {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PGW_')));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...clean, NO_COLOR: '1', ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { child, out: () => out, err: () => err, exited: new Promise((r) => child.on('close', (code) => r(code))) };
}

async function until<T>(what: string, fn: () => T | undefined | false, proc?: Proc): Promise<T> {
  for (let i = 0; i < 2000; i++) {
    const v = fn();
    if (v) return v;
    if (proc && proc.child.exitCode !== null) throw new Error(`${what}: the process exited (${proc.child.exitCode}): ${proc.err()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('GET /sandbox/health/', () => {
  it('answers without credentials: version, engine, schema, clock; nothing of any account', async () => {
    const h = await startHarness();
    try {
      const r = await h.call('GET', '/sandbox/health/', { as: 'none' });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({
        status: 'ok',
        version: expect.any(String),
        engine: expect.stringMatching(/^(node:sqlite|better-sqlite3)$/),
        sqlite_version: expect.stringMatching(/^3\./),
        schema_version: expect.any(Number),
        clock: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      });
      expect(JSON.stringify(r.body)).not.toContain(h.merchant.client_secret);
      expect((await h.call('POST', '/sandbox/health/', { as: 'none' })).status).toBe(405);
    } finally {
      await h.close();
    }
  });
});

describe('pgw sandbox wait and sandbox serve --ready-file', () => {
  it('wait keeps asking until the server is ready, then exits 0; the ready file goes when serve stops', async () => {
    const port = await freePort();
    const readyFile = join(dir, 'serve.ready');
    const base = `http://127.0.0.1:${port}`;
    const clientEnv = { PGW_CONFIG_DIR: join(dir, 'client'), PGW_BASE_URL: base, PGW_CLIENT_ID: 'x', PGW_CLIENT_SECRET: 'y' };
    const waiting = start(['sandbox', 'wait', '--timeout', '60s', '--json'], clientEnv);
    // Nothing listens yet: it must still be waiting once it has certainly asked a few times.
    const probe = await spawnPgw(['sandbox', 'wait', '--timeout', '200ms', '-o', 'table'], { env: clientEnv });
    expect(probe.code).toBe(3);
    expect(probe.stderr).toContain('not ready within 200ms: connection refused');
    expect(waiting.child.exitCode).toBeNull();

    const serve = start(['sandbox', 'serve', '--port', String(port), '--db', join(dir, 'served.db'), '--ready-file', readyFile, '--quiet', '--json'], { PGW_CONFIG_DIR: join(dir, 'serve') });
    expect(await waiting.exited).toBe(0);
    const ready = JSON.parse(waiting.out());
    expect(ready).toMatchObject({ base_url: base, status: 'ok' });
    // The server it saw is this one, still running; its ready file says the same, owner-only.
    expect(serve.child.exitCode).toBeNull();
    await until('the ready file', () => existsSync(readyFile), serve);
    const line = readFileSync(readyFile, 'utf8');
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual(JSON.parse(serve.out().split('\n')[0]!));
    expect(statSync(readyFile).mode & 0o777).toBe(0o600);

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(existsSync(readyFile)).toBe(false);
  }, 60_000);

  it('a ready file in a missing directory is exit 2, nothing started', async () => {
    const r = await spawnPgw(['sandbox', 'serve', '--port', '0', '--ready-file', join(dir, 'nope', 'r.json')], { env: { PGW_CONFIG_DIR: join(dir, 'bad') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--ready-file');
  });

  it('on the embedded profile, wait answers at once (the sandbox starts in the process)', async () => {
    const r = await spawnPgw(['sandbox', 'wait', '--json'], { env: { PGW_CONFIG_DIR: join(dir, 'embedded') } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('ok');
    // Issue 23: it listens on no port, so no address is offered to connect to.
    expect(JSON.parse(r.stdout).base_url).toBe('http://embedded-sandbox.invalid');
    const human = await spawnPgw(['sandbox', 'wait', '-o', 'table'], { env: { PGW_CONFIG_DIR: join(dir, 'embedded') } });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toMatch(/^embedded sandbox ready, in this process \(pgw /);
  });
});

describe('pgw listen --ready-file', () => {
  it('written once registered (receiver and registration, never the key); removed when it stops', async () => {
    const readyFile = join(dir, 'listen.ready');
    const env = { PGW_CONFIG_DIR: join(dir, 'listen') };
    const listener = start(['listen', '--ready-file', readyFile, '--json'], env);
    await until('the listener ready file', () => existsSync(readyFile), listener);
    const ready = JSON.parse(readFileSync(readyFile, 'utf8'));
    expect(ready).toMatchObject({ receiver: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//), registration: expect.stringMatching(/^WH\d{10}$/) });
    const hooks = await spawnPgw(['sandbox', 'webhook', 'list', '--json'], { env });
    expect(JSON.parse(hooks.stdout).map((h: { id: string }) => h.id)).toContain(ready.registration);
    expect(readFileSync(readyFile, 'utf8')).not.toMatch(/sbx_ek_/);
    listener.child.kill('SIGTERM');
    await listener.exited;
    expect(existsSync(readyFile)).toBe(false);
  }, 60_000);
});
