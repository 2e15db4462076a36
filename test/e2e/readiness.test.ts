// Readiness for CI (issue 24): GET /sandbox/health/ without credentials, `sandbox serve
// --ready-file`, `pgw listen --ready-file`, and `pgw sandbox wait`, which returns once the server
// is ready and not before (ordering is asserted, never durations).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, spawnPgw } from '../helpers/spawn.js';
import { startHarness } from '../sandbox/harness.js';

let dir: string;
let readmePort: number;
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-ready-'));
  readmePort = await freePort();
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
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
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

  it('on the embedded profile, wait waits for the address sandbox serve listens on by default (127.0.0.1:4010)', async () => {
    // Issue 32 item 3: it answered 0 at once (the in-process sandbox), so CI went on before the server listened.
    const r = await spawnPgw(['sandbox', 'wait', '--timeout', '300ms', '--json'], { env: { PGW_CONFIG_DIR: join(dir, 'embedded') } });
    // Whatever else on this machine may have 4010: either way the address tried is that one.
    if (r.code === 0) expect(JSON.parse(r.stdout).base_url).toBe('http://127.0.0.1:4010');
    else {
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('http://127.0.0.1:4010');
    }
  });
});

describe('pgw sandbox wait --ready-file and --url (issue 32 item 3)', () => {
  it('started before serve --ready-file, it returns only once the server listens, at the address in the file', async () => {
    const port = await freePort();
    const readyFile = join(dir, 'wait-first.ready');
    const env = { PGW_CONFIG_DIR: join(dir, 'wait-first') };
    const waiting = start(['sandbox', 'wait', '--ready-file', readyFile, '--timeout', '60s', '--json'], env);
    const byUrl = start(['sandbox', 'wait', '--url', `http://127.0.0.1:${port}`, '--timeout', '60s', '--json'], env);
    // No file and nothing listening: both must still be waiting once they have certainly asked.
    const probe = await spawnPgw(['sandbox', 'wait', '--ready-file', readyFile, '--timeout', '200ms'], { env });
    expect(probe.code).toBe(3);
    expect(probe.stderr).toContain(readyFile);
    expect(waiting.child.exitCode).toBeNull();
    expect(byUrl.child.exitCode).toBeNull();

    const serve = start(['sandbox', 'serve', '--port', String(port), '--db', join(dir, 'wait-first.db'), '--ready-file', readyFile, '--quiet'], { PGW_CONFIG_DIR: join(dir, 'wait-first-serve') });
    expect(await waiting.exited, waiting.err()).toBe(0);
    expect(await byUrl.exited, byUrl.err()).toBe(0);
    // It saw this server, still running and listening where the file says.
    expect(serve.child.exitCode).toBeNull();
    expect(JSON.parse(waiting.out())).toMatchObject({ base_url: `http://127.0.0.1:${port}`, status: 'ok' });
    expect(JSON.parse(byUrl.out())).toMatchObject({ base_url: `http://127.0.0.1:${port}`, status: 'ok' });
    const health = await fetch(`http://127.0.0.1:${port}/sandbox/health/`);
    expect(health.status).toBe(200);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  }, 60_000);

  it('with nothing listening, exit 3 naming the address it tried', async () => {
    const port = await freePort();
    const r = await spawnPgw(['sandbox', 'wait', '--url', `http://127.0.0.1:${port}`, '--timeout', '300ms'], { env: { PGW_CONFIG_DIR: join(dir, 'nothing') } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`http://127.0.0.1:${port}`);
    expect(r.stderr).toContain('connection refused');
    // A stale ready file (its server killed without cleaning up) names the address in it.
    const stale = join(dir, 'stale.ready');
    writeFileSync(stale, `${JSON.stringify({ base_url: `http://127.0.0.1:${port}`, accounts: [] })}\n`);
    const s = await spawnPgw(['sandbox', 'wait', '--ready-file', stale, '--timeout', '300ms'], { env: { PGW_CONFIG_DIR: join(dir, 'nothing') } });
    expect(s.code).toBe(3);
    expect(s.stderr).toContain(`http://127.0.0.1:${port}`);
    const both = await spawnPgw(['sandbox', 'wait', '--ready-file', stale, '--url', `http://127.0.0.1:${port}`], { env: { PGW_CONFIG_DIR: join(dir, 'nothing') } });
    expect(both.code).toBe(2);
  });

  it("the README's CI block runs as written: serve in the background, wait, env, seed, faults, restore", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('pgw sandbox wait'));
    expect(block, 'a README block with pgw sandbox wait').toBeDefined();
    const work = join(dir, 'readme');
    mkdirSync(join(work, 'bin'), { recursive: true });
    writeFileSync(join(work, 'bin', 'pgw'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(work, 'bin', 'pgw'), 0o755);
    // The app under test: answers 200 to every event, as the block's `events wait --status delivered` expects.
    const app = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const appPort = (app.address() as AddressInfo).port;
    try {
      // As written, but on ports no other test uses; the server is stopped when the block is done.
      const body = block!.replaceAll('4010', String(readmePort)).replaceAll('localhost:3000', `127.0.0.1:${appPort}`);
      const script = `set -e\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${body}\npgw payment list --json | head -c 1 >/dev/null\n`;
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
      const child = spawn('bash', ['-c', script], { cwd: work, env: { ...clean, PATH: `${join(work, 'bin')}:${process.env.PATH}`, NO_COLOR: '1', PGW_CONFIG_DIR: join(work, 'config') } });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      clearTimeout(timer);
      expect(status, out).toBe(0);
    } finally {
      await new Promise((resolve) => app.close(resolve));
    }
  }, 120_000);
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
