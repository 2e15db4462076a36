// Issue 21 items 9-12, the commands run in-process against a gateway on 127.0.0.1 that counts what
// it receives: each bad input is exit 2 with one refusal naming every problem, and nothing is sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFaultServer, type FaultServer } from '../robust/fault-server.js';
import { type SpawnResult } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
let server: FaultServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-refusals-'));
  server = await startFaultServer({ onRequest: ({ res }) => res.writeHead(500).end() });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.attempts.length = 0;
});

const pgw = (args: string[]): Promise<SpawnResult> =>
  pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir, PGW_BASE_URL: server.base, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_refusals_1' } });

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

/** Exit 2, no stack, nothing on stdout, nothing sent. */
function refused(r: SpawnResult): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/INTERNAL|\n\s+at /);
  expect(server.attempts).toEqual([]);
}

async function orderTemplate(): Promise<Record<string, any>> {
  const r = await pgwInProcess(['order', 'create', '--print-template'], { env: { PGW_CONFIG_DIR: dir } });
  return JSON.parse(r.stdout) as Record<string, any>;
}

describe('item 9: an --expires-in no time can hold', () => {
  it.each([
    [['link', 'create', '--amount', '10', '--product-description', 'Plan', '--expires-in', '100000000d']],
    [['link', 'create', '--amount', '10', '--product-description', 'Plan', '--expires-in', '100000000d', '--dry-run']],
    [['link', 'extend', 'PR1234567890', '--expires-in', '100000000d']],
    [['link', 'extend', 'PR1234567890', '--expires-in', '100000000d', '--dry-run']],
    [['link', 'extend', 'PR1234567890', '--expires-in', `${'9'.repeat(400)}d`]],
  ])('%j is a usage error, exit 2, nothing sent', async (args) => {
    const r = await pgw([...args, '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/^error: --expires-in: "[0-9]+d" is too far ahead/);
  });
});

describe('link create --expires-in: at most 365 days (vendor N9)', () => {
  it.each([
    [['link', 'create', '--amount', '10', '--product-description', 'Plan', '--expires-in', '366d']],
    [['link', 'create', '--amount', '10', '--product-description', 'Plan', '--expires-in', '31536001', '--dry-run']],
  ])('%j is a usage error, exit 2, nothing sent', async (args) => {
    const r = await pgw([...args, '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/^error: --expires-in: must be at most 365 days/);
  });

  it('exactly 365 days is taken (dry run: the expiry 365 days from now)', async () => {
    const before = Date.now();
    const r = await pgw(['link', 'create', '--amount', '10', '--product-description', 'Plan', '--expires-in', '365d', '--dry-run', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const expiry = Date.parse(/"expiry_date":\s*"([^"]+)"/.exec(r.stdout)![1]!);
    expect(expiry - before).toBeGreaterThanOrEqual(365 * 86_400_000);
    expect(server.attempts).toEqual([]);
  });
});

describe('item 10: impossible dates are refused, not moved to March', () => {
  it.each([
    [['link', 'create', '--amount', '10', '--product-description', 'Plan', '--expires-at', '2027-02-30T00:00:00Z']],
    [['link', 'extend', 'PR1234567890', '--expires-at', '2027-02-30T00:00:00Z']],
    [['link', 'extend', 'PR1234567890', '--expires-at', '2027-04-31T10:00:00Z', '--dry-run']],
    [['link', 'extend', 'PR1234567890', '--expires-at', '2027-01-01T24:00:00Z']],
  ])('%j: exit 2, nothing sent', async (args) => {
    const r = await pgw([...args, '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/--expires-at: "[^"]+" is not an ISO 8601 time that exists/);
  });

  it('an expiry_date in link create --file', async () => {
    const r = await pgw(['link', 'create', '--file', file('link.json', { amount: '10.00', reference_id: 'r1', product: { description: 'Plan' }, expiry_date: '2027-02-30T00:00:00.000Z' }), '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/expiry_date: must be an ISO 8601 time that exists/);
  });
});

describe('item 11: unknown keys in order create --file', () => {
  it('a misspelt key is named with the nearest known one', async () => {
    const body = await orderTemplate();
    body.amont = body.amount;
    body.buyer.emial = body.buyer.email;
    const r = await pgw(['order', 'create', '--file', file('typo.json', body), '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/amont: unknown key, not part of create order \(nearest known: amount\)/);
    expect(r.stderr).toMatch(/buyer\.emial: unknown key, not part of create order \(nearest known: buyer\.email\)/);
  });

  it('a whole merchant body is refused, pointing to merchant create', async () => {
    const merchant = await pgwInProcess(['merchant', 'create', '--print-template'], { env: { PGW_CONFIG_DIR: dir } });
    const r = await pgw(['order', 'create', '--file', file('merchant.json', JSON.parse(merchant.stdout)), '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/company_details: unknown key, not part of create order: a sub-merchant body goes to pgw merchant create --file/);
  });
});

describe('item 11, link create --file too', () => {
  it('a misspelt key is named with the nearest known one; the template itself passes', async () => {
    const r = await pgw(['link', 'create', '--file', file('link-typo.json', { amount: '10.00', reference_id: 'r2', product: { descriptoin: 'Plan' } }), '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/product\.descriptoin: unknown key, not part of create payment link \(nearest known: product\.description\)/);
    const template = await pgwInProcess(['link', 'create', '--print-template'], { env: { PGW_CONFIG_DIR: dir } });
    const ok = await pgw(['link', 'create', '--file', file('link-template.json', JSON.parse(template.stdout)), '--dry-run', '-o', 'table']);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe('item 12: every problem in one refusal', () => {
  it('a wrong amount and a physical good without hs_code are both named', async () => {
    const body = await orderTemplate();
    body.amount = '12.345';
    body.product.type_of_goods = 'physical_goods';
    delete body.product.hs_code;
    const r = await pgw(['order', 'create', '--file', file('two.json', body), '-o', 'table']);
    refused(r);
    expect(r.stderr).toMatch(/^error: invalid order: 2 problems\n/);
    expect(r.stderr).toMatch(/\n {2}amount: must be a decimal string with at most 2 decimals/);
    expect(r.stderr).toMatch(/\n {2}product\.hs_code: required when type_of_goods is physical_goods/);
  });
});
