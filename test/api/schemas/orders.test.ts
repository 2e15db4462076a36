import { describe, expect, it } from 'vitest';
import {
  makeOrderCreateLegacySchema,
  makeOrderCreateV3Schema,
  orderCreateSchemaFor,
  orderCreateLegacySchema,
  orderCreateV3Schema,
  orderUpdateSchema,
  validate,
  type Problem,
} from '../../../src/api/schemas/index.js';

const NOW = () => new Date('2026-06-15T12:00:00Z');
const v3 = makeOrderCreateV3Schema({ now: NOW });
const legacy = makeOrderCreateLegacySchema({ now: NOW });

function base(): any {
  return {
    amount: '1500.00',
    currency: 'INR',
    reference_id: 'order_2026-001',
    return_url: 'https://merchant.example/return',
    buyer: {
      name: "Asha D'Souza-Verma Jr.",
      email: 'asha@example.com',
      phone: '+91 98765-43210',
      address: { line_1: 'Flat #4, 12/B M.G. Road', line_2: 'Near Park', city: 'New Delhi', state: 'Delhi', postal_code: '110001' },
    },
    product: { name: 'Scarf', type_of_goods: 'physical_goods', hs_code: '62141000' },
    invoice: { number: 'INV/2026-1', date: '2026-01-31' },
  };
}

const card = () => ({
  number: '4111111111111111',
  cardholder_name: 'Asha Verma',
  expiry_month: '06',
  expiry_year: '2026',
  cvv: '123',
  network: 'visa',
  nickname: 'My Visa',
  identifier: 'cust-1',
});

function set(obj: any, path: string, value: unknown): any {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k];
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete o[last];
  else o[last] = value;
  return obj;
}

function problems(schema: any, body: unknown): Problem[] {
  const r = validate(schema, body);
  return r.ok ? [] : r.problems;
}

function expectRefused(schema: any, body: unknown, path: string): void {
  const ps = problems(schema, body);
  expect(ps.map((p) => p.path), JSON.stringify(ps)).toContain(path);
}

describe('create order v3 (spec 2.1-2.5, part 8)', () => {
  it('accepts a complete body and applies defaults', () => {
    const r = validate(v3, base());
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.data.collection_mode).toBe('hosted_payment');
  });

  it('accepts the lenient amount pattern and the upper limit', () => {
    for (const amount of ['1500', '1500.5', '0.01', '10000000.00', '10000000']) {
      expect(validate(v3, { ...base(), amount }).ok, amount).toBe(true);
    }
  });

  const refusals: [string, string, unknown][] = [
    ['amount missing', 'amount', undefined],
    ['amount as a number', 'amount', 1500],
    ['amount with 3 decimals', 'amount', '10.123'],
    ['amount negative', 'amount', '-5.00'],
    ['amount with a comma', 'amount', '1,500.00'],
    ['amount zero', 'amount', '0.00'],
    ['amount above 10,000,000.00', 'amount', '10000000.01'],
    ['currency lowercase', 'currency', 'inr'],
    ['currency of 4 letters', 'currency', 'INRR'],
    ['currency unsupported', 'currency', 'USD'],
    ['reference_id empty', 'reference_id', ''],
    ['reference_id of 51 chars', 'reference_id', 'a'.repeat(51)],
    ['reference_id with a space', 'reference_id', 'ref 1'],
    ['reference_id with a slash', 'reference_id', 'ref/1'],
    ['return_url missing', 'return_url', undefined],
    ['return_url not a URL', 'return_url', 'merchant.example/return'],
    ['return_url ftp', 'return_url', 'ftp://merchant.example/'],
    ['buyer missing', 'buyer', undefined],
    ['buyer.name missing', 'buyer.name', undefined],
    ['buyer.name with digits', 'buyer.name', 'Asha 2'],
    ['buyer.name of 256 chars', 'buyer.name', 'a'.repeat(256)],
    ['buyer.email invalid', 'buyer.email', 'asha@'],
    ['buyer.phone without country code', 'buyer.phone', '9876543210'],
    ['buyer.phone too short', 'buyer.phone', '+91123'],
    ['buyer.phone with letters', 'buyer.phone', '+91 98765 ABCDE'],
    ['buyer.ip_address invalid', 'buyer.ip_address', '999.1.1.1'],
    ['buyer.pan_number malformed', 'buyer.pan_number', 'ABCDE12345'],
    ['buyer.address missing', 'buyer.address', undefined],
    ['buyer.address.line_1 with forbidden chars', 'buyer.address.line_1', '12 MG Road; DROP'],
    ['buyer.address.line_1 of 256 chars', 'buyer.address.line_1', 'a'.repeat(256)],
    ['buyer.address.line_2 with forbidden chars', 'buyer.address.line_2', 'Near <Park>'],
    ['buyer.address.city with digits', 'buyer.address.city', 'Delhi 6'],
    ['buyer.address.state with punctuation', 'buyer.address.state', 'Delhi!'],
    ['buyer.address.postal_code of 5 chars', 'buyer.address.postal_code', '11000'],
    ['buyer.address.postal_code of 7 chars', 'buyer.address.postal_code', '1100011'],
    ['product missing', 'product', undefined],
    ['product.name missing', 'product.name', undefined],
    ['product.name of 256 chars', 'product.name', 'a'.repeat(256)],
    ['product.description of 1025 chars', 'product.description', 'a'.repeat(1025)],
    ['product.type_of_goods outside the enum', 'product.type_of_goods', 'goods'],
    ['product.hs_code with letters', 'product.hs_code', '6214A000'],
    ['product.hs_code of 9 digits', 'product.hs_code', '621410001'],
    ['product.hs_code missing for physical goods', 'product.hs_code', undefined],
    ['product.hs_code_description of 1025 chars', 'product.hs_code_description', 'a'.repeat(1025)],
    ['invoice missing', 'invoice', undefined],
    ['invoice.number missing', 'invoice.number', undefined],
    ['invoice.number with a space', 'invoice.number', 'INV 1'],
    ['invoice.number of 256 chars', 'invoice.number', 'a'.repeat(256)],
    ['invoice.date not YYYY-MM-DD', 'invoice.date', '31-01-2026'],
    ['invoice.date not a real day', 'invoice.date', '2026-02-30'],
    ['collection_mode outside the enum', 'collection_mode', 'redirect'],
    ['mop_type outside the enum', 'mop_type', 'CHEQUE'],
    ['upi_flow_type outside the enum', 'upi_flow_type', 'push'],
  ];
  it.each(refusals)('refuses %s, naming %s', (_name, path, value) => {
    expectRefused(v3, set(base(), path, value), path);
  });

  it('says "required" for a missing field', () => {
    expect(problems(v3, set(base(), 'buyer.address.city', undefined))).toContainEqual({ path: 'buyer.address.city', message: 'required' });
  });

  it('accepts digital goods and services without an hs_code', () => {
    expect(validate(v3, set(base(), 'product', { name: 'E-book', type_of_goods: 'digital_goods' })).ok).toBe(true);
    expect(validate(v3, set(base(), 'product', { name: 'Consulting', type_of_goods: 'service' })).ok).toBe(true);
  });

  it('reports every problem at once, conditional rules included', () => {
    const body = set(set(base(), 'amount', '0'), 'product.hs_code', undefined);
    const paths = problems(v3, body).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['amount', 'product.hs_code']));
  });

  describe('conditional rules (spec 4.1)', () => {
    it('requires upi_flow_type for s2s + upi', () => {
      expectRefused(v3, { ...base(), collection_mode: 's2s', mop_type: 'upi' }, 'upi_flow_type');
      expect(validate(v3, { ...base(), collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'intent' }).ok).toBe(true);
    });

    it('does not require upi_flow_type for hosted upi', () => {
      expect(validate(v3, { ...base(), mop_type: 'upi' }).ok).toBe(true);
    });

    it('requires mop_type for s2s, and only upi or cards', () => {
      expectRefused(v3, { ...base(), collection_mode: 's2s' }, 'mop_type');
      expectRefused(v3, { ...base(), collection_mode: 's2s', mop_type: 'net_banking' }, 'mop_type');
    });

    it('requires card_details for credit_card and debit_card', () => {
      expectRefused(v3, { ...base(), mop_type: 'credit_card' }, 'card_details');
      expectRefused(v3, { ...base(), mop_type: 'debit_card', collection_mode: 's2s' }, 'card_details');
      expect(validate(v3, { ...base(), mop_type: 'credit_card', collection_mode: 's2s', card_details: card() }).ok).toBe(true);
    });

    it('accepts the saved-card variant', () => {
      const saved = { token: 'tok_123', identifier: 'cust-1', network: 'rupay' };
      expect(validate(v3, { ...base(), mop_type: 'debit_card', card_details: saved }).ok).toBe(true);
      expectRefused(v3, { ...base(), mop_type: 'debit_card', card_details: { token: 'tok_123', network: 'rupay' } }, 'card_details.identifier');
      expectRefused(v3, { ...base(), mop_type: 'debit_card', card_details: { ...saved, network: 'maestro' } }, 'card_details.network');
    });
  });

  describe('card details (spec 2.5)', () => {
    const withCard = (over: Record<string, unknown>) => ({ ...base(), mop_type: 'credit_card', card_details: { ...card(), ...over } });
    const cases: [string, string, unknown][] = [
      ['number of 11 digits', 'number', '41111111111'],
      ['number of 20 digits', 'number', '4'.repeat(20)],
      ['number grouped by dashes', 'number', '4111-1111-1111-1111'],
      ['number of 11 digits grouped by spaces', 'number', '4111 1111 111'],
      ['cvv of 2 digits', 'cvv', '12'],
      ['cvv of 5 digits', 'cvv', '12345'],
      ['expiry_month 13', 'expiry_month', '13'],
      ['expiry_month without leading zero', 'expiry_month', '6'],
      ['expiry_year of 2 digits', 'expiry_year', '27'],
      ['expiry_year in the past', 'expiry_year', '2025'],
      ['expiry in an earlier month of this year', 'expiry_month', '05'],
      ['network outside the enum', 'network', 'maestro'],
      ['cardholder_name of 129 chars', 'cardholder_name', 'a'.repeat(129)],
      ['nickname of 65 chars', 'nickname', 'a'.repeat(65)],
      ['nickname missing', 'nickname', undefined],
      ['identifier missing', 'identifier', undefined],
    ];
    it.each(cases)('refuses %s', (_name, field, value) => {
      expectRefused(v3, withCard({ [field]: value }), `card_details.${field}`);
    });

    it('accepts a card expiring this month (the clock is injected)', () => {
      expect(validate(v3, withCard({ expiry_month: '06', expiry_year: '2026' })).ok).toBe(true);
      const later = makeOrderCreateV3Schema({ now: () => new Date('2026-07-01T00:00:00Z') });
      expectRefused(later, withCard({ expiry_month: '06', expiry_year: '2026' }), 'card_details.expiry_month');
    });

    it('accepts 12 and 19 digit numbers and 4-digit CVVs', () => {
      expect(validate(v3, withCard({ number: '411111111111', cvv: '1234' })).ok).toBe(true);
      expect(validate(v3, withCard({ number: '4111111111111111111' })).ok).toBe(true);
    });

    it('accepts a number grouped by spaces (beyond 6: the vendor client sends 4706 1312 1121 2123); digits are kept', () => {
      const r = validate(v3, withCard({ number: '4706 1312 1121 2123' }));
      expect(r.ok).toBe(true);
      if (r.ok) expect((r.data.card_details as { number: string }).number).toBe('4706131211212123');
    });
  });
});

describe('create order, v1/v2 variant (spec 2.1 last paragraph)', () => {
  it('makes return_url and invoice optional and defaults upi_app_name to others', () => {
    const { return_url: _r, invoice: _i, ...body } = base();
    const r = validate(legacy, { ...body, mop_type: 'UPI' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.data.upi_app_name).toBe('others');
  });

  it('takes mop_type in either case and gives it in uppercase (issue 13 item 19)', () => {
    for (const mop of ['upi', 'UPI', 'Upi']) {
      const r = validate(legacy, { ...base(), mop_type: mop });
      expect(r.ok, mop).toBe(true);
      if (r.ok) expect((r.data as { mop_type?: string }).mop_type).toBe('UPI');
    }
    expect(validate(legacy, { ...base(), mop_type: 'NET_BANKING' }).ok).toBe(true);
    expectRefused(legacy, { ...base(), mop_type: 'cheque' }, 'mop_type');
  });

  it('requires vpa for the collection flow, in username@bank form', () => {
    const collect = { ...base(), collection_mode: 's2s', mop_type: 'UPI', upi_flow_type: 'collection' };
    expectRefused(legacy, collect, 'vpa');
    expectRefused(legacy, { ...collect, vpa: 'asha' }, 'vpa');
    expect(validate(legacy, { ...collect, vpa: 'asha@okbank' }).ok).toBe(true);
  });

  it('accepts type_of_goods "goods" and still applies the card rule', () => {
    expect(validate(legacy, set(base(), 'product', { name: 'Scarf', type_of_goods: 'goods' })).ok).toBe(true);
    expectRefused(legacy, { ...base(), mop_type: 'CREDIT_CARD' }, 'card_details');
  });

  it('is chosen by API major version', () => {
    expect(orderCreateSchemaFor(3)).toBe(orderCreateV3Schema);
    expect(orderCreateSchemaFor(1)).toBe(orderCreateLegacySchema);
    expect(orderCreateSchemaFor(2)).toBe(orderCreateLegacySchema);
    expect(validate(orderCreateSchemaFor(2, { now: NOW }), { ...base(), mop_type: 'UPI' }).ok).toBe(true);
  });
});

describe('update order (spec 4.2)', () => {
  it('accepts any one field', () => {
    for (const body of [{ buyer: { pan_number: 'ABCDE1234F' } }, { buyer: { dob: '1990-02-28' } }, { invoice: { number: 'INV-9' } }, { invoice: { date: '2024-02-29' } }]) {
      expect(validate(orderUpdateSchema, body).ok, JSON.stringify(body)).toBe(true);
    }
  });

  it.each([
    ['buyer.pan_number', { buyer: { pan_number: 'abcde1234f' } }],
    ['buyer.pan_number', { buyer: { pan_number: 'ABCD12345F' } }],
    ['buyer.dob', { buyer: { dob: '1990-13-01' } }],
    ['buyer.dob', { buyer: { dob: '1990-2-1' } }],
    ['invoice.date', { invoice: { date: '2023-02-29' } }],
    ['invoice.number', { invoice: { number: 'INV 9' } }],
  ])('refuses a bad %s', (path, body) => {
    expectRefused(orderUpdateSchema, body, path);
  });

  it('refuses an empty update', () => {
    expect(problems(orderUpdateSchema, {})).toEqual([{ path: '', message: expect.stringContaining('at least one') }]);
    expect(problems(orderUpdateSchema, { buyer: {} })[0]!.path).toBe('');
  });
});
