// `pgw listen` and `pgw trigger` as separate real processes (issue 16, "Done when"): a tiny app on
// 127.0.0.1, a listener forwarding to it, and a trigger in another process, against the embedded
// default and against `pgw sandbox serve`; then the listener stops and leaves no registration.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, spawnPgw } from '../helpers/spawn.js';

let dir: string;
let children: ChildProcessWithoutNullStreams[] = [];
let servers: Server[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-listen-'));
});
afterEach(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children = [];
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  servers = [];
  rmSync(dir, { recursive: true, force: true });
});

interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The developer's app (or a fake gateway): records every request, answers 200. */
async function recorder(): Promise<{ url: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

async function waitFor<T>(what: string, pick: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await pick();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/** A long-running pgw (listen, sandbox serve), started once `ready` appears on stdout or stderr. */
async function startPgw(args: string[], env: Record<string, string>, ready: RegExp): Promise<Running> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...clean, NO_COLOR: '1', ...env } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await Promise.race([
    waitFor(`${args.join(' ')} to start`, () => ready.test(out + err), 20_000),
    exited.then((code) => {
      throw new Error(`pgw ${args.join(' ')} exited (${code}) before it was ready: ${err}`);
    }),
  ]);
  return { child, out: () => out, err: () => err, exited };
}

type Env = Record<string, string>;

async function pgw(args: string[], env: Env): Promise<any> {
  const r = await spawnPgw([...args, '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The whole story against one sandbox, reached with `env`. */
async function listenTriggerStop(env: Env): Promise<void> {
  const app = await recorder();
  const listener = await startPgw(['listen', '--forward-to', `${app.url}/webhooks`], env, /Press Ctrl-C/);
  expect(listener.err()).toMatch(/registration +WH[0-9]{10}/);
  const hookId = /registration +(WH[0-9]{10})/.exec(listener.err())![1]!;
  expect((await pgw(['sandbox', 'webhook', 'list'], env)).map((h: { id: string }) => h.id)).toContain(hookId);

  const made = await pgw(['trigger', 'PAYMENT_SETTLED'], env);
  expect(made).toMatchObject({ event: 'PAYMENT_SETTLED', settlement_id: expect.stringMatching(/^ST[0-9]{10}$/), payment_id: expect.stringMatching(/^PR/) });

  // The issue asks for delivery within 2 s; the test waits for it rather than timing it.
  const settledHits = () => app.hits.filter((h) => JSON.parse(h.body).event_type === 'PAYMENT_SETTLED');
  const hit = await waitFor('the app to receive PAYMENT_SETTLED', () => settledHits()[0]);
  const event = JSON.parse(hit.body);
  const settlement = await pgw(['settle', 'get', made.settlement_id], env);
  // vendor 1.6: the settlement inside data.settlements[].
  expect(event.data.settlements).toEqual([
    {
      settlement_id: settlement.settlement_id,
      settlement_utr: settlement.utr_number,
      settlement_done_at: expect.any(String),
      forex_rate: 96,
      settlement_amount: settlement.settlement_amount,
    },
  ]);
  expect(hit.method).toBe('POST');
  expect(hit.url).toBe('/webhooks');
  expect(hit.headers['content-type']).toBe('application/json');
  expect(hit.headers['x-webhook-event']).toBe('PAYMENT_SETTLED');
  // Forwarded with the sandbox's signature, which verifies with the key --print-key prints.
  const keyRun = await spawnPgw(['listen', '--print-key'], { env });
  expect(keyRun.code, keyRun.stderr).toBe(0);
  const key = keyRun.stdout.trim();
  expect(key).toMatch(/^sbx_ek_[0-9a-f]{48}$/);
  expect(hit.headers['x-webhook-signature']).toBe(createHmac('sha256', key).update(hit.body).digest('hex'));

  // The delivery log and the clock answer alike on the embedded default and on sandbox serve.
  const logged = await waitFor('the delivery to be logged', async () => {
    const list = await pgw(['events', 'list', '--type', 'PAYMENT_SETTLED', '--about', made.settlement_id], env);
    return list[0]?.status === 'delivered' ? list : undefined;
  });
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ event_type: 'PAYMENT_SETTLED', attempts: 1, last_status: 200, next_attempt_at: null, targets: [expect.stringMatching(/^http:\/\/127\.0\.0\.1:[0-9]+\/pgw-listen\//)] });
  expect((await pgw(['sandbox', 'clock', 'advance', '1h'], env)).offset_seconds).toBeGreaterThanOrEqual(3600);
  expect(settledHits()).toHaveLength(1); // delivered once: nothing is retried
  expect((await pgw(['sandbox', 'clock', 'reset'], env)).offset_seconds).toBe(0);

  // Piped, the listener prints each event exactly as received, one JSON object per line.
  await waitFor('the listener to print the event', () => listener.out().includes(made.settlement_id));
  const lines = listener.out().trim().split('\n');
  expect(lines).toContain(hit.body);
  expect(lines.map((l) => JSON.parse(l).event_type)).toEqual(expect.arrayContaining(['PAYMENT_SUCCESSFUL', 'PAYMENT_SETTLED']));
  // The forward's result goes to stderr when stdout carries the events.
  expect(listener.err()).toMatch(/PAYMENT_SETTLED → 200 \([0-9]+ ms\)/);

  listener.child.kill('SIGINT');
  expect(await listener.exited).toBe(130);
  expect(listener.err()).toContain(`registration ${hookId} removed`);
  expect(await pgw(['sandbox', 'webhook', 'list'], env)).toEqual([]);
  // Exactly one PAYMENT_SETTLED reached the app.
  expect(settledHits()).toHaveLength(1);
}

describe('pgw listen + pgw trigger, separate processes', () => {
  it('against the embedded default (profile local)', async () => {
    await listenTriggerStop({ PGW_CONFIG_DIR: dir });
  });

  it('against pgw sandbox serve --port 0', async () => {
    const serve = await startPgw(['sandbox', 'serve', '--port', '0', '--json', '--db', join(dir, 'served.db')], { PGW_CONFIG_DIR: dir }, /\n/);
    const info = JSON.parse(serve.out().split('\n')[0]!) as { base_url: string; accounts: { client_id: string; client_secret: string; psp: boolean }[] };
    const merchant = info.accounts.find((a) => !a.psp)!;
    await listenTriggerStop({
      PGW_CONFIG_DIR: join(dir, 'client'),
      PGW_BASE_URL: info.base_url,
      PGW_CLIENT_ID: merchant.client_id,
      PGW_CLIENT_SECRET: merchant.client_secret,
    });
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  });

  it('piped to a reader that goes away (`pgw listen | head -1`), the listener stops by itself and deregisters', async () => {
    const env = { PGW_CONFIG_DIR: dir };
    const listener = await startPgw(['listen'], env, /Press Ctrl-C/);
    await pgw(['trigger', 'PAYMENT_SUCCESSFUL'], env);
    await waitFor('the first event line', () => listener.out().includes('\n'));
    listener.child.stdout.destroy(); // as head does after its line
    // The next event written finds no reader: the listener stops as on SIGTERM.
    await pgw(['trigger', 'PAYMENT_FAILED'], env);
    const code = await Promise.race([listener.exited, waitFor('the listener to stop', () => false, 10_000).catch(() => 'still running')]);
    expect(code).toBe(0);
    expect(listener.err()).toMatch(/listener stopped \(nothing reads its output any more\); registration WH[0-9]{10} removed/);
    expect(await pgw(['sandbox', 'webhook', 'list'], env)).toEqual([]);
  });

  it('a listener killed before it could deregister is dropped by the next event, which still completes', async () => {
    const env = { PGW_CONFIG_DIR: dir };
    const listener = await startPgw(['listen'], env, /Press Ctrl-C/);
    listener.child.kill('SIGKILL');
    await listener.exited;
    expect(await pgw(['sandbox', 'webhook', 'list'], env)).toHaveLength(1);
    const made = await pgw(['trigger', 'PAYMENT_SUCCESSFUL'], env);
    expect(made.payment_id).toMatch(/^PR/);
    expect(await pgw(['sandbox', 'webhook', 'list'], env)).toEqual([]);
  });
});

describe('when the sandbox is gone before the listener stops', () => {
  it('the listener warns and still stops; the sandbox, started again, drops the registration at its next event', async () => {
    const db = join(dir, 'served.db');
    const serveArgs = ['sandbox', 'serve', '--port', '0', '--json', '--db', db];
    const first = await startPgw(serveArgs, { PGW_CONFIG_DIR: dir }, /\n/);
    const info = JSON.parse(first.out().split('\n')[0]!) as { base_url: string; accounts: { client_id: string; client_secret: string; psp: boolean }[] };
    const merchant = info.accounts.find((a) => !a.psp)!;
    const creds = { PGW_CONFIG_DIR: join(dir, 'client'), PGW_CLIENT_ID: merchant.client_id, PGW_CLIENT_SECRET: merchant.client_secret };
    const listener = await startPgw(['listen'], { ...creds, PGW_BASE_URL: info.base_url }, /Press Ctrl-C/);
    first.child.kill('SIGTERM');
    await first.exited;
    listener.child.kill('SIGINT');
    expect(await listener.exited).toBe(130);
    expect(listener.err()).toMatch(/warning: could not remove registration WH[0-9]{10} .*the sandbox drops it at its next event/);
    expect(listener.err()).not.toContain('removed');

    const second = await startPgw(serveArgs, { PGW_CONFIG_DIR: dir }, /\n/);
    const env = { ...creds, PGW_BASE_URL: JSON.parse(second.out().split('\n')[0]!).base_url as string };
    expect(await pgw(['sandbox', 'webhook', 'list'], env)).toHaveLength(1);
    await pgw(['trigger', 'PAYMENT_SUCCESSFUL'], env);
    // The server delivers after answering: wait for the dead registration to go.
    await waitFor('the registration to be dropped', async () => ((await pgw(['sandbox', 'webhook', 'list'], env)).length === 0 ? true : undefined));
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

describe('on a production profile', () => {
  function productionProfile(baseUrl: string): Env {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ current: 'prod', profiles: { prod: { env: 'production', base_url: baseUrl, client_id: 'cid' } } }), { mode: 0o600 });
    return { PGW_CONFIG_DIR: dir, PGW_CLIENT_SECRET: 'live-secret-value' };
  }

  it('pgw trigger refuses with exit 6 and sends nothing', async () => {
    const gateway = await recorder();
    const env = productionProfile(gateway.url);
    const r = await spawnPgw(['trigger', 'PAYMENT_SETTLED'], { env });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/trigger is sandbox only/);
    expect(r.stdout).toBe('');
    expect(gateway.hits).toEqual([]);
  });

  it('pgw listen needs --port, then only receives: nothing registered, a tunnel is needed', async () => {
    const gateway = await recorder();
    const env = productionProfile(gateway.url);
    const noPort = await spawnPgw(['listen'], { env });
    expect(noPort.code).toBe(2);
    expect(noPort.stderr).toMatch(/--port is required/);

    const listener = await startPgw(['listen', '--port', '0'], env, /Press Ctrl-C/);
    const port = /http:\/\/127\.0\.0\.1:([0-9]+)\//.exec(listener.err())![1];
    expect(listener.err()).toMatch(/nothing registered/);
    expect(listener.err()).toMatch(/tunnel/);
    expect(listener.err()).toMatch(/merchant dashboard/);
    // What the gateway would POST through the tunnel arrives and is printed as received.
    const body = '{"event":"PAYMENT_SETTLED","data":{"settlement_id":"ST0000000001"}}';
    const res = await fetch(`http://127.0.0.1:${port}/any/path`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    await waitFor('the event line', () => listener.out().includes('ST0000000001'));
    expect(listener.out()).toBe(`${body}\n`);
    listener.child.kill('SIGTERM');
    expect(await listener.exited).toBe(0);
    expect(gateway.hits).toEqual([]);
  });
});
