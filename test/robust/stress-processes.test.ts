// 8 processes × 50 order creates on the embedded default profile (issue 8, part 4): each process
// runs `pgw order create --file ... --json` 50 times through the built bundle's run(), all on one
// config directory, so 8 embedded sandboxes write to one SQLite file at once. 400 orders must come
// back with distinct IDs, and the database must hold exactly those 400.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/spawn.js';
import { ORDER_BODY, requireBuild } from './fault-server-cli.js';
import { openRaw } from '../helpers/sqlite.js';

const PROCESSES = 8;
const PER_PROCESS = 50;
const runFile = promisify(execFile);

let dir: string;
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'pgw-stress-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface WorkerResult {
  worker: number;
  orders: { reference: string; order_id: string }[];
  failures: { reference: string; code: number; stderr: string }[];
}

it(`${PROCESSES} processes × ${PER_PROCESS} order creates on the embedded default: ${PROCESSES * PER_PROCESS} orders, distinct IDs, none lost`, async () => {
  const configDir = join(dir, 'config'); // fresh: the processes also race to create the database
  const mainUrl = pathToFileURL(join(ROOT, 'dist', 'main.js')).href;
  const worker = join(ROOT, 'test', 'robust', 'stress-worker.mjs');
  const runs = Array.from({ length: PROCESSES }, (_, w) =>
    runFile(process.execPath, [worker, mainUrl, configDir, dir, String(w), String(PER_PROCESS), JSON.stringify(ORDER_BODY)], {
      cwd: ROOT,
      timeout: 100_000,
      maxBuffer: 16 * 1024 * 1024,
    }),
  );
  const results: WorkerResult[] = (await Promise.all(runs)).map((r) => JSON.parse(r.stdout.trim().split('\n').at(-1)!));

  expect(results.flatMap((r) => r.failures)).toEqual([]);
  const made = results.flatMap((r) => r.orders);
  expect(made).toHaveLength(PROCESSES * PER_PROCESS);
  const ids = made.map((o) => o.order_id);
  expect(ids.every((id) => /^OD[0-9]{14}$/.test(id))).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);

  // Counted in the database itself, read-only: every order is there, under its own reference.
  let counted = 0;
  const db = openRaw(join(configDir, 'sandbox.db'));
  try {
    const rows = db.prepare('SELECT order_id, reference_id FROM orders ORDER BY order_id').all() as { order_id: string; reference_id: string }[];
    counted = rows.length;
    expect(rows).toHaveLength(PROCESSES * PER_PROCESS);
    const expected = made.map((o) => ({ order_id: o.order_id, reference_id: o.reference })).sort((a, b) => a.order_id.localeCompare(b.order_id));
    expect(rows).toEqual(expected);
    expect((db.prepare("SELECT count(*) AS n FROM ids WHERE id LIKE 'OD%'").get() as { n: number }).n).toBe(PROCESSES * PER_PROCESS);
  } finally {
    db.close();
  }
  console.info(`multi-process stress: ${PROCESSES} processes, ${made.length} orders created, ${counted} counted in the database`);
}, 110_000);
