// pgw merchant create, one merchant: from a file against the sandbox, every validation rule
// refusing (exit 2, nothing sent, field path named), the template, --dry-run, production.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { merchantBody, noSubMerchants, useSandbox } from './helpers.js';
import { runCli, tempConfigDir } from '../../helpers/run.js';
import { fakePrompter } from '../../helpers/fake-prompter.js';
import { checkCreate } from '../../../src/commands/merchant/validate.js';
import { MERCHANT_TEMPLATE } from '../../../src/commands/merchant/template.js';

const sb = useSandbox();

describe('merchant create --file against the sandbox', () => {
  it('creates one sub-merchant and prints it (table)', async () => {
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('acme.json', JSON.stringify(merchantBody('Acme One'))), '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Sub-merchant [0-9]+\n/);
    expect(r.stdout).toContain('Acme One Private Limited');
    expect(r.stdout).toMatch(/settlement currency\s+INR/);
    expect((await sb.subMerchants()).filter((m) => m.brand_name === 'Acme One')).toHaveLength(1);
  });

  it('JSON is the create response data unchanged; --file - reads stdin', async () => {
    const r = await sb.pgw(['merchant', 'create', '--file', '-', '--json'], { input: JSON.stringify(merchantBody('Acme Two')) });
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      settlement_details: { ...merchantBody('Acme Two').settlement_details, settlement_currency: 'INR' },
      // Not sent: the seeded PSP's contact and an empty description stand in (docs/sandbox.md).
      company_details: {
        email: 'partners@demo-psp.example',
        phone_number: '+912240000002',
        description_of_products_and_services: '',
        ...merchantBody('Acme Two').company_details,
      },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_updated_at: expect.any(String),
      kyc_status: 'PENDING',
      invoice_file: null,
    });
  });

  it('--print-template prints a complete body that the sandbox accepts; it needs no profile', async () => {
    const r = await runCli(['merchant', 'create', '--print-template'], { env: { PGW_PROFILE: 'no-such-profile', PGW_CONFIG_DIR: sb.dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const template = JSON.parse(r.stdout);
    expect(template).toEqual(MERCHANT_TEMPLATE);
    expect(checkCreate(template).ok).toBe(true);
    const created = await sb.pgw(['merchant', 'create', '--file', sb.file('t.json', r.stdout), '--json']);
    expect(created.code).toBe(0);
  });

  it('without --file and without a terminal: exit 2 with a hint, nothing sent', async () => {
    const before = (await sb.subMerchants()).length;
    const r = await sb.pgw(['merchant', 'create', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('merchant create needs --file <path|-> when it cannot ask');
    expect(r.stderr).toContain('hint: pgw merchant create --print-template');
    expect((await sb.subMerchants()).length).toBe(before);
  });

  it('--dry-run prints the request with the secret redacted and sends nothing', async () => {
    const before = (await sb.subMerchants()).length;
    const r = await sb.pgw(['merchant', 'create', '--file', sb.file('dry.json', JSON.stringify(merchantBody('Dry'))), '--dry-run', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`POST ${sb.h.sandbox.baseUrl}/partners/merchants/`);
    expect(r.stdout).toContain('X-Client-Secret: [redacted]');
    expect(r.stdout).not.toContain('X-API-Version');
    expect(r.stdout).toContain('"brand_name": "Dry"');
    expect(r.stderr).toContain('dry run: nothing was sent');
    expect((await sb.subMerchants()).length).toBe(before);
  });
});

describe('merchant create: validation before sending (exit 2, nothing sent, field path named)', () => {
  let agent: MockAgent;
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    // No interceptor at all: any request would fail the run with another exit code.
    agent = new MockAgent();
    agent.disableNetConnect();
    tmp = tempConfigDir();
  });
  afterEach(async () => {
    await agent.close();
    tmp.cleanup();
  });

  async function refuse(body: unknown) {
    const r = await runCli(['merchant', 'create', '--file', '-', '-o', 'table'], {
      dispatcher: agent,
      input: JSON.stringify(body),
      env: { PGW_CONFIG_DIR: tmp.dir, PGW_BASE_URL: 'https://gw.test', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sekret-create-01' },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    return r.stderr;
  }

  const set = (path: string, value: unknown) => {
    const b = merchantBody('Rule');
    const [obj, key] = path.split('.') as [string, string];
    if (value === undefined) delete b[obj][key];
    else b[obj][key] = value;
    return b;
  };

  it.each([
    ['company_details', undefined, 'company_details: required'],
    ['settlement_details', undefined, 'settlement_details: required'],
    ['company_details.hs_codes', ['6214100'], 'company_details.hs_codes.0: must be an 8-digit HS code'],
    ['company_details.hs_codes', ['62141000', '6214100A'], 'company_details.hs_codes.1: must be an 8-digit HS code'],
    ['company_details.hs_codes', '62141000', 'company_details.hs_codes: must be an array'],
    ['company_details.purpose_code', '0802', 'company_details.purpose_code: must be P or S followed by 4 digits'],
    ['company_details.purpose_code', 'P080', 'company_details.purpose_code: must be P or S followed by 4 digits'],
    ['company_details.monthly_avg_transaction_value', '1.234', 'company_details.monthly_avg_transaction_value: must be a decimal string'],
    ['company_details.monthly_avg_transaction_value', 250000, 'company_details.monthly_avg_transaction_value: must be a string'],
    ['company_details.monthly_avg_transaction_volume', '12.5', 'company_details.monthly_avg_transaction_volume: must be a numeric string'],
    // Postal codes are free text of sane length (docs/sandbox.md: sub-merchants are international).
    ['company_details.registered_pincode', '', 'company_details.registered_pincode: must not be empty'],
    ['company_details.communication_pincode', '4'.repeat(17), 'company_details.communication_pincode: must be at most 16 characters'],
    ['settlement_details.bank_pincode', 'A'.repeat(17), 'settlement_details.bank_pincode: must be at most 16 characters'],
    ['company_details.website', 'acme.example', 'company_details.website: must be an http:// or https:// address'],
    ['company_details.website', 'ftp://acme.example', 'company_details.website: must be an http:// or https:// address'],
    ['company_details.legal_name', 'a'.repeat(256), 'company_details.legal_name: must be at most 255 characters'],
    ['company_details.legal_name', '   ', 'company_details.legal_name: must not be empty'],
    ['company_details.brand_name', undefined, 'company_details.brand_name: required'],
    ['company_details.same_as_registered_address', 'yes', 'company_details.same_as_registered_address: must be true or false'],
    ['company_details.description_of_products_and_services', 'x'.repeat(1025), 'must be at most 1024 characters'],
    ['settlement_details.bank_account_number', '0001 2345', 'settlement_details.bank_account_number: must be 4-34 letters or digits'],
    ['settlement_details.bank_swift_code', 'H'.repeat(35), 'settlement_details.bank_swift_code: must be at most 34 characters'],
    ['settlement_details.bank_name', undefined, 'settlement_details.bank_name: required'],
    ['company_details.webiste', 'https://a.example', 'company_details.webiste: unknown field (did you mean website?)'],
  ])('%s refused: %s', async (path, value, message) => {
    const body = path.includes('.') ? set(path, value) : (() => { const b = merchantBody('Rule'); delete b[path]; return b; })();
    if (path === 'company_details.webiste') body.company_details.webiste = value;
    const stderr = await refuse(body);
    expect(stderr).toContain(message);
  });

  it('communication_* are required when same_as_registered_address is false', async () => {
    const stderr = await refuse(set('company_details.same_as_registered_address', false));
    for (const f of ['address', 'city', 'state', 'country', 'pincode']) {
      expect(stderr).toContain(`company_details.communication_${f}: required when same_as_registered_address is false`);
    }
  });

  it('reports every problem at once, each with its path', async () => {
    const b = merchantBody('Many', { company: { hs_codes: ['1'], purpose_code: 'X1', website: 'nope' }, settlement: { bank_pincode: '1'.repeat(17) } });
    const stderr = await refuse(b);
    expect(stderr).toContain('error: invalid merchant in stdin: 4 problems');
    for (const p of ['company_details.hs_codes.0', 'company_details.purpose_code', 'company_details.website', 'settlement_details.bank_pincode']) {
      expect(stderr).toContain(`  ${p}: `);
    }
  });

  it('a body that is not an object, or not JSON, is exit 2', async () => {
    expect(await refuse('just a string')).toContain('must be a JSON object with company_details and settlement_details');
    const r = await runCli(['merchant', 'create', '--file', '-'], { input: '{"company_details": ', env: { PGW_CONFIG_DIR: tmp.dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--file: stdin is not valid JSON');
    const missing = await runCli(['merchant', 'create', '--file', '/no/such/file.json'], { env: { PGW_CONFIG_DIR: tmp.dir } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--file: cannot read /no/such/file.json: no such file');
  });
});

describe('merchant create on production (MockAgent at the production address)', () => {
  let agent: MockAgent;
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    tmp = tempConfigDir();
  });
  afterEach(async () => {
    agent.assertNoPendingInterceptors();
    await agent.close();
    tmp.cleanup();
  });
  const env = () => ({ PGW_CONFIG_DIR: tmp.dir, PGW_BASE_URL: 'https://api-pacb.eximpe.com', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sekret-prod-0001' });
  const created = { success: true, message: 'sub-merchant created successfully', data: { id: '42', company_details: { brand_name: 'Prod' } } };

  it('needs --yes outside a terminal (exit 6, nothing sent)', async () => {
    noSubMerchants(agent);
    const r = await runCli(['merchant', 'create', '--file', '-'], { dispatcher: agent, input: JSON.stringify(merchantBody('Prod')), env: env() });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('PRODUCTION');
    expect(r.stderr).toContain('merchant create needs --yes on a production profile');
  });

  it('sends with --yes', async () => {
    noSubMerchants(agent);
    agent.get('https://api-pacb.eximpe.com').intercept({ path: '/partners/merchants/', method: 'POST' }).reply(200, created);
    const r = await runCli(['merchant', 'create', '--file', '-', '--yes', '--json'], { dispatcher: agent, input: JSON.stringify(merchantBody('Prod')), env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe('42');
  });

  it('asks in a terminal; no is exit 6 and nothing is sent', async () => {
    noSubMerchants(agent);
    const prompter = fakePrompter({ kind: 'confirm', message: 'merchant create on PRODUCTION', answer: false });
    const file = `${tmp.dir}/p.json`;
    (await import('node:fs')).writeFileSync(file, JSON.stringify(merchantBody('Prod')));
    const r = await runCli(['merchant', 'create', '--file', file], { dispatcher: agent, tty: true, prompter, env: env() });
    expect(r.code).toBe(6);
    prompter.assertDone();
  });

  it('a gateway validation error is exit 1 with its per-field details', async () => {
    noSubMerchants(agent);
    agent.get('https://api-pacb.eximpe.com').intercept({ path: '/partners/merchants/', method: 'POST' }).reply(400, {
      success: false,
      error: { code: 'ERR_MERCHANT_001', message: 'Invalid merchant', details: { 'company_details.tax_id': 'already registered' } },
    });
    const r = await runCli(['merchant', 'create', '--file', '-', '--yes', '-o', 'table'], { dispatcher: agent, input: JSON.stringify(merchantBody('Prod')), env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Invalid merchant (ERR_MERCHANT_001)');
    expect(r.stderr).toContain('company_details.tax_id: already registered');
    expect(r.stderr).not.toContain('sekret-prod-0001');
  });
});
