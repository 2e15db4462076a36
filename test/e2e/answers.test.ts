// Issue 41 through the built binary, where the process is the subject: exit codes and the
// stdout/stderr split of the answers across resources, and refusals that send nothing. (The
// docs' "Month-end" and "What happened to this payment" blocks run the rest through it too.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnPgw } from '../helpers/spawn.js';
import { parseCsv } from '../helpers/csv.js';

let dir: string;
let payments: string[];
const env = () => ({ PGW_CONFIG_DIR: dir });
const pgw = (args: string[]) => spawnPgw(args, { env: env() });
/** Anything sent would go to a host that never resolves (RFC 6761): exit 3, not 2. */
const NOWHERE = ['--base-url', 'https://gateway.invalid'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-answers-'));
  const seeded = await pgw(['sandbox', 'seed', '--json']);
  expect(seeded.code, seeded.stderr).toBe(0);
  payments = JSON.parse(seeded.stdout).payments;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('refused before anything is sent: exit 2, one line', () => {
  it.each([
    [['sandbox', 'pay', 'null'], 'order_id: "null" is not an ID'],
    [['payment', 'get', 'undefined'], 'payment_id: "undefined" is not an ID'],
    [['payment', 'trace', ''], 'payment_id is empty'],
    [['settle', 'report', '--from', '2026-11-30', '--to', '2026-11-01'], '--to 2026-11-01 is before --from 2026-11-30'],
    [['settle', 'report', '--from', '2026-11-01', '--to', '2026-11-31'], '--to: "2026-11-31" is not a date'],
    [['payment', 'list', '--settlement-status', 'settled,bogus'], '"bogus" is not a settlement state'],
  ])('%j', async (args, message) => {
    const r = await pgw([...args, ...NOWHERE, '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(message)]);
  });
});

describe('the answers, from the binary', () => {
  it('payment get <ids> -o csv: one document, the settlement columns filled for the settled payment', async () => {
    const r = await pgw(['payment', 'get', ...payments, '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = parseCsv(r.stdout);
    expect(rows.map((row) => row[0])).toEqual(payments);
    const settled = rows.filter((row) => row[head!.indexOf('settlement_status')] === 'SETTLED');
    expect(settled).toHaveLength(1);
    expect(settled[0]![head!.indexOf('settlement_id')]).toMatch(/^ST\d{10}$/);
  });

  it('settle report on a pipe: JSON on stdout only, every settlement reconciled', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const r = await pgw(['settle', 'report', '--from', today, '--to', today]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.settlements.length).toBeGreaterThan(0);
    expect(report.settlements.every((s: { reconciles: boolean }) => s.reconciles)).toBe(true);
    expect(report.rows.filter((row: { type: string }) => row.type === 'capture').map((row: { id: string }) => row.id).sort()).toEqual([...payments].sort());
  });

  it('payment trace: the steps on stdout, a missing payment exit 5', async () => {
    const r = await pgw(['payment', 'trace', payments[0]!]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((s: { kind: string }) => s.kind)).toEqual(expect.arrayContaining(['order', 'attempt', 'capture']));
    const missing = await pgw(['payment', 'trace', 'PR0000000001', '-o', 'table']);
    expect(missing.code).toBe(5);
  });
});
