// Issue 44 item 7: the duplicate check of `merchant create --file` keeps the existing sub-merchants'
// numbers in a local index and reads again only what changed. Measured as the issue asks: against
// the sandbox's server (what `pgw sandbox serve` runs) holding 2,000 sub-merchants, the requests
// it answered are counted; the second run of a 3-row file makes at most 50.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempConfigDir, type RunResult } from '../../helpers/run.js';
import { openRaw } from '../../helpers/sqlite.js';
import { startHarness, type Harness } from '../../sandbox/harness.js';
import { jsonl, merchantBody, numbersOf } from './helpers.js';

const EXISTING = 2000;
let h: Harness;
let tmp: ReturnType<typeof tempConfigDir>;
const requests: string[] = [];

beforeAll(async () => {
  h = await startHarness({ requestLog: (req) => void requests.push(`${req.method} ${req.url}`) });
  tmp = tempConfigDir();
  // 2,000 sub-merchants of the PSP, written straight into the database (one transaction), each
  // last changed a second after the one before, all before the sandbox's clock now.
  const db = openRaw(h.dbPath);
  db.exec('BEGIN IMMEDIATE');
  const insert = db.prepare(
    `INSERT INTO merchants (merchant_id, brand_name, kyc_status, is_psp, parent_id, settlement_details, company_details, settlement_currency, created_at, updated_at)
     VALUES (?, ?, 'PENDING', 0, ?, ?, ?, 'INR', ?, ?)`,
  );
  for (let i = 0; i < EXISTING; i++) {
    const body = merchantBody(`Existing ${i}`);
    const at = new Date(Date.UTC(2020, 0, 1) + i * 1000).toISOString().replace('Z', '000Z');
    insert.run(String(50_000_000 + i), `Existing ${i}`, h.psp.merchant_id, JSON.stringify(body.settlement_details), JSON.stringify(body.company_details), at, at);
  }
  db.exec('COMMIT');
  db.close();
}, 60_000);
afterAll(async () => {
  await h.close();
  tmp.cleanup();
});

async function pgw(argv: string[]): Promise<RunResult & { requests: string[] }> {
  const before = requests.length;
  const r = await runCli(argv, {
    env: { PGW_CONFIG_DIR: tmp.dir, PGW_BASE_URL: h.sandbox.baseUrl, PGW_CLIENT_ID: h.psp.client_id, PGW_CLIENT_SECRET: h.psp.client_secret },
  });
  return { ...r, requests: requests.slice(before) };
}

function file(name: string, bodies: unknown[]): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, jsonl(bodies));
  return path;
}

describe('the duplicate check of a file run, against 2,000 sub-merchants', () => {
  const rows = () => file('three.jsonl', [merchantBody('Index New 1'), merchantBody('Index New 2'), merchantBody('Index New 3')]);

  it('the first run reads every one once, and says so; the index is 0600 in a 0700 folder', async () => {
    const r = await pgw(['merchant', 'create', '--file', rows(), '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    // The PSP's own two demo sub-merchants are there too.
    const all = EXISTING + 2;
    expect(r.stderr).toMatch(new RegExp(`duplicate check: ${all} existing sub-merchants; details read: all ${all} \\(no index of this account yet\\); ${r.requests.length - 3} requests; index `));
    expect(r.requests.filter((q) => /^GET \/partners\/merchants\/\d+\/$/.test(q))).toHaveLength(all);
    const folder = join(tmp.dir, 'merchant-index');
    const [name] = readdirSync(folder);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, name!)).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('the second run of the same file makes at most 50 requests, and refuses the three rows the first created', async () => {
    const r = await pgw(['merchant', 'create', '--file', rows(), '-o', 'table']);
    expect(r.code).toBe(2);
    for (let n = 1; n <= 3; n++) expect(r.stderr).toMatch(new RegExp(`line ${n}: duplicate: same registration_number and tax_id as sub-merchant \\d+ \\(Index New ${n}\\)`));
    console.log(`second run: ${r.requests.length} requests (${r.requests.filter((q) => /\/\d+\/$/.test(q)).length} details) for ${EXISTING + 5} sub-merchants`);
    expect(r.requests.length).toBeLessThanOrEqual(50);
    expect(r.requests.filter((q) => q.startsWith('POST'))).toEqual([]);
    expect(r.stderr).toMatch(new RegExp(`duplicate check: ${EXISTING + 5} existing sub-merchants; details read: \\d+, the rest unchanged since the last check; ${r.requests.length} requests; index `));
  }, 60_000);

  it('a change since the last run is read: the new number is a duplicate, the old one no longer is', async () => {
    // The oldest sub-merchant, last in the order of change, gets a new registration number.
    const changed = await h.call('PATCH', '/partners/merchants/50000000/', { as: 'psp', body: { company_details: { registration_number: 'REG-CHANGED-0' } } });
    expect(changed.status).toBe(200);
    const check = file('changed.jsonl', [
      merchantBody('Takes New', { company: { registration_number: 'REG-CHANGED-0', tax_id: 'TAX-TAKES-NEW' } }),
      merchantBody('Takes Old', { company: { registration_number: numbersOf('Existing 0').registration_number, tax_id: 'TAX-TAKES-OLD' } }),
    ]);
    const r = await pgw(['merchant', 'create', '--file', check, '--dry-run', '-o', 'table']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('line 1: duplicate: same registration_number as sub-merchant 50000000 (Existing 0)');
    expect(r.stderr).not.toContain('line 2: duplicate');
    expect(r.requests.length).toBeLessThanOrEqual(50);
  }, 60_000);

  it('after a reset (sub-merchants of the index gone), every one is read again, and the line says why', async () => {
    const reset = await h.call('POST', '/sandbox/reset/', { as: 'psp', body: {} });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const r = await pgw(['merchant', 'create', '--file', file('after-reset.jsonl', [merchantBody('After Reset')]), '--dry-run', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/duplicate check: (\d+) existing sub-merchants; details read: all \1 \(sub-merchants of the index are gone \(a reset or a restore\)\)/);
  }, 60_000);
});
