// Shared by the merchant command tests: the sandbox on port 0 driven through the CLI with the PSP's
// credentials, a valid merchant body, and a leak check of the client secret on every run.
import { afterAll, beforeAll, expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from '../../helpers/run.js';
import { startHarness, type Harness } from '../../sandbox/harness.js';

/**
 * Numbers of the brand's own: a file run refuses a registration_number or tax_id another
 * sub-merchant already has (duplicates.ts), and brands are unique across this sandbox's tests.
 */
export function numbersOf(brand: string): { registration_number: string; tax_id: string } {
  const tag = createHash('sha256').update(brand).digest('hex').slice(0, 12).toUpperCase();
  return { registration_number: `REG-${tag}`, tax_id: `TAX-${tag}` };
}

/** A complete, valid create body (spec 2.10); override per test. */
export function merchantBody(brand: string, over: { company?: Record<string, unknown>; settlement?: Record<string, unknown> } = {}): any {
  return {
    settlement_details: {
      bank_account_number: '000123456789',
      bank_account_name: `${brand} Pvt Ltd`,
      bank_swift_code: 'HDFCINBBXXX',
      bank_name: 'HDFC Bank',
      bank_country: 'India',
      bank_pincode: '400001',
      ...over.settlement,
    },
    company_details: {
      legal_name: `${brand} Private Limited`,
      brand_name: brand,
      ...numbersOf(brand),
      international_org_type: 'PRIVATE_LIMITED',
      website: 'https://acme.example',
      monthly_avg_transaction_value: '250000.00',
      monthly_avg_transaction_volume: '1200',
      same_as_registered_address: true,
      registered_address: '5 Export Lane',
      registered_city: 'Mumbai',
      registered_state: 'Maharashtra',
      registered_country: 'India',
      registered_pincode: '400002',
      business_category: 'TECHNOLOGY',
      business_mode: 'B2B',
      hs_codes: ['62141000'],
      purpose_code: 'P0802',
      ...over.company,
    },
  };
}

export interface SandboxCli {
  readonly h: Harness;
  readonly dir: string;
  readonly secret: string;
  /** Run pgw as the sandbox's PSP; every run is checked for the client secret. */
  pgw(argv: string[], opts?: RunOptions): Promise<RunResult>;
  /** Every sub-merchant of the PSP, read straight from the sandbox. */
  subMerchants(): Promise<{ id: string; brand_name: string; kyc_status: string }[]>;
  file(name: string, content: string): string;
}

export function useSandbox(): SandboxCli {
  const state: { h?: Harness; tmp?: { dir: string; cleanup: () => void } } = {};
  beforeAll(async () => {
    state.h = await startHarness();
    state.tmp = tempConfigDir();
  });
  afterAll(async () => {
    await state.h?.close();
    state.tmp?.cleanup();
  });
  const api: SandboxCli = {
    get h() {
      return state.h!;
    },
    get dir() {
      return state.tmp!.dir;
    },
    get secret() {
      return state.h!.psp.client_secret;
    },
    async pgw(argv, opts = {}) {
      const h = state.h!;
      const r = await runCli(argv, {
        ...opts,
        env: {
          PGW_CONFIG_DIR: state.tmp!.dir,
          PGW_BASE_URL: h.sandbox.baseUrl,
          PGW_CLIENT_ID: h.psp.client_id,
          PGW_CLIENT_SECRET: h.psp.client_secret,
          ...opts.env,
        },
      });
      expectNoSecret(r, h.psp.client_secret);
      return r;
    },
    async subMerchants() {
      const r = await state.h!.call('GET', '/partners/merchants/?page_size=1000', { as: 'psp' });
      return r.body.data.results;
    },
    file(name, content) {
      const path = join(state.tmp!.dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
  return api;
}

export function expectNoSecret(r: RunResult, secret: string): void {
  expect(r.stdout).not.toContain(secret);
  expect(r.stderr).not.toContain(secret);
}

export function fileHasNoSecret(path: string, secret: string): void {
  if (existsSync(path)) expect(readFileSync(path, 'utf8')).not.toContain(secret);
}

export function jsonl(bodies: unknown[]): string {
  return `${bodies.map((b) => JSON.stringify(b)).join('\n')}\n`;
}

/** The result records of a results file (its first line, the account it was written for, left out). */
/** The outcome records of a results file (not its account header, nor the attempts before each request). */
export function readJsonl(path: string): any[] {
  return readRecords(path).filter((r) => r.account === undefined && r.attempt === undefined);
}

/** Every record of a results file, in the order written. */
export function readRecords(path: string): any[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

/**
 * A gateway (MockAgent) with no sub-merchants yet: the list a file run reads for duplicates
 * (duplicates.ts) before it sends anything.
 */
export function noSubMerchants(agent: { get(origin: string): any }, origin = 'https://api-pacb.eximpe.com'): void {
  agent
    .get(origin)
    .intercept({ path: (p: string) => p.startsWith('/partners/merchants/?'), method: 'GET' })
    .reply(200, { success: true, message: 'sub-merchants fetched successfully', data: { count: 0, page: 1, page_size: 1000, next: null, previous: null, results: [] } });
}
