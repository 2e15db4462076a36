// Generated sub-merchant bodies (spec 2.10, 4.9, 4.10): create bodies valid by construction,
// partial updates drawn from them, and the mutators that break exactly one rule.
import fc from 'fast-check';
import { PRINTABLE, freeText, httpUrl, trimmed } from './helpers-gen-text.js';
import { badChar, del, field, fieldMutations, getAt, oneOf, set, tooLong, type Body, type FieldRule, type Mutation } from './helpers-gen-mutate.js';

const SOLID = PRINTABLE.filter((c) => c !== ' ');
/** A required text field: trimmed, 1-`max` characters. */
const text = (max = 255) => trimmed(SOLID, PRINTABLE, max);
/** An optional text field: at most `max`, possibly empty. */
const optText = (max = 255) => fc.oneof({ weight: 5, arbitrary: freeText(max) }, { weight: 1, arbitrary: fc.constant('') });
// Postal codes are free text up to 16 characters (docs/sandbox.md: international sub-merchants).
const pincode = fc.oneof(fc.stringMatching(/^[0-9]{6}$/), fc.stringMatching(/^[0-9]{5}$/), fc.constantFrom('SW1A 1AA', 'K1A 0B1', '94103-1234'), text(16));

export const settlementDetails = fc.record(
  {
    bank_account_number: fc.stringMatching(/^[A-Za-z0-9]{4,34}$/),
    bank_account_name: text(),
    // A SWIFT/BIC of 8 or 11 (the CLI's rule, fields.ts swiftCheck); the sandbox's looser one
    // (the vendor client's 13 characters) is test/api/schemas/merchants.test.ts's.
    bank_swift_code: fc.oneof(fc.stringMatching(/^[A-Z]{6}[A-Z0-9]{2}$/), fc.stringMatching(/^[A-Z]{6}[A-Z0-9]{5}$/)),
    bank_name: text(),
    bank_branch_name: optText(),
    bank_address: optText(1024),
    bank_city: optText(),
    bank_state: optText(),
    bank_country: text(),
    bank_pincode: fc.oneof(pincode, fc.constant('')),
    routing_number: optText(64),
    settlement_currency: fc.constantFrom('USD', 'INR', 'EUR'),
  },
  { requiredKeys: ['bank_account_number', 'bank_account_name', 'bank_name', 'bank_country'] },
);

const COMMUNICATION = ['address', 'city', 'state', 'country', 'pincode'].map((f) => `communication_${f}`);

const companyCore = fc.record(
  {
    legal_name: text(),
    brand_name: text(),
    registration_number: text(),
    international_org_type: fc.oneof(fc.constantFrom('PRIVATE_LIMITED', 'PUBLIC_LIMITED', 'LLP', 'SOLE_PROPRIETOR'), text()),
    tax_id: text(),
    website: httpUrl,
    monthly_avg_transaction_value: fc.stringMatching(/^[0-9]{1,12}(\.[0-9]{1,2})?$/),
    monthly_avg_transaction_volume: fc.stringMatching(/^[0-9]{1,9}$/),
    registered_address: text(1024),
    registered_city: text(),
    registered_state: text(),
    registered_country: text(),
    registered_pincode: pincode,
    business_category: fc.oneof(fc.constant('TECHNOLOGY'), text()),
    business_mode: fc.oneof(fc.constantFrom('B2B', 'B2C'), text()),
    commodity: optText(),
    payment_terms: optText(),
    hs_codes: fc.array(fc.stringMatching(/^[0-9]{8}$/), { maxLength: 5 }),
    category: optText(),
    description_of_products_and_services: optText(1024),
    agreement_details: optText(1024),
    purpose_code: fc.stringMatching(/^P[0-9]{4}$/),
  },
  {
    requiredKeys: [
      'legal_name', 'brand_name', 'registration_number', 'international_org_type', 'tax_id', 'website',
      'monthly_avg_transaction_volume', 'registered_address', 'registered_city',
      'registered_state', 'registered_country', 'registered_pincode', 'business_category', 'business_mode',
    ],
  },
);

/** communication_* are all given (non-empty) when same_as_registered_address is false, any of them otherwise. */
const communication = fc.oneof(
  fc.record({ communication_address: text(1024), communication_city: text(), communication_state: text(), communication_country: text(), communication_pincode: pincode }).map((c) => ({ ...c, same_as_registered_address: false })),
  fc
    .record({ communication_address: optText(1024), communication_city: optText(), communication_state: optText(), communication_country: optText(), communication_pincode: pincode }, { requiredKeys: [] })
    .map((c) => ({ ...c, same_as_registered_address: true })),
);

export const companyDetails = fc.tuple(companyCore, communication).map(([core, comm]) => ({ ...core, ...comm }));

export const merchantBody: fc.Arbitrary<Body> = fc.record({ settlement_details: settlementDetails, company_details: companyDetails });

// ---- the rules --------------------------------------------------------------------------------

const S = 'settlement_details';
const C = 'company_details';
const blank = fc.constantFrom('', '   ');
const requiredTextBad = (max = 255) => fc.oneof(tooLong(PRINTABLE, max), blank);
const badPincode = tooLong(PRINTABLE, 16);

/** Rules of single fields; apply to create bodies and to the same fields in an update. */
export const MERCHANT_FIELD_RULES: FieldRule[] = [
  field(`${S}.bank_account_number`, fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{1,3}$/), fc.stringMatching(/^[A-Za-z0-9]{35,40}$/), badChar(fc.stringMatching(/^[A-Za-z0-9]{4,30}$/), ['-', ' ', '/', '.']))),
  field(`${S}.bank_account_name`, requiredTextBad()),
  field(`${S}.bank_swift_code`, tooLong(PRINTABLE, 34)),
  field(`${S}.settlement_currency`, fc.constantFrom('usd', 'US', 'Dollars', '', 'USD1')),
  field(`${S}.bank_name`, requiredTextBad()),
  field(`${S}.bank_branch_name`, tooLong(PRINTABLE, 255)),
  field(`${S}.bank_address`, tooLong(PRINTABLE, 1024)),
  field(`${S}.bank_city`, tooLong(PRINTABLE, 255)),
  field(`${S}.bank_state`, tooLong(PRINTABLE, 255)),
  field(`${S}.bank_country`, requiredTextBad()),
  field(`${S}.bank_pincode`, badPincode),
  field(`${S}.routing_number`, tooLong(PRINTABLE, 64)),
  ...['legal_name', 'brand_name', 'registration_number', 'international_org_type', 'tax_id', 'registered_city', 'registered_state', 'registered_country', 'business_category', 'business_mode'].map((k) => field(`${C}.${k}`, requiredTextBad())),
  field(`${C}.registered_address`, requiredTextBad(1024)),
  field(`${C}.registered_pincode`, requiredTextBad(16)),
  field(`${C}.website`, fc.constantFrom('acme.example', 'ftp://acme.example', 'https://', 'mailto:a@acme.example', '')),
  field(`${C}.monthly_avg_transaction_value`, fc.constantFrom('1.234', '-5', '1,000.00', '1e6', 'abc', '', '12.', 250000)),
  field(`${C}.monthly_avg_transaction_volume`, fc.constantFrom('12.5', '-1', '1,200', 'many', '', 1200)),
  field(`${C}.communication_address`, tooLong(PRINTABLE, 1024)),
  ...['communication_city', 'communication_state', 'communication_country', 'commodity', 'payment_terms', 'category'].map((k) => field(`${C}.${k}`, tooLong(PRINTABLE, 255))),
  field(`${C}.communication_pincode`, badPincode),
  field(`${C}.same_as_registered_address`, fc.constantFrom('yes', 'true', 1, 0, null)),
  field(`${C}.description_of_products_and_services`, tooLong(PRINTABLE, 1024)),
  field(`${C}.agreement_details`, tooLong(PRINTABLE, 1024)),
  field(`${C}.purpose_code`, fc.constantFrom('P080', 'P08021', 'Q0802', 'p0802', 'PABCD', '')),
  field(`${C}.hs_codes`, fc.constantFrom('62141000', 62141000, { code: '62141000' })),
];

/** One item of hs_codes broken: the path names that item. */
function hsCodeItem(body: Body, base: string): fc.Arbitrary<Mutation>[] {
  const codes = getAt(body, `${base}.hs_codes`) as string[] | undefined;
  if (!codes || codes.length === 0) return [];
  const bad = fc.oneof(fc.stringMatching(/^[0-9]{1,7}$/), fc.stringMatching(/^[0-9]{9,10}$/), fc.constantFrom('6214100A', '6214 100'));
  return [
    fc.tuple(fc.nat(codes.length - 1), bad).map(([i, value]) => ({
      ...set(body, `${base}.hs_codes`, codes.map((c, j) => (j === i ? value : c)), `hs_codes item ${i} = ${value}`),
      path: `${base}.hs_codes.${i}`,
    })),
  ];
}

/** Unknown keys: a misspelt field inside an object, or a third object. */
const unknownKeys = (body: Body): fc.Arbitrary<Mutation>[] => [
  fc.constantFrom(`${C}.webiste`, `${C}.brand`, `${S}.iban`, `${S}.bank_acount_number`, 'extra_details').map((path) => set(body, path, 'x', `unknown ${path}`)),
];

const REQUIRED = [
  S, C,
  ...['bank_account_number', 'bank_account_name', 'bank_name', 'bank_country'].map((k) => `${S}.${k}`),
  ...['legal_name', 'brand_name', 'registration_number', 'international_org_type', 'tax_id', 'website',
    'monthly_avg_transaction_volume', 'same_as_registered_address', 'registered_address', 'registered_city', 'registered_state',
    'registered_country', 'registered_pincode', 'business_category', 'business_mode'].map((k) => `${C}.${k}`),
];

/** communication_* required when same_as_registered_address is false. */
function communicationRule(body: Body): fc.Arbitrary<Mutation>[] {
  const company = body[C] as Body;
  if (company.same_as_registered_address === false) {
    return [fc.constantFrom(...COMMUNICATION).chain((k) => fc.constantFrom(undefined, '').map((v) => set(body, `${C}.${k}`, v, `same_as false, ${k} ${v === '' ? 'empty' : 'missing'}`)))];
  }
  // Flip to false when exactly one communication field is missing: that one must be named.
  const missing = COMMUNICATION.filter((k) => company[k] === undefined || company[k] === '');
  if (missing.length !== 1) return [];
  return [fc.constant({ ...set(body, `${C}.same_as_registered_address`, false, `same_as flipped, ${missing[0]} missing`), path: `${C}.${missing[0]}` })];
}

export const brokenMerchant: fc.Arbitrary<Mutation> = merchantBody.chain((body) =>
  oneOf([
    ...fieldMutations(body, MERCHANT_FIELD_RULES),
    ...hsCodeItem(body, C),
    ...unknownKeys(body),
    ...REQUIRED.map((path) => fc.constant(del(body, path, `missing ${path}`))),
    ...communicationRule(body),
    fc.constantFrom(S, C).chain((path) => fc.constantFrom('x', 1, ['a']).map((v) => set(body, path, v, `${path} not an object`))),
  ]),
);

/** A non-empty update: some fields of a valid create body, in one or both objects. */
export const merchantUpdate: fc.Arbitrary<Body> = merchantBody.chain((body) => {
  const leaves = [S, C].flatMap((o) => Object.keys(body[o] as Body).map((k) => `${o}.${k}`));
  return fc.subarray(leaves, { minLength: 1 }).map((picked) =>
    picked.reduce<Body>((out, path) => {
      const [o, k] = path.split('.') as [string, string];
      return { ...out, [o]: { ...(out[o] as Body | undefined), [k]: (body[o] as Body)[k] } };
    }, {}),
  );
});

/** One rule of an update broken: a bad field value or an unknown key (an update has no required fields). */
export const brokenMerchantUpdate: fc.Arbitrary<Mutation> = merchantUpdate.chain((body) =>
  oneOf([...fieldMutations(body, MERCHANT_FIELD_RULES), ...hsCodeItem(body, C), ...unknownKeys(body)]),
);
