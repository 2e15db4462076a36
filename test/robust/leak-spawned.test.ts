// The leak scan through the real binary (bin/pgw.js → the bundled dist/, built by `npm run build`,
// which `npm test` runs first): the marker secret and card go through a profile added from stdin,
// PGW_CLIENT_SECRET, the embedded sandbox, --verbose, --dry-run, --open (whose 3-D Secure page
// goes to TMPDIR), a results file and gateway echoes. stdout, stderr, the config directory and
// the process's TMPDIR are scanned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CARD, CARD_MASKED, CVV, ENCRYPTION_KEY, LeakGateway, MERCHANT_ID, PSP_ID, SECRET, leaksInText, luhnValidIds, scanDirs, type GatewayMode } from './helpers-leak.js';
import { MERCHANT_TEMPLATE } from '../../src/commands/merchant/template.js';
import { ROOT, spawnPgw, type SpawnResult } from '../helpers/spawn.js';

const dirs = {
  config: mkdtempSync(join(tmpdir(), 'pgw-leakbin-config-')),
  tmp: mkdtempSync(join(tmpdir(), 'pgw-leakbin-tmp-')),
  inputs: mkdtempSync(join(tmpdir(), 'pgw-leakbin-in-')),
  gateway: mkdtempSync(join(tmpdir(), 'pgw-leakbin-gw-')),
};
let gw: LeakGateway;
let runs = 0;

beforeAll(async () => {
  gw = await LeakGateway.start(join(dirs.gateway, 'gateway.db'));
});

afterAll(async () => {
  await gw?.close();
  for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
});

function input(name: string, content: unknown): string {
  const path = join(dirs.inputs, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function pgw(args: string[], o: { code: number; mode?: GatewayMode; status?: number; input?: string; env?: Record<string, string> }): Promise<SpawnResult> {
  gw.mode = o.mode ?? 'forward';
  gw.status = o.status ?? 400;
  // TMPDIR is where pgw's temporary files go; PATH is empty so --open finds no browser to start.
  const r = await spawnPgw(args, { input: o.input ?? '', env: { PGW_CONFIG_DIR: dirs.config, TMPDIR: dirs.tmp, PATH: '/nonexistent', ...o.env } });
  gw.mode = 'forward';
  runs++;
  const context = `pgw ${args.join(' ')}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
  expect([...leaksInText('stdout', r.stdout), ...leaksInText('stderr', r.stderr)], context).toEqual([]);
  expect(r.code, context).toBe(o.code);
  return r;
}

const ORDER = {
  amount: '2500.00',
  currency: 'INR',
  return_url: 'https://merchant.example/return',
  buyer: { name: 'Asha Verma', email: 'asha@example.com', phone: '+919876543210', address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' } },
  product: { name: 'Scarf', type_of_goods: 'digital_goods' },
  invoice: { number: 'INV-1' },
};
const CARD_DETAILS = { number: CARD, cardholder_name: 'Asha Verma', expiry_month: '12', expiry_year: String(new Date().getUTCFullYear() + 3), cvv: CVV, network: 'visa', nickname: 'Personal', identifier: 'cust-1' };
let n = 0;
const order = (over: Record<string, unknown> = {}) => ({ ...ORDER, reference_id: `leakbin-${++n}-${Date.now()}`, ...over });
const cardOrder = () => ['order', 'create', '--file', input(`o${n}.json`, order()), '--mode', 's2s', '--mop', 'credit_card', '--card-file', input('card.json', CARD_DETAILS)];

describe('leak scan through the built binary', () => {
  it('is run against a build', () => {
    expect(existsSync(join(ROOT, 'dist', 'main.js')), 'run `npm run build` first (npm test does)').toBe(true);
  });

  it('profiles, card orders on every path, the embedded sandbox, results files and echoes', async () => {
    // The merchant's profile holds the webhook Encryption Key too (the secret, then the key, on stdin).
    await pgw(['profile', 'add', 'leak', '--base-url', gw.baseUrl, '--client-id', MERCHANT_ID, '--client-secret-stdin', '--encryption-key-stdin'], { input: `${SECRET}\n${ENCRYPTION_KEY}\n`, code: 0 });
    await pgw(['profile', 'add', 'leak-psp', '--base-url', gw.baseUrl, '--client-id', PSP_ID, '--client-secret-stdin', '--encryption-key-stdin'], { input: `${SECRET}\n${ENCRYPTION_KEY}`, code: 0 });
    await pgw(['profile', 'show', 'leak', '--json'], { code: 0 });

    const verbose = await pgw([...cardOrder(), '-p', 'leak', '--verbose', '--json'], { code: 0 });
    expect(verbose.stderr).toContain(CARD_MASKED);
    expect(verbose.stderr).toContain('X-Client-Secret: [redacted]');
    const dry = await pgw([...cardOrder(), '-p', 'leak', '--dry-run'], { code: 0 });
    expect(dry.stdout).toContain(CARD_MASKED);
    const open = await pgw([...cardOrder(), '-p', 'leak', '--open', '-o', 'table'], { code: 0 });
    expect(open.stderr).toMatch(/could not open a browser/); // the page was written to TMPDIR first
    await pgw([...cardOrder(), '-p', 'leak', '--verbose', '--json'], { mode: 'echo-json', status: 400, code: 1 });
    await pgw([...cardOrder(), '-p', 'leak', '--verbose'], { mode: 'echo-text', status: 500, code: 1 });
    await pgw([...cardOrder(), '-p', 'leak', '--json'], { mode: 'echo-ok', code: 0 });
    // A success quoting the secret as a value, the card in groups, escape sequences and a 3-D Secure
    // page (HTML with the card and value="<cvv>"): printed and written without any of them.
    await pgw([...cardOrder(), '-p', 'leak', '-v', '--acs-out', join(dirs.tmp, 'echo-3ds.html')], { mode: 'echo-ok', code: 0 });
    await pgw(['payment', 'get', 'PR0000000001', '-p', 'leak', '-o', 'table', '-v'], { mode: 'echo-ok', code: 0 });
    await pgw(['api', 'GET', '/pg/payments/PR0000000001/', '-p', 'leak'], { mode: 'echo-ok', code: 0 });
    // The gateway's IDs whose digits pass the Luhn check are never masked, in a dry run or in -v.
    for (const id of luhnValidIds().filter((x) => x.startsWith('OD')).slice(0, 6)) {
      const dryRun = await pgw(['order', 'update', id, '--invoice-number', 'X', '-p', 'leak', '--dry-run', '-o', 'table'], { code: 0 });
      expect(dryRun.stdout).toContain(`/pg/orders/${id}/`);
    }

    // The embedded sandbox writes <config dir>/sandbox.db: only last 4 and network of the card.
    await pgw([...cardOrder(), '-p', 'local', '--verbose', '--acs-out', join(dirs.tmp, 'local.html')], { code: 0 });

    const env = { PGW_BASE_URL: gw.baseUrl, PGW_CLIENT_ID: MERCHANT_ID, PGW_CLIENT_SECRET: SECRET, PGW_ENCRYPTION_KEY: ENCRYPTION_KEY };
    await pgw(['payment', 'get', 'PR0000000000', '--verbose', '-o', 'table'], { env, mode: 'echo-text', status: 500, code: 1 });
    await pgw(['api', 'POST', '/pg/orders/', '--data', '-', '-p', 'leak', '--verbose'], { input: JSON.stringify(order({ collection_mode: 's2s', mop_type: 'debit_card', card_details: CARD_DETAILS })), code: 0 });
    const merchant = input('merchant.json', MERCHANT_TEMPLATE);
    await pgw(['merchant', 'create', '--file', merchant, '--results', join(dirs.tmp, 'results.jsonl'), '-p', 'leak-psp', '--verbose'], { code: 0 });
    await pgw(['merchant', 'create', '--file', merchant, '--results', join(dirs.tmp, 'failed.jsonl'), '-p', 'leak-psp', '--json'], { mode: 'echo-json', status: 422, code: 1 });

    const { leaks, files } = scanDirs([dirs.config, dirs.tmp]);
    expect(leaks).toEqual([]);
    expect(files.some((f) => /pgw-3ds-[^/]+\/OD[^/]*\.html$/.test(f)), `the --open page in TMPDIR: ${files.join(', ')}`).toBe(true);
    expect(files.some((f) => f.endsWith('sandbox.db'))).toBe(true);
    console.log(`leak scan (binary): ${runs} runs, ${files.length} files scanned for 4 markers: ${files.map((f) => f.replace(/^.*pgw-leakbin-/, "")).join(", ")}`);
  });
});
