// Generated create-order bodies (spec 2.1-2.5, part 8) in the v3 form and the earlier 1.x/2.x
// variant, valid by construction, and the mutators that break exactly one rule of them.
import fc from 'fast-check';
import { CARD_NETWORKS, GOODS_TYPES, LEGACY_MOP_TYPES, MOP_TYPES } from '../../src/api/schemas/index.js';
import {
  DIGITS,
  LETTERS,
  NOW,
  PRINTABLE,
  addressLine,
  alphaText,
  badAmount,
  badDate,
  email,
  freeText,
  httpUrl,
  paise,
  paiseText,
  personName,
  phone,
  postalCode,
  realDate,
  trimmed,
} from './helpers-gen-text.js';
import { badChar, del, field, fieldMutations, getAt, oneOf, set, tooLong, type Body, type FieldRule, type Mutation } from './helpers-gen-mutate.js';

export type Variant = 'v3' | 'legacy';

const YEAR = NOW.getUTCFullYear();
const MONTH = NOW.getUTCMonth() + 1;

const REF_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'];
const referenceId = trimmed(REF_CHARS.filter((c) => c !== '-'), REF_CHARS, 50);
const invoiceNumber = trimmed([...'ABCINVabc0123456789'], [...'ABCDEFINVabcdef0123456789/-'], 255);
const PAN = fc.stringMatching(/^[A-Z]{5}[0-9]{4}[A-Z]$/);
const ipAddress = fc.oneof(fc.ipV4(), fc.ipV6());
const userAgent = freeText(1024);

const expiry = fc.oneof(
  fc.record({ expiry_year: fc.constant(String(YEAR)), expiry_month: fc.integer({ min: MONTH, max: 12 }).map((m) => String(m).padStart(2, '0')) }),
  fc.record({
    expiry_year: fc.integer({ min: YEAR + 1, max: YEAR + 20 }).map(String),
    expiry_month: fc.integer({ min: 1, max: 12 }).map((m) => String(m).padStart(2, '0')),
  }),
);

export const newCard = fc
  .tuple(
    expiry,
    fc.record({
      number: fc.stringMatching(/^[0-9]{12,19}$/),
      cardholder_name: trimmed(LETTERS, [...LETTERS, ' ', '.'], 128),
      cvv: fc.stringMatching(/^[0-9]{3,4}$/),
      network: fc.constantFrom(...CARD_NETWORKS),
      nickname: trimmed(PRINTABLE.filter((c) => c !== ' '), PRINTABLE, 64),
      identifier: trimmed([...REF_CHARS], [...REF_CHARS, ' '], 255),
    }),
  )
  .map(([e, c]) => ({ ...c, ...e }));

export const savedCard = fc.record({
  token: trimmed([...REF_CHARS], REF_CHARS, 255),
  identifier: trimmed([...REF_CHARS], REF_CHARS, 255),
  network: fc.constantFrom(...CARD_NETWORKS),
});

const address = fc.record(
  { line_1: addressLine, line_2: addressLine, city: alphaText, state: alphaText, postal_code: postalCode },
  { requiredKeys: ['line_1', 'city', 'state', 'postal_code'] },
);

const buyer = fc.record(
  {
    name: personName,
    email,
    phone,
    address,
    ip_address: ipAddress,
    user_agent: userAgent,
    pan_number: fc.option(PAN, { nil: null }),
    dob: fc.option(realDate, { nil: null }),
  },
  { requiredKeys: ['name', 'email', 'phone', 'address'] },
);

function product(variant: Variant) {
  const goods = variant === 'v3' ? GOODS_TYPES : ([...GOODS_TYPES, 'goods'] as const);
  return fc
    .tuple(
      fc.record(
        { name: freeText(255), description: freeText(1024), type_of_goods: fc.constantFrom(...goods), hs_code_description: freeText(1024) },
        { requiredKeys: ['name', 'type_of_goods'] },
      ),
      fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined }),
      fc.stringMatching(/^[0-9]{1,8}$/),
    )
    .map(([p, optionalHs, hs]) => {
      // spec 2.3: physical goods need an HS code; other goods may carry one.
      const code = p.type_of_goods === 'physical_goods' ? hs : optionalHs;
      return code === undefined ? p : { ...p, hs_code: code };
    });
}

const invoice = fc.record({ number: invoiceNumber, date: realDate }, { requiredKeys: ['number'] });

/** How the order is collected, with the fields each way needs (spec 2.1 / 4.1 conditional rules). */
function collection(variant: Variant) {
  const mops = variant === 'v3' ? MOP_TYPES : LEGACY_MOP_TYPES;
  const up = (m: string) => (variant === 'v3' ? m : m.toUpperCase());
  const card = fc.oneof({ weight: 3, arbitrary: newCard }, { weight: 1, arbitrary: savedCard });
  const vpa = fc.stringMatching(/^[A-Za-z0-9._-]{1,20}@[A-Za-z0-9.-]{1,12}$/);
  // Hosted (collection_mode given or left to its default): any method, a UPI flow or not.
  const hosted = fc.record(
    { collection_mode: fc.constant('hosted_payment'), mop_type: fc.constantFrom(...mops), upi_flow_type: fc.constantFrom('intent', 'collection') },
    { requiredKeys: [] },
  );
  const s2sUpi = fc.record({ collection_mode: fc.constant('s2s'), mop_type: fc.constant(up('upi')), upi_flow_type: fc.constantFrom('intent', 'collection') });
  const s2sCard = fc.record({ collection_mode: fc.constant('s2s'), mop_type: fc.constantFrom(up('credit_card'), up('debit_card')) });
  return fc
    .tuple(fc.oneof(hosted, s2sUpi, s2sCard), card, vpa, fc.boolean(), trimmed(LETTERS, [...LETTERS, ' '], 64))
    .map(([c, cardDetails, vpaValue, extra, appName]) => {
      const out: Body = { ...c };
      const mop = typeof out.mop_type === 'string' ? out.mop_type.toLowerCase() : undefined;
      if (mop === 'credit_card' || mop === 'debit_card') out.card_details = cardDetails;
      if (variant === 'legacy') {
        // spec 2.1 (earlier variant): vpa is required for a collection flow, allowed otherwise.
        if (out.upi_flow_type === 'collection' || extra) out.vpa = vpaValue;
        if (extra) out.upi_app_name = appName;
      }
      return out;
    });
}

/** A valid create-order body of `variant`, its amount the 2-decimal string of `paise`. */
export function orderBody(variant: Variant): fc.Arbitrary<Body> {
  const common = {
    amount: paise.map(paiseText),
    currency: fc.constant('INR'),
    reference_id: referenceId,
    return_url: httpUrl,
    buyer,
    product: product(variant),
    invoice,
  };
  const required = variant === 'v3' ? ['amount', 'currency', 'reference_id', 'return_url', 'buyer', 'product', 'invoice'] : ['amount', 'currency', 'reference_id', 'buyer', 'product'];
  return fc.tuple(fc.record(common, { requiredKeys: required as (keyof typeof common)[] }), collection(variant)).map(([b, c]) => ({ ...b, ...c }));
}

// ---- the rules, one mutator each ---------------------------------------------------------------


/** Field-level rules of both variants: path, when it applies, and values that break it. */
function fieldRules(variant: Variant): FieldRule[] {
  const goodsBad = variant === 'v3' ? ['goods', 'food', 'DIGITAL_GOODS', ''] : ['food', 'DIGITAL_GOODS', ''];
  return [
    field('amount', fc.oneof(badAmount, fc.constant(1500.123))),
    field('currency', fc.oneof(fc.stringMatching(/^[A-Z]{3}$/).filter((c) => c !== 'INR'), fc.constantFrom('inr', 'IN', 'INRR', '', 'Rs'))),
    field('reference_id', fc.oneof(tooLong(REF_CHARS, 50), badChar(referenceId, [' ', '.', '/', '#', 'é', '@']), fc.constant(''))),
    field('return_url', fc.constantFrom('not a url', 'ftp://merchant.example/return', 'javascript:alert(1)', 'merchant.example/return', '')),
    field('buyer.name', fc.oneof(tooLong(LETTERS, 255), badChar(personName, [...DIGITS, '@', '#', '_', '!']), fc.constantFrom('', '   '))),
    field('buyer.email', fc.constantFrom('asha', 'asha@', '@example.com', 'as ha@example.com', 'asha@example', 'asha@@example.com', '')),
    field('buyer.phone', fc.oneof(phone.map((p) => p.slice(1)), fc.constantFrom('+0123456789', '+1234567', '+1234567890123456', '+91abc456789', '+91 98765 4321-', ''))),
    field('buyer.address.line_1', fc.oneof(tooLong(LETTERS, 255), badChar(addressLine, ['!', '@', '_', '$', '%', '?']), fc.constant(''))),
    field('buyer.address.line_2', fc.oneof(tooLong(LETTERS, 255), badChar(addressLine, ['!', '@', '_', '$']), fc.constant(''))),
    field('buyer.address.city', fc.oneof(tooLong(LETTERS, 255), badChar(alphaText, [...DIGITS, '.', '-', '/']), fc.constant(''))),
    field('buyer.address.state', fc.oneof(tooLong(LETTERS, 255), badChar(alphaText, [...DIGITS, '.', '-', '/']), fc.constant(''))),
    field('buyer.address.postal_code', fc.oneof(fc.stringMatching(/^[0-9]{5}$/), fc.stringMatching(/^[0-9]{7,8}$/), fc.constantFrom('56000!', '560 01', ''))),
    field('buyer.ip_address', fc.constantFrom('999.1.1.1', '1.2.3', 'localhost', '::g', '1.2.3.4.5', '')),
    field('buyer.user_agent', tooLong(PRINTABLE, 1024)),
    field('buyer.pan_number', fc.constantFrom('abcde1234f', 'ABCDE12345', 'ABCD1234F', '1234567890', ''), (v) => v !== null),
    field('buyer.dob', badDate, (v) => v !== null),
    field('product.name', fc.oneof(tooLong(PRINTABLE, 255), fc.constantFrom('', '  '))),
    field('product.description', tooLong(PRINTABLE, 1024)),
    field('product.type_of_goods', fc.constantFrom(...goodsBad)),
    field('product.hs_code', fc.oneof(fc.stringMatching(/^[0-9]{9,12}$/), fc.constantFrom('6214A000', '62-14', ''))),
    field('product.hs_code_description', tooLong(PRINTABLE, 1024)),
    field('invoice.number', fc.oneof(tooLong([...'INV0123456789'], 255), badChar(invoiceNumber, ['#', '_', '.', '@', ':']), fc.constant(''))),
    field('invoice.date', badDate),
    field('collection_mode', fc.constantFrom('hosted', 'S2S', 'server', '')),
    // Methods that do not exist. The other variant's case is not one: mop_type is taken in either
    // case under every version (contract, "API versions"; issue 13 item 19).
    field('mop_type', () => fc.constantFrom('paypal', 'card', '', 'upi_intent', 'CHEQUE')),
    field('upi_flow_type', fc.constantFrom('push', 'INTENT', 'collect', '')),
    field('vpa', fc.constantFrom('asha', 'asha@', '@upi', 'as ha@upi', 'asha@up i')),
    field('upi_app_name', fc.oneof(tooLong(LETTERS, 64), fc.constantFrom('', '  '))),
    field('card_details.number', fc.oneof(fc.stringMatching(/^[0-9]{1,11}$/), fc.stringMatching(/^[0-9]{20,22}$/), fc.constantFrom('4000 0012 345', '4000-0012-3456-7899', '4000 0012 3456 7899 1234', ''))),
    field('card_details.cardholder_name', fc.oneof(tooLong(LETTERS, 128), fc.constant(''))),
    field('card_details.expiry_month', fc.constantFrom('13', '00', '1', '6', 'June', '')),
    field('card_details.expiry_year', fc.oneof(fc.integer({ min: YEAR - 30, max: YEAR - 1 }).map(String), fc.constantFrom('26', '02026', 'YYYY', ''))),
    field('card_details.cvv', fc.constantFrom('12', '12345', 'abc', '7 3', '')),
    field('card_details.network', fc.constantFrom('VISA', 'jcb', 'maestro', '')),
    field('card_details.nickname', fc.oneof(tooLong(PRINTABLE, 64), fc.constant(''))),
    field('card_details.identifier', fc.oneof(tooLong(REF_CHARS, 255), fc.constant(''))),
    field('card_details.token', fc.oneof(tooLong(REF_CHARS, 255), fc.constant(''))),
  ];
}

/** Required fields of the body as generated (spec 2.1-2.5), deleted one at a time. */
function requiredPaths(variant: Variant, body: Body): string[] {
  const paths = ['amount', 'currency', 'reference_id', 'buyer', 'buyer.name', 'buyer.email', 'buyer.phone', 'buyer.address', 'buyer.address.line_1', 'buyer.address.city', 'buyer.address.state', 'buyer.address.postal_code', 'product', 'product.name', 'product.type_of_goods'];
  if (variant === 'v3') paths.push('return_url', 'invoice', 'invoice.number');
  else if (body.invoice !== undefined) paths.push('invoice.number');
  const card = body.card_details as Body | undefined;
  if (card) {
    // A saved card without its token reads as a new card (spec 2.5: the token selects the variant),
    // so that mutation is checked separately, naming card_details fields.
    const keys = 'token' in card ? ['identifier', 'network'] : ['number', 'cardholder_name', 'expiry_month', 'expiry_year', 'cvv', 'network', 'nickname', 'identifier'];
    paths.push(...keys.map((k) => `card_details.${k}`));
  }
  return paths;
}

/** The conditional rules of spec 2.1 / 4.1, each broken by removing (or changing) one field. */
function conditionalMutations(variant: Variant, body: Body): fc.Arbitrary<Mutation>[] {
  const out: fc.Arbitrary<Mutation>[] = [];
  const mop = typeof body.mop_type === 'string' ? body.mop_type.toLowerCase() : undefined;
  const product = body.product as Body;
  if (product.type_of_goods === 'physical_goods') out.push(fc.constant(del(body, 'product.hs_code', 'physical goods without hs_code')));
  if (product.hs_code === undefined) {
    out.push(fc.constant({ rule: 'physical goods without hs_code', path: 'product.hs_code', body: { ...body, product: { ...product, type_of_goods: 'physical_goods' } } }));
  }
  if (mop === 'credit_card' || mop === 'debit_card') out.push(fc.constant(del(body, 'card_details', 'card payment without card_details')));
  if (body.collection_mode === 's2s') {
    out.push(fc.constant(del(body, 'mop_type', 's2s without mop_type')));
    if (mop === 'upi') out.push(fc.constant(del(body, 'upi_flow_type', 's2s upi without upi_flow_type')));
  }
  const card = body.card_details as Body | undefined;
  if (card && 'token' in card) out.push(fc.constant({ ...del(body, 'card_details.token', 'saved card without token'), path: 'card_details' }));
  if (card && card.expiry_year === String(YEAR) && MONTH > 1) {
    // spec 2.5: this year's card whose month has passed has expired.
    const past = fc.integer({ min: 1, max: MONTH - 1 }).map((m) => String(m).padStart(2, '0'));
    out.push(past.map((m) => set(body, 'card_details.expiry_month', m, 'expired this year')));
  }
  if (variant === 'legacy' && body.upi_flow_type === 'collection') out.push(fc.constant(del(body, 'vpa', 'collection without vpa')));
  if (variant === 'v3') {
    // spec 2.1: vpa and upi_app_name exist only in the earlier variant.
    out.push(fc.constantFrom('asha@upi').map((v) => ({ rule: 'v3 with vpa', path: 'vpa', body: { ...body, vpa: v } })));
    out.push(fc.constant({ rule: 'v3 with upi_app_name', path: 'upi_app_name', body: { ...body, upi_app_name: 'gpay' } }));
  }
  return out;
}

/** Objects replaced by something that is not an object. */
function typeMutations(body: Body): fc.Arbitrary<Mutation>[] {
  const objects = ['buyer', 'buyer.address', 'product', 'invoice', 'card_details'].filter((p) => getAt(body, p) !== undefined);
  return objects.map((path) => fc.constantFrom('x', 42, ['a'], true).map((value) => set(body, path, value, `${path} not an object`)));
}

/** A valid body with exactly one rule broken, and the field path that must be named. */
export function brokenOrder(variant: Variant): fc.Arbitrary<Mutation> {
  const rules = fieldRules(variant);
  return orderBody(variant).chain((body) =>
    oneOf([
      ...fieldMutations(body, rules),
      ...requiredPaths(variant, body).map((path) => fc.constant(del(body, path, `missing ${path}`))),
      ...conditionalMutations(variant, body),
      ...typeMutations(body),
    ]),
  );
}
