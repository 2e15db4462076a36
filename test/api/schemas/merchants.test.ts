import { describe, expect, it } from 'vitest';
import { merchantCreateSchema, merchantUpdateSchema, merchantMergedIssues, validate, type Problem } from '../../../src/api/schemas/index.js';

function body(): any {
  return {
    settlement_details: {
      bank_account_number: '000123456789',
      bank_account_name: 'Acme Exports Pvt Ltd',
      bank_swift_code: 'HDFCINBBXXX',
      bank_name: 'HDFC Bank',
      bank_branch_name: 'Fort',
      bank_address: '1 Bank Street',
      bank_city: 'Mumbai',
      bank_state: 'Maharashtra',
      bank_country: 'India',
      bank_pincode: '400001',
      routing_number: '021000021',
    },
    company_details: {
      legal_name: 'Acme Exports Private Limited',
      brand_name: 'Acme',
      registration_number: 'U12345MH2020PTC123456',
      international_org_type: 'PRIVATE_LIMITED',
      tax_id: 'ABCDE1234F',
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
      commodity: 'Textiles',
      payment_terms: 'NET_30',
      hs_codes: ['62141000', '85176290'],
      category: 'Apparel',
      description_of_products_and_services: 'Scarves',
      agreement_details: 'Standard',
      purpose_code: 'P0802',
    },
  };
}

const paths = (ps: Problem[]) => ps.map((p) => p.path);
function refused(schema: any, b: unknown): string[] {
  const r = validate(schema, b);
  return r.ok ? [] : paths(r.problems);
}

describe('merchant create (spec 2.10, 4.9)', () => {
  it('accepts a complete body', () => {
    expect(validate(merchantCreateSchema, body()).ok).toBe(true);
  });

  it('requires both objects', () => {
    expect(refused(merchantCreateSchema, { settlement_details: body().settlement_details })).toEqual(['company_details']);
    expect(refused(merchantCreateSchema, { company_details: body().company_details })).toEqual(['settlement_details']);
  });

  const cases: [string, string, unknown][] = [
    ['an HS code of 7 digits', 'company_details.hs_codes.1', ['62141000', '8517629']],
    ['an HS code with letters', 'company_details.hs_codes.0', ['6214100A']],
    ['hs_codes not an array', 'company_details.hs_codes', '62141000'],
    ['purpose_code without P', 'company_details.purpose_code', '0802'],
    ['purpose_code of 3 digits', 'company_details.purpose_code', 'P080'],
    ['monthly value with 3 decimals', 'company_details.monthly_avg_transaction_value', '1.234'],
    ['monthly value as a number', 'company_details.monthly_avg_transaction_value', 250000],
    ['monthly volume with decimals', 'company_details.monthly_avg_transaction_volume', '12.5'],
    ['registered_pincode empty', 'company_details.registered_pincode', ''],
    ['registered_pincode of 17 characters', 'company_details.registered_pincode', '1'.repeat(17)],
    ['website not a URL', 'company_details.website', 'acme'],
    ['website mailto', 'company_details.website', 'mailto:a@acme.example'],
    ['same_as_registered_address as a string', 'company_details.same_as_registered_address', 'yes'],
    ['legal_name too long', 'company_details.legal_name', 'a'.repeat(256)],
    ['legal_name missing', 'company_details.legal_name', undefined],
    ['bank_pincode of 17 characters', 'settlement_details.bank_pincode', 'A'.repeat(17)],
    ['bank_account_number with spaces', 'settlement_details.bank_account_number', '0001 2345'],
    ['bank_swift_code of 35 chars', 'settlement_details.bank_swift_code', 'A'.repeat(35)],
    ['settlement_currency not a code', 'settlement_details.settlement_currency', 'dollars'],
    ['bank_name missing', 'settlement_details.bank_name', undefined],
  ];
  it.each(cases)('refuses %s', (_n, path, value) => {
    const b = body();
    const [obj, key] = path.split('.') as [string, string];
    if (value === undefined) delete b[obj][key];
    else b[obj][key] = value;
    expect(refused(merchantCreateSchema, b)).toContain(path);
  });

  // docs/sandbox.md tolerances (beyond 5.2): what the vendor's client sends is accepted.
  it.each([
    ['no monthly_avg_transaction_value', 'company_details.monthly_avg_transaction_value', undefined],
    ['a US ZIP code', 'company_details.registered_pincode', '94103'],
    ['a UK postcode', 'settlement_details.bank_pincode', 'SW1A 1AA'],
    ['an empty bank pincode', 'settlement_details.bank_pincode', ''],
    ['a 13-character SWIFT code', 'settlement_details.bank_swift_code', 'CHASINUS33XXX'],
    ['a country name', 'company_details.registered_country', 'United States'],
    ['a 9-digit routing number', 'settlement_details.routing_number', '021000021'],
    ['no commodity, payment_terms or purpose_code', 'company_details.commodity', undefined],
    ['a settlement_currency', 'settlement_details.settlement_currency', 'USD'],
  ])('accepts %s', (_n, path, value) => {
    const b = body();
    const [obj, key] = path.split('.') as [string, string];
    if (value === undefined) delete b[obj][key];
    else b[obj][key] = value;
    if (key === 'commodity') for (const k of ['payment_terms', 'purpose_code']) delete b[obj][k];
    expect(refused(merchantCreateSchema, b)).toEqual([]);
  });

  it('needs communication_* only when same_as_registered_address is false', () => {
    const b = body();
    b.company_details.same_as_registered_address = false;
    expect(refused(merchantCreateSchema, b)).toEqual([
      'company_details.communication_address',
      'company_details.communication_city',
      'company_details.communication_state',
      'company_details.communication_country',
      'company_details.communication_pincode',
    ]);
    Object.assign(b.company_details, {
      communication_address: '9 Office Road',
      communication_city: 'Pune',
      communication_state: 'Maharashtra',
      communication_country: 'India',
      communication_pincode: '411001',
    });
    expect(validate(merchantCreateSchema, b).ok).toBe(true);
  });
});

describe('merchant update (spec 4.10)', () => {
  it('accepts a partial body', () => {
    expect(validate(merchantUpdateSchema, { company_details: { website: 'https://new.example' } }).ok).toBe(true);
    expect(validate(merchantUpdateSchema, { settlement_details: { bank_name: 'New Bank' } }).ok).toBe(true);
  });

  it('still checks the fields it is given', () => {
    expect(refused(merchantUpdateSchema, { company_details: { hs_codes: ['1'] } })).toEqual(['company_details.hs_codes.0']);
    expect(refused(merchantUpdateSchema, { company_details: { purpose_code: 'X1234' } })).toEqual(['company_details.purpose_code']);
  });

  it('refuses an update with no field', () => {
    expect(refused(merchantUpdateSchema, {})).toEqual(['']);
    expect(refused(merchantUpdateSchema, { company_details: {} })).toEqual(['']);
  });

  it('checks a merged merchant against the create rules', () => {
    const merged = body();
    merged.company_details.same_as_registered_address = false;
    expect(merchantMergedIssues(merged).map((i) => i.path.join('.'))).toContain('company_details.communication_city');
    expect(merchantMergedIssues(body())).toEqual([]);
  });
});
