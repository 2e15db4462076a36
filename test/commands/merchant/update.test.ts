// pgw merchant update against the sandbox (what changes, updated_fields) and MockAgent (exactly
// what is sent, gateway errors, production), with every refusal before sending.
import { beforeAll, describe, expect, it } from 'vitest';
import { merchantBody, useSandbox } from './helpers.js';
import type { RunOptions } from '../../helpers/run.js';
import { STUB_BASE_URL, useGatewayStub } from '../../helpers/gateway-stub.js';
import { fakePrompter } from '../../helpers/fake-prompter.js';

const sb = useSandbox();
let id: string;

beforeAll(async () => {
  const r = await sb.h.call('POST', '/partners/merchants/', { as: 'psp', body: merchantBody('Upd') });
  id = r.body.data.id;
});

async function stored(): Promise<any> {
  const m = (await sb.subMerchants()).find((x) => x.id === id)!;
  return m;
}

describe('merchant update against the sandbox', () => {
  it('--set changes one field and prints updated_fields', async () => {
    const r = await sb.pgw(['merchant', 'update', id, '--set', 'company_details.brand_name=Upd Renamed', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`merchant_id\\s+${id}`));
    expect(r.stdout).toMatch(/updated_fields\s+company_details/);
    expect((await stored()).brand_name).toBe('Upd Renamed');
  });

  it('--file and --set together, both objects; JSON is the response data', async () => {
    const file = sb.file('changes.json', JSON.stringify({ settlement_details: { bank_name: 'Citi' }, company_details: { tax_id: 'T-2' } }));
    const r = await sb.pgw(['merchant', 'update', id, '--file', file, '--set', 'company_details.website=https://new.example', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ merchant_id: id, updated_fields: ['company_details', 'settlement_details'] });
  });

  it('a merged merchant that breaks a rule is the gateway\'s 400: exit 1 with the field', async () => {
    const r = await sb.pgw(['merchant', 'update', id, '--set', 'company_details.same_as_registered_address=false', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('company_details.communication_address');
  });

  it('an unknown merchant is exit 5', async () => {
    const r = await sb.pgw(['merchant', 'update', '999999999', '--set', 'company_details.tax_id=X', '-o', 'table']);
    expect(r.code).toBe(5);
  });

  it('--dry-run prints the PATCH and sends nothing', async () => {
    const r = await sb.pgw(['merchant', 'update', id, '--set', 'company_details.tax_id=DRY', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const preview = JSON.parse(r.stdout);
    expect(preview).toMatchObject({ method: 'PATCH', url: `${sb.h.sandbox.baseUrl}/partners/merchants/${id}/`, body: { company_details: { tax_id: 'DRY' } } });
    expect(preview.headers['X-Client-Secret']).toBe('[redacted]');
  });
});

describe('merchant update: what is sent (MockAgent)', () => {
  const gw = useGatewayStub({ secret: 'sekret-update-01' });
  const run = (argv: string[], opts: RunOptions = {}, base = STUB_BASE_URL) =>
    gw.pgw(['merchant', 'update', ...argv], { ...opts, env: { PGW_BASE_URL: base, ...opts.env } });

  function expectPatch(base = STUB_BASE_URL): { body?: unknown } {
    const seen: { body?: unknown } = {};
    gw.agent.get(base).intercept({ path: '/partners/merchants/77/', method: 'PATCH' }).reply((o) => {
      seen.body = JSON.parse(String(o.body));
      return { statusCode: 200, data: { success: true, message: 'merchant updated successfully', data: { merchant_id: '77', updated_fields: ['company_details'] } } };
    });
    return seen;
  }

  it('sends only the fields given, each parsed by its type', async () => {
    const seen = expectPatch();
    const r = await run([
      '77',
      '--set', 'company_details.hs_codes=62141000, 85176290',
      '--set', 'company_details.same_as_registered_address=yes',
      '--set', 'settlement_details.bank_pincode=400001',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(seen.body).toEqual({
      company_details: { hs_codes: ['62141000', '85176290'], same_as_registered_address: true },
      settlement_details: { bank_pincode: '400001' },
    });
  });

  it('hs_codes as a JSON array; --set wins over the file for the same field', async () => {
    const seen = expectPatch();
    const r = await run(['77', '--file', '-', '--set', 'company_details.hs_codes=["85176290"]'], {
      input: JSON.stringify({ company_details: { hs_codes: ['62141000'], commodity: 'Tea' } }),
    });
    expect(r.code).toBe(0);
    expect(seen.body).toEqual({ company_details: { hs_codes: ['85176290'], commodity: 'Tea' } });
  });

  it.each([
    [['--set', 'company_details.webiste=https://a.example'], 'company_details.webiste: unknown field (did you mean company_details.website?)'],
    [['--set', 'website=https://a.example'], 'website: unknown field (did you mean company_details.website?)'],
    [['--set', 'company_details.settlement_currency=USD'], 'company_details.settlement_currency: unknown field'],
    [['--set', 'company_details.website'], '--set takes path=value'],
    [['--set', 'company_details.same_as_registered_address=maybe'], 'company_details.same_as_registered_address: must be true or false, not "maybe"'],
    [['--set', 'company_details.hs_codes=6214100'], 'company_details.hs_codes.0: must be an 8-digit HS code'],
    [['--set', 'company_details.hs_codes=[1,'], 'company_details.hs_codes: must be a JSON array or a comma-separated list'],
    [['--set', 'company_details.purpose_code=P12'], 'company_details.purpose_code: must be P or S followed by 4 digits'],
    [['--set', 'company_details.website=acme'], 'company_details.website: must be an http:// or https:// address'],
    [['--set', 'company_details.registered_pincode='], 'company_details.registered_pincode: must not be empty'],
    [['--set', 'company_details.monthly_avg_transaction_value=12,000'], 'company_details.monthly_avg_transaction_value: must be a decimal string'],
    [['--set', 'company_details.monthly_avg_transaction_volume=1.5'], 'company_details.monthly_avg_transaction_volume: must be a numeric string'],
    [['--set', 'company_details.legal_name='], 'company_details.legal_name: must not be empty'],
    [['--set', `settlement_details.bank_swift_code=${'A'.repeat(35)}`], 'settlement_details.bank_swift_code: must be at most 34 characters'],
  ])('%j is refused: exit 2, nothing sent', async (argv, message) => {
    const r = await run(['77', ...argv, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('reports every problem of --file and --set at once', async () => {
    const r = await run(['77', '--file', '-', '--set', 'company_details.nope=1', '-o', 'table'], {
      input: JSON.stringify({ company_details: { purpose_code: 'X' }, settlement_details: { bank_pincode: '1'.repeat(17) }, extra: 1 }),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: invalid update, nothing was sent: 4 problems');
    for (const p of ['company_details.nope', 'extra', 'company_details.purpose_code', 'settlement_details.bank_pincode']) expect(r.stderr).toContain(`  ${p}: `);
  });

  it.each([
    [[], 'nothing to update: give the fields with --file <path|-> and/or --set path=value'],
    [['--file', '-'], 'nothing to update: no field of company_details or settlement_details was given'],
  ])('an empty update %j is exit 2', async (argv, message) => {
    const r = await run(['77', ...argv, '-o', 'table'], { input: '{"company_details": {}}' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('a merchant_id that would change the path is refused', async () => {
    const r = await run(['../orders', '--set', 'company_details.tax_id=X', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('merchant_id: "../orders" is not a valid identifier');
  });

  it('on production: needs --yes outside a terminal; asks in one', async () => {
    const prod = 'https://api-pacb.eximpe.com';
    const refused = await run(['77', '--set', 'company_details.tax_id=X'], {}, prod);
    expect(refused.code).toBe(6);
    const seen = expectPatch(prod);
    // Read first, so the question shows current → new (issue 20 item 6, issue 22 item 6).
    gw.agent.get(prod).intercept({ path: '/partners/merchants/77/', method: 'GET' }).reply(200, {
      success: true,
      data: { id: '77', kyc_status: 'PENDING', company_details: { tax_id: 'OLD-TAX' }, settlement_details: {} },
    });
    const prompter = fakePrompter({ kind: 'confirm', message: 'merchant update 77 on PRODUCTION', answer: true });
    const asked = await run(['77', '--set', 'company_details.tax_id=X'], { tty: true, prompter }, prod);
    prompter.assertDone();
    expect(asked.code).toBe(0);
    expect(asked.stderr).toMatch(/company_details\.tax_id\s+OLD-TAX → X/);
    expect(seen.body).toEqual({ company_details: { tax_id: 'X' } });
  });

  it('a 403 (a merchant\'s credentials, not a PSP\'s) is exit 4 with the PSP hint', async () => {
    gw.pool.intercept({ path: '/partners/merchants/77/', method: 'PATCH' }).reply(403, {
      success: false,
      error: { code: 'ERR_AUTH_002', message: 'Partner operations need a PSP account' },
    });
    const r = await run(['77', '--set', 'company_details.tax_id=X', '-o', 'table']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('hint: merchant commands need a PSP account');
    expect(r.stderr).not.toContain('sekret-update-01');
  });
});
