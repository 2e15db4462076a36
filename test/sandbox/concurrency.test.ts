// Several processes on one database (docs/sandbox.md): nothing lost, no identifier handed out
// twice, a payment settled once. Each worker is a real `node` process running the embedded
// sandbox, bundled from TypeScript with esbuild since no TypeScript loader is installed.
import { MIGRATIONS } from '../../src/sandbox/migrations.js';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness } from './harness.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
let workerFile: string;
let dir: string;

beforeAll(async () => {
  const out = join(ROOT, '.vitest-tmp');
  mkdirSync(out, { recursive: true });
  workerFile = join(out, `sandbox-worker-${process.pid}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'test/sandbox/fixtures/worker.ts')],
    outfile: workerFile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  dir = mkdtempSync(join(tmpdir(), 'pgw-concurrency-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(workerFile, { force: true });
});

interface WorkerResult {
  client_id: string;
  orders: string[];
  payments: string[];
  settled: string[];
  errors: string[];
}

it('four processes and this one writing at once lose nothing and share no identifier', async () => {
  const dbPath = join(dir, 'fresh', 'sandbox.db');
  // This process creates the database and the shared payments, and keeps writing meanwhile.
  const h = await startHarness({ dbPath });
  const seeded = await h.call('POST', '/sandbox/seed/', { body: { payments: 12 } });
  const shared: string[] = seeded.body.data.payments;
  const PER_WORKER = 20;

  const workers = Array.from({ length: 4 }, () =>
    run(process.execPath, [workerFile, dbPath, String(PER_WORKER), JSON.stringify(shared)], { timeout: 60_000 }),
  );
  const local = (async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(...(await h.call('POST', '/sandbox/seed/', { body: { payments: 3 } })).body.data.payments);
    return ids;
  })();
  const results: WorkerResult[] = (await Promise.all(workers)).map((r) => JSON.parse(r.stdout.trim().split('\n').at(-1)!));
  const localIds = await local;
  await h.close();

  expect(results.flatMap((r) => r.errors)).toEqual([]);
  // The seeded accounts are the same for everyone.
  expect(new Set(results.map((r) => r.client_id))).toEqual(new Set([h.merchant.client_id]));
  const orders = results.flatMap((r) => r.orders);
  const payments = [...shared, ...localIds, ...results.flatMap((r) => r.payments)];
  expect(orders).toHaveLength(4 * PER_WORKER);
  expect(new Set(orders).size).toBe(orders.length);
  expect(new Set(payments).size).toBe(payments.length);
  // Each shared payment was settled by exactly one process.
  const settled = results.flatMap((r) => r.settled).sort();
  expect(settled).toEqual([...shared].sort());

  const db = new Database(dbPath, { readonly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM payments')).toBe(payments.length);
    expect(count('SELECT count(*) AS n FROM orders')).toBe(payments.length);
    expect(count('SELECT count(*) AS n FROM settlements')).toBe(shared.length);
    expect(count("SELECT count(*) AS n FROM merchants WHERE seed_role IS NOT NULL")).toBe(4);
    expect(count('SELECT count(DISTINCT settlement_id) AS n FROM payments WHERE settlement_id IS NOT NULL')).toBe(shared.length);
  } finally {
    db.close();
  }
});

it('processes racing to create a new database seed the accounts once', async () => {
  const dbPath = join(dir, 'race', 'nested', 'sandbox.db');
  const workers = Array.from({ length: 4 }, () => run(process.execPath, [workerFile, dbPath, '2', '[]'], { timeout: 60_000 }));
  const results: WorkerResult[] = (await Promise.all(workers)).map((r) => JSON.parse(r.stdout.trim()));
  expect(results.flatMap((r) => r.errors)).toEqual([]);
  expect(new Set(results.map((r) => r.client_id)).size).toBe(1);
  const db = new Database(dbPath, { readonly: true });
  try {
    expect((db.prepare('SELECT count(*) AS n FROM merchants').get() as { n: number }).n).toBe(4);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  } finally {
    db.close();
  }
});
