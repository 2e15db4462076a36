// Retries that are never lost (issue 19, vendor 1.1), and the host rule of a server bound beyond
// loopback (issue 21 item 8), through the real binary: `pgw sandbox serve` killed with SIGKILL
// while a retry is pending makes it after a restart; a delivery that fell due while no process
// held the database is made by the next pgw run that opens it, whatever that run is for.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { BIN, ROOT, spawnPgw } from '../helpers/spawn.js';
import { Db } from '../../src/sandbox/db.js';

let dir: string;
let children: ChildProcessWithoutNullStreams[] = [];
let servers: Server[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-durable-'));
});
afterEach(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children = [];
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  servers = [];
  rmSync(dir, { recursive: true, force: true });
});

/** A receiver answering `status.now`; records each body. */
async function receiver(status: { now: number }): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push(body);
      res.writeHead(status.now).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits };
}

async function waitFor<T>(what: string, pick: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await pick();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Serve {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  merchant: { client_id: string; client_secret: string; merchant_id: string; encryption_key: string };
  err: () => string;
}

async function serve(db: string, ...extra: string[]): Promise<Serve> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', db, '--json', '--quiet', ...extra], { cwd: ROOT, env: { ...clean, PGW_CONFIG_DIR: dir } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const line = await waitFor('sandbox serve to start', () => out.includes('\n') && out.split('\n')[0]);
  const started = JSON.parse(line) as { base_url: string; accounts: (Serve['merchant'] & { psp: boolean })[] };
  return { child, baseUrl: started.base_url, merchant: started.accounts.find((a) => !a.psp)!, err: () => err };
}

async function call(s: Serve, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await request(`${s.baseUrl}${path}`, {
    method,
    headers: { 'x-client-id': s.merchant.client_id, 'x-client-secret': s.merchant.client_secret, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: await res.body.json() };
}

const ORDER = {
  amount: '100.00',
  currency: 'INR',
  return_url: 'https://merchant.example/return',
  buyer: { name: 'A B', email: 'a@example.com', phone: '+919876543210', address: { line_1: '1 Road', city: 'Pune', state: 'MH', postal_code: '411001' } },
  product: { name: 'Scarf', type_of_goods: 'digital_goods' },
  invoice: { number: 'INV-1' },
  collection_mode: 'hosted_payment',
};

async function pay(s: Serve): Promise<string> {
  const order = await call(s, 'POST', '/pg/orders/', { ...ORDER, reference_id: `r-${Math.random().toString(36).slice(2, 10)}` });
  const paid = await call(s, 'POST', `/sandbox/orders/${order.body.data.order_id}/pay/`, { outcome: 'success' });
  return paid.body.data.payment_id as string;
}

describe('retries survive the process', () => {
  it('sandbox serve killed with SIGKILL while a retry is pending makes it after restart', async () => {
    const db = join(dir, 'team.db');
    const status = { now: 500 };
    const app = await receiver(status);
    const first = await serve(db);
    expect((await call(first, 'POST', '/sandbox/webhooks/', { url: app.url })).status).toBe(200);
    const paymentId = await pay(first);
    // The app answers before the sandbox records the attempt: wait for the record, not the hit.
    const event = await waitFor('the first attempt', async () => {
      const [e] = (await call(first, 'GET', `/sandbox/events/?about=${paymentId}`)).body.data;
      return app.hits.length === 1 && e?.attempts === 1 ? e : undefined;
    });
    expect(event).toMatchObject({ attempts: 1, last_status: 500, status: 'pending' });
    expect(event.next_attempt_at).not.toBeNull();

    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    status.now = 200;

    const second = await serve(db);
    // The retry is due 60 s (sandbox time) after the first try. Real time runs under the clock,
    // so the test stops well short of it (10 s), then goes past it: made before the answer.
    const due = Date.parse(event.next_attempt_at);
    const now = Date.parse((await call(second, 'GET', '/sandbox/clock/')).body.data.now);
    expect(due - now).toBeGreaterThan(30_000);
    await call(second, 'POST', '/sandbox/clock/', { advance_seconds: Math.floor((due - now) / 1000) - 10 });
    expect(app.hits).toHaveLength(1);
    await call(second, 'POST', '/sandbox/clock/', { advance_seconds: 20 });
    expect(app.hits).toHaveLength(2);
    expect(app.hits[1]).toBe(app.hits[0]); // the stored bytes, the same sequence_number
    const after = (await call(second, 'GET', `/sandbox/events/${event.id}/`)).body.data;
    expect(after).toMatchObject({ attempts: 2, status: 'delivered', last_status: 200, next_attempt_at: null });
    expect(after.deliveries[0].attempts.map((a: { status: number }) => a.status)).toEqual([500, 200]);
    second.child.kill('SIGTERM');
  });

  it('a delivery that fell due while nothing ran is made by the next pgw run that opens the database', async () => {
    const status = { now: 503 };
    const app = await receiver(status);
    const env = { PGW_CONFIG_DIR: dir };
    expect((await spawnPgw(['sandbox', 'webhook', 'add', app.url, '--json'], { env })).code).toBe(0);
    const made = await spawnPgw(['trigger', 'PAYMENT_SUCCESSFUL', '--json'], { env });
    expect(made.code, made.stderr).toBe(0);
    await waitFor('the first attempt', () => app.hits.length === 1);
    status.now = 200;

    // Ten minutes pass with no pgw running: the database's clock moves on by itself only while
    // time passes, so the test moves it as that time would.
    const raw = new Db(join(dir, 'sandbox.db'));
    raw.run('UPDATE sandbox_clock SET offset_micros = offset_micros + ?', 10 * 60 * 1_000_000);
    raw.close();

    // Any command on the embedded profile opens the database: the retry due at +1 min goes out.
    const get = await spawnPgw(['payment', 'get', JSON.parse(made.stdout).payment_id, '--json'], { env });
    expect(get.code, get.stderr).toBe(0);
    await waitFor('the retry', () => app.hits.length === 2);
    const events = JSON.parse((await spawnPgw(['events', 'list', '--json'], { env })).stdout);
    expect(events[0]).toMatchObject({ event_type: 'PAYMENT_SUCCESSFUL', attempts: 2, last_status: 200, status: 'delivered', next_attempt_at: null });
  });
});

describe('sandbox serve bound beyond loopback (issue 21 item 8)', () => {
  it('refuses webhook targets outside loopback unless --allow-webhook-host names the host', async () => {
    const db = join(dir, 'shared.db');
    // Registered while the server was loopback-only (or by an embedded run sharing the file).
    const local = await serve(db);
    expect((await call(local, 'POST', '/sandbox/webhooks/', { url: 'http://hooks.invalid/x' })).status).toBe(200);
    local.child.kill('SIGTERM');
    await new Promise((r) => local.child.once('exit', r));

    const wide = await serve(db, '--host', '0.0.0.0');
    const refused = await call(wide, 'POST', '/sandbox/webhooks/', { url: 'http://other.invalid/y' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.url).toMatch(/--allow-webhook-host other\.invalid/);
    expect((await call(wide, 'POST', '/sandbox/webhooks/', { url: 'http://127.0.0.1:9/ok' })).status).toBe(200);
    // The address registered before is not posted to: the attempt is recorded as refused, naming the flag.
    const paymentId = await pay(wide);
    const [event] = (await call(wide, 'GET', `/sandbox/events/?about=${paymentId}`)).body.data;
    let invalid: { attempts: { error: string | null; status: number | null }[] } | undefined;
    for (let i = 0; i < 100 && !invalid?.attempts.length; i++) {
      const got = (await call(wide, 'GET', `/sandbox/events/${event.id}/`)).body.data;
      invalid = got.deliveries.find((d: { url: string }) => d.url === 'http://hooks.invalid/x');
      if (!invalid?.attempts.length) await new Promise((r) => setTimeout(r, 20));
    }
    expect(invalid!.attempts[0]!.error).toMatch(/--allow-webhook-host hooks\.invalid/);
    expect(invalid!.attempts[0]!.status).toBeNull();
    wide.child.kill('SIGTERM');
    await new Promise((r) => wide.child.once('exit', r));

    const allowed = await serve(db, '--host', '0.0.0.0', '--allow-webhook-host', 'other.invalid');
    expect((await call(allowed, 'POST', '/sandbox/webhooks/', { url: 'http://other.invalid/y' })).status).toBe(200);
    expect(allowed.err()).toBe('');
    allowed.child.kill('SIGTERM');
  });

  it('--allow-webhook-host takes a host, not a URL (exit 2)', async () => {
    const r = await spawnPgw(['sandbox', 'serve', '--port', '0', '--db', join(dir, 'x.db'), '--allow-webhook-host', 'https://hooks.example/x'], { env: { PGW_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--allow-webhook-host: .*hooks.example.* is not a host name/);
  });
});
