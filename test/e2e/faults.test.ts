// Faults on demand (issue 24 "Done when"), on the embedded profile and on a `sandbox serve`
// process, the commands run in-process (the faults are the subject, not pgw's process):
// --status 503 --times 2 fails the next two creates and the third succeeds;
// --after-commit leaves the order created and `order create` reporting an unknown outcome (exit 3),
// never retried; GETs are retried on 503 by pgw's own HTTP core, POSTs are not.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';
import { openRaw } from '../helpers/sqlite.js';

let dir: string;
let orderFile: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-faults-'));
  const template = await pgwInProcess(['order', 'create', '--print-template'], { env: { PGW_CONFIG_DIR: dir } });
  orderFile = join(dir, 'order.json');
  writeFileSync(orderFile, template.stdout);
});
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

type Env = Record<string, string>;
const pgw = (args: string[], env: Env) => pgwInProcess(args, { env });

async function json(args: string[], env: Env): Promise<any> {
  const r = await pgw([...args, '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function served(): Promise<{ env: Env; db: string }> {
  const db = join(dir, 'served.db');
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--quiet', '--db', db], { cwd: ROOT, env: { ...process.env, PGW_CONFIG_DIR: join(dir, 'serve-config') } });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.on('exit', (code) => {
    if (code !== null && code !== 0) console.error(`sandbox serve exited ${code}: ${err}`);
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`sandbox serve exited ${code}`)));
  });
  const { base_url, accounts } = JSON.parse(line);
  const merchant = accounts.find((a: { psp: boolean }) => !a.psp);
  return { db, env: { PGW_CONFIG_DIR: join(dir, 'client-config'), PGW_BASE_URL: base_url, PGW_CLIENT_ID: merchant.client_id, PGW_CLIENT_SECRET: merchant.client_secret } };
}

function ordersWithReference(db: string, reference: string): number {
  const conn = openRaw(db);
  try {
    return (conn.prepare('SELECT count(*) AS n FROM orders WHERE reference_id = ?').get(reference) as { n: number }).n;
  } finally {
    conn.close();
  }
}

async function statusTwiceThenSuccess(env: Env, tag: string): Promise<void> {
  await json(['sandbox', 'fault', 'add', '--route', 'POST /pg/orders/', '--status', '503', '--times', '2'], env);
  const codes: (number | null)[] = [];
  const errs: string[] = [];
  for (let i = 1; i <= 3; i++) {
    const r = await pgw(['order', 'create', '--file', orderFile, '--reference-id', `${tag}-${i}`, '-o', 'table'], env);
    codes.push(r.code);
    errs.push(r.stderr);
  }
  expect(codes).toEqual([1, 1, 0]);
  expect(errs[0]).toContain('ERR_SERVICE_UNAVAILABLE');
  const [fault] = await json(['sandbox', 'fault', 'list'], env);
  expect(fault).toMatchObject({ route: 'POST /pg/orders/', status: 503, times_left: 0, fired: 2, seen: 2 });
  await json(['sandbox', 'fault', 'clear'], env);
}

async function afterCommit(env: Env, db: string, reference: string): Promise<void> {
  await json(['sandbox', 'fault', 'add', '--route', 'POST /pg/orders/', '--after-commit'], env);
  const r = await pgw(['order', 'create', '--file', orderFile, '--reference-id', reference, '-o', 'table'], env);
  expect(r.code, r.stderr).toBe(3);
  expect(r.stderr).toContain('the outcome is unknown');
  expect(r.stderr).toContain(`pgw payment list --reference-id ${reference}`);
  // The order exists, and pgw sent the POST once: the fault saw exactly one request.
  expect(ordersWithReference(db, reference)).toBe(1);
  const [fault] = await json(['sandbox', 'fault', 'list'], env);
  expect(fault).toMatchObject({ kind: 'after_commit', seen: 1, fired: 1 });
  await json(['sandbox', 'fault', 'clear'], env);
}

describe('the embedded profile', () => {
  const env = (): Env => ({ PGW_CONFIG_DIR: join(dir, 'embedded') });
  const db = () => join(dir, 'embedded', 'sandbox.db');

  it('--status 503 --times 2: the next two creates fail (exit 1), the third succeeds', async () => {
    await statusTwiceThenSuccess(env(), 'emb');
  }, 60_000);

  it('--after-commit: the order is created, order create says the outcome is unknown (exit 3), never retried', async () => {
    await afterCommit(env(), db(), 'emb-ac');
  }, 60_000);

  it('a fault belongs to its account: the PSP profile is not failed by the merchant\'s', async () => {
    await json(['sandbox', 'fault', 'add', '--route', '* /**', '--status', '500'], env());
    expect((await pgw(['sandbox', 'webhook', 'list', '-o', 'table'], env())).code).toBe(1);
    expect((await pgw(['-p', 'local-psp', 'sandbox', 'webhook', 'list', '-o', 'table'], env())).code).toBe(0);
    await json(['sandbox', 'fault', 'clear'], env());
    expect((await pgw(['sandbox', 'webhook', 'list', '-o', 'table'], env())).code).toBe(0);
  }, 60_000);
});

describe('sandbox serve', () => {
  let server: { env: Env; db: string };
  beforeAll(async () => {
    server = await served();
  });

  it('--status 503 --times 2: the next two creates fail (exit 1), the third succeeds', async () => {
    await statusTwiceThenSuccess(server.env, 'srv');
  }, 60_000);

  it('--after-commit: the order is created, order create says the outcome is unknown (exit 3), never retried', async () => {
    await afterCommit(server.env, server.db, 'srv-ac');
  }, 60_000);

  it('a GET is retried on 503 (up to 3 retries); the fault counts every attempt', async () => {
    const [paymentId] = await json(['sandbox', 'seed', '--payments', '1'], server.env);
    await json(['sandbox', 'fault', 'add', '--route', 'GET /pg/payments/*/', '--status', '503', '--times', '2'], server.env);
    const ok = await pgw(['payment', 'get', paymentId, '--json'], server.env);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await json(['sandbox', 'fault', 'list'], server.env))[0]).toMatchObject({ seen: 2, fired: 2, times_left: 0 });
    await json(['sandbox', 'fault', 'clear'], server.env);

    await json(['sandbox', 'fault', 'add', '--route', 'GET /pg/payments/*/', '--status', '503', '--times', '9'], server.env);
    const failed = await pgw(['payment', 'get', paymentId, '-o', 'table'], server.env);
    expect(failed.code).toBe(1);
    expect((await json(['sandbox', 'fault', 'list'], server.env))[0]).toMatchObject({ seen: 4, fired: 4 });
    await json(['sandbox', 'fault', 'clear'], server.env);
  }, 60_000);

  it('flags are checked before anything is sent (exit 2)', async () => {
    for (const args of [
      ['--route', 'POST /pg/orders/'],
      ['--route', 'POST /pg/orders/', '--status', '503', '--drop'],
      ['--route', '/pg/orders/', '--status', '503'],
      ['--route', 'POST /pg/orders/', '--status', '200'],
      ['--route', 'POST /pg/orders/', '--status', '503', '--seed', '1'],
      ['--route', 'POST /pg/orders/', '--delay', 'soon'],
      ['--route', 'POST /pg/orders/', '--status', '503', '--rate', '1.5'],
    ]) {
      const r = await pgw(['sandbox', 'fault', 'add', ...args, '-o', 'table'], server.env);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(await json(['sandbox', 'fault', 'list'], server.env)).toEqual([]);
  }, 60_000);
});
