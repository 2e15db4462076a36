// Issue 22 item 6 and issue 20 item 6 (the CLI part): merchant update (run in-process) shows the
// new value of each field it changed, and on a production profile the confirmation, in a real
// terminal (tmux, the binary), shows current → new read from the gateway before asking.
// "Production" here is a profile with env production pointed at a `pgw sandbox serve` on a free port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';
import { merchantBody } from '../commands/merchant/helpers.js';

interface Account { client_id: string; client_secret: string; psp: boolean }
let dir: string;
let served: ChildProcess;
let base: string;
let psp: Account;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-merchant-update-'));
  env.PGW_CONFIG_DIR = dir;
  served = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--quiet', '--db', join(dir, 'served.db')], { cwd: ROOT, env: { ...process.env, PGW_CONFIG_DIR: join(dir, 'serve') } });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    served.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    served.on('exit', () => reject(new Error('serve exited early')));
  });
  const info = JSON.parse(line) as { base_url: string; accounts: Account[] };
  base = info.base_url;
  psp = info.accounts.find((a) => a.psp)!;
  // Two profiles on the same sandbox: one an ordinary sandbox profile, one marked production.
  const profile = (env: string) => ({ env, base_url: base, client_id: psp.client_id, client_secret: psp.client_secret });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ current: 'sbx', profiles: { sbx: profile('sandbox'), prod: profile('production') } }), { mode: 0o600 });
}, 30_000);

afterAll(async () => {
  const exited = new Promise((resolve) => served.on('exit', resolve));
  served.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
});

const env = {} as Record<string, string>; // filled once the directory exists

async function newMerchant(brand: string): Promise<string> {
  const file = join(dir, `${brand}.json`);
  writeFileSync(file, JSON.stringify(merchantBody(brand, { company: { website: 'https://old.example' } })));
  const r = await pgwInProcess(['merchant', 'create', '--file', file, '--json', '--query', 'id'], { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('merchant update shows what it changed', () => {
  it('the new value of each field changed; the bank account by its last 4', async () => {
    const id = await newMerchant('Shown');
    const r = await pgwInProcess(['merchant', 'update', id, '--set', 'company_details.website=https://new.example', '--set', 'settlement_details.bank_account_number=998877665544', '-o', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/company_details\.website\s+https:\/\/new\.example/);
    expect(r.stdout).toMatch(/settlement_details\.bank_account_number\s+\*+5544/);
    expect(r.stdout).not.toContain('998877665544');
    // JSON stays the gateway's data.
    const json = await pgwInProcess(['merchant', 'update', id, '--set', 'company_details.tax_id=T-9', '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(Object.keys(JSON.parse(json.stdout)).sort()).toEqual(['merchant_id', 'updated_fields']);
  }, 60_000);
});

describe.runIf(hasTmux)('on a production profile, in a terminal', () => {
  it('shows current → new (read first) and asks; yes sends it', async () => {
    const id = await newMerchant('Prod');
    const t = startPgw(['-p', 'prod', 'merchant', 'update', id, '--set', 'company_details.website=https://prod.example', '--set', 'company_details.tax_id=TAX-NEW'], { env, columns: 100 });
    try {
      const screen = await t.waitFor('on PRODUCTION');
      expect(screen).toContain(`sub-merchant ${id}: what will change`);
      expect(screen).toMatch(/company_details\.website\s+https:\/\/old\.example → https:\/\/prod\.example/);
      expect(screen).toMatch(/company_details\.tax_id\s+\S+ → TAX-NEW/);
      t.type('y');
      t.key('Enter');
      expect(await t.exited()).toBe(0);
      expect(t.screen({ joined: true })).toMatch(/company_details\.website\s+https:\/\/prod\.example/);
    } finally {
      t.close();
    }
    const after = await pgwInProcess(['merchant', 'get', id, '--json', '--query', 'company_details.website'], { env });
    expect(after.stdout.trim()).toBe('https://prod.example');
  }, 60_000);

  it('no: nothing is sent (exit 6), the value stays', async () => {
    const id = await newMerchant('Kept');
    const t = startPgw(['-p', 'prod', 'merchant', 'update', id, '--set', 'company_details.website=https://never.example'], { env, columns: 100 });
    try {
      await t.waitFor('on PRODUCTION');
      t.type('n');
      t.key('Enter');
      expect(await t.exited()).toBe(6);
    } finally {
      t.close();
    }
    const after = await pgwInProcess(['merchant', 'get', id, '--json', '--query', 'company_details.website'], { env });
    expect(after.stdout.trim()).toBe('https://old.example');
  }, 60_000);
});
