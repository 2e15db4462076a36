// Every rule of spec 2.1-2.5 and part 8 refuses a bad input before anything is sent: exit 2, the
// field path named. The MockAgent has no interceptor and refuses the network, so a request would
// end in exit 3, not 2.
import { describe, expect, it } from 'vitest';
import { cardJson, orderJson, useMock, useWorkspace } from './helpers.js';

const ws = useWorkspace();
const mock = useMock(ws);

type Body = Record<string, any>;

function set(body: Body, path: string, value: unknown): Body {
  const keys = path.split('.');
  let node = body;
  for (const k of keys.slice(0, -1)) node = node[k] ??= {};
  if (value === undefined) delete node[keys[keys.length - 1]!];
  else node[keys[keys.length - 1]!] = value;
  return body;
}

const year = new Date().getUTCFullYear();
const month = new Date().getUTCMonth() + 1;
const s2sCard = (card: Body) => orderJson({ collection_mode: 's2s', mop_type: 'credit_card', card_details: card });

/** [what, body, path, message fragment] */
const cases: [string, Body, string, string][] = [
  ['amount missing', set(orderJson(), 'amount', undefined), 'amount', 'required'],
  ['amount with 3 decimals', orderJson({ amount: '10.123' }), 'amount', 'at most 2 decimals'],
  ['amount negative', orderJson({ amount: '-5' }), 'amount', 'decimal string'],
  ['amount with a comma', orderJson({ amount: '1,500.00' }), 'amount', 'decimal string'],
  ['amount zero', orderJson({ amount: '0' }), 'amount', 'greater than 0'],
  ['amount above the limit', orderJson({ amount: '10000000.01' }), 'amount', 'at most 10000000.00'],
  ['amount a JSON string of words', orderJson({ amount: 'ten' }), 'amount', 'decimal string'],
  ['currency lowercase', orderJson({ currency: 'inr' }), 'currency', '3 uppercase letters'],
  ['currency of 4 letters', orderJson({ currency: 'INRR' }), 'currency', '3 uppercase letters'],
  ['currency unsupported', orderJson({ currency: 'USD' }), 'currency', 'unsupported currency'],
  ['reference_id empty', orderJson({ reference_id: '' }), 'reference_id', 'must not be empty'],
  ['reference_id of 51 chars', orderJson({ reference_id: 'r'.repeat(51) }), 'reference_id', 'at most 50'],
  ['reference_id with a space', orderJson({ reference_id: 'ref 1' }), 'reference_id', 'letters, numbers, dashes'],
  ['return_url missing', set(orderJson(), 'return_url', undefined), 'return_url', 'required'],
  ['return_url not a URL', orderJson({ return_url: 'merchant.example/return' }), 'return_url', 'http:// or https://'],
  ['return_url ftp', orderJson({ return_url: 'ftp://merchant.example/' }), 'return_url', 'http:// or https://'],
  ['buyer.name with digits', set(orderJson(), 'buyer.name', 'Asha 2'), 'buyer.name', 'letters, spaces'],
  ['buyer.name of 256 chars', set(orderJson(), 'buyer.name', 'a'.repeat(256)), 'buyer.name', 'at most 255'],
  ['buyer.email invalid', set(orderJson(), 'buyer.email', 'asha@'), 'buyer.email', 'valid email'],
  ['buyer.phone without country code', set(orderJson(), 'buyer.phone', '9876543210'), 'buyer.phone', 'country code'],
  ['buyer.phone too short', set(orderJson(), 'buyer.phone', '+91123'), 'buyer.phone', 'country code'],
  ['buyer.ip_address invalid', set(orderJson(), 'buyer.ip_address', '999.1.1.1'), 'buyer.ip_address', 'IPv4 or IPv6'],
  ['buyer.user_agent of 1025 chars', set(orderJson(), 'buyer.user_agent', 'a'.repeat(1025)), 'buyer.user_agent', 'at most 1024'],
  ['buyer.pan_number malformed', set(orderJson(), 'buyer.pan_number', 'ABCDE12345'), 'buyer.pan_number', 'must be a PAN'],
  ['buyer.dob not a real date', set(orderJson(), 'buyer.dob', '1990-13-01'), 'buyer.dob', 'real date'],
  ['address line_1 forbidden characters', set(orderJson(), 'buyer.address.line_1', '12 MG Road; DROP'), 'buyer.address.line_1', 'may contain only'],
  ['address line_1 of 256 chars', set(orderJson(), 'buyer.address.line_1', 'a'.repeat(256)), 'buyer.address.line_1', 'at most 255'],
  ['address line_2 forbidden characters', set(orderJson(), 'buyer.address.line_2', 'Near <Park>'), 'buyer.address.line_2', 'may contain only'],
  ['city with digits', set(orderJson(), 'buyer.address.city', 'Delhi 6'), 'buyer.address.city', 'alphabetic'],
  ['city of 256 chars', set(orderJson(), 'buyer.address.city', 'a'.repeat(256)), 'buyer.address.city', 'at most 255'],
  ['state with punctuation', set(orderJson(), 'buyer.address.state', 'Delhi!'), 'buyer.address.state', 'alphabetic'],
  ['postal_code of 5', set(orderJson(), 'buyer.address.postal_code', '11000'), 'buyer.address.postal_code', 'must be 6 characters'],
  ['postal_code of 7', set(orderJson(), 'buyer.address.postal_code', '1100011'), 'buyer.address.postal_code', 'must be 6 characters'],
  ['product.name of 256 chars', set(orderJson(), 'product.name', 'a'.repeat(256)), 'product.name', 'at most 255'],
  ['product.description of 1025', set(orderJson(), 'product.description', 'a'.repeat(1025)), 'product.description', 'at most 1024'],
  ['type_of_goods "goods" in v3', set(orderJson(), 'product.type_of_goods', 'goods'), 'product.type_of_goods', 'must be one of'],
  ['hs_code with letters', set(orderJson(), 'product.hs_code', '6214A000'), 'product.hs_code', 'digits, at most 8'],
  ['hs_code of 9 digits', set(orderJson(), 'product.hs_code', '621410001'), 'product.hs_code', 'digits, at most 8'],
  ['hs_code missing for physical goods', set(orderJson(), 'product.hs_code', undefined), 'product.hs_code', 'required when type_of_goods is physical_goods'],
  ['hs_code_description of 1025', set(orderJson(), 'product.hs_code_description', 'a'.repeat(1025)), 'product.hs_code_description', 'at most 1024'],
  ['invoice missing', set(orderJson(), 'invoice', undefined), 'invoice.number', 'required'],
  ['invoice.number with a space', set(orderJson(), 'invoice.number', 'INV 1'), 'invoice.number', 'letters, numbers, dashes and slashes'],
  ['invoice.number of 256', set(orderJson(), 'invoice.number', 'a'.repeat(256)), 'invoice.number', 'at most 255'],
  ['invoice.date not YYYY-MM-DD', set(orderJson(), 'invoice.date', '31-01-2026'), 'invoice.date', 'YYYY-MM-DD'],
  ['invoice.date not a real day', set(orderJson(), 'invoice.date', '2026-02-30'), 'invoice.date', 'real date'],
  ['collection_mode outside the enum', orderJson({ collection_mode: 'redirect' }), 'collection_mode', 'hosted_payment or s2s'],
  ['mop_type outside the enum', orderJson({ mop_type: 'CHEQUE' }), 'mop_type', 'must be one of upi'],
  ['s2s without mop_type', orderJson({ collection_mode: 's2s' }), 'mop_type', 'required when collection_mode is s2s'],
  ['s2s with net_banking', orderJson({ collection_mode: 's2s', mop_type: 'net_banking' }), 'mop_type', 'supports upi, credit_card and debit_card'],
  ['s2s upi without upi_flow_type', orderJson({ collection_mode: 's2s', mop_type: 'upi' }), 'upi_flow_type', 'required when collection_mode is s2s'],
  ['upi_flow_type outside the enum', orderJson({ collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'push' }), 'upi_flow_type', 'intent or collection'],
  ['vpa in v3', orderJson({ collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'collection', vpa: 'a@b' }), 'vpa', 'only in the earlier variant'],
  ['upi_app_name in v3', orderJson({ upi_app_name: 'gpay' }), 'upi_app_name', 'only in the earlier variant'],
  ['card_details missing for credit_card', orderJson({ collection_mode: 's2s', mop_type: 'credit_card' }), 'card_details', 'required when mop_type is credit_card'],
  ['card_details missing for debit_card (hosted too)', orderJson({ mop_type: 'debit_card' }), 'card_details', 'required when mop_type is debit_card'],
  ['card number of 11 digits', s2sCard(cardJson({ number: '41111111111' })), 'card_details.number', '12-19 digits'],
  ['card number of 20 digits', s2sCard(cardJson({ number: '4'.repeat(20) })), 'card_details.number', '12-19 digits'],
  ['card number grouped by dashes', s2sCard(cardJson({ number: '4111-1111-1111-1111' })), 'card_details.number', '12-19 digits'],
  ['cvv of 2 digits', s2sCard(cardJson({ cvv: '12' })), 'card_details.cvv', '3-4 digits'],
  ['cvv of 5 digits', s2sCard(cardJson({ cvv: '12345' })), 'card_details.cvv', '3-4 digits'],
  ['expiry_month 13', s2sCard(cardJson({ expiry_month: '13' })), 'card_details.expiry_month', 'MM, 01-12'],
  ['expiry_month without a leading zero', s2sCard(cardJson({ expiry_month: '6' })), 'card_details.expiry_month', 'MM, 01-12'],
  ['expiry_year of 2 digits', s2sCard(cardJson({ expiry_year: '27' })), 'card_details.expiry_year', 'YYYY'],
  ['expiry_year in the past', s2sCard(cardJson({ expiry_year: String(year - 1) })), 'card_details.expiry_year', 'current year or later'],
  ['network outside the enum', s2sCard(cardJson({ network: 'maestro' })), 'card_details.network', 'must be one of visa'],
  ['cardholder_name of 129', s2sCard(cardJson({ cardholder_name: 'a'.repeat(129) })), 'card_details.cardholder_name', 'at most 128'],
  ['nickname of 65', s2sCard(cardJson({ nickname: 'a'.repeat(65) })), 'card_details.nickname', 'at most 64'],
  ['nickname missing', s2sCard(cardJson({ nickname: undefined })), 'card_details.nickname', 'required'],
  ['identifier missing', s2sCard(cardJson({ identifier: undefined })), 'card_details.identifier', 'required'],
  ['saved card without identifier', s2sCard({ token: 'tok_1', network: 'visa' }), 'card_details.identifier', 'required'],
  ['saved card with an unknown network', s2sCard({ token: 'tok_1', identifier: 'c', network: 'maestro' }), 'card_details.network', 'must be one of'],
];
if (month > 1) {
  cases.push(['expiry in an earlier month of this year', s2sCard(cardJson({ expiry_month: '01', expiry_year: String(year) })), 'card_details.expiry_month', 'the card has expired']);
}

describe('create order v3: every rule refuses (exit 2, nothing sent, the field named)', () => {
  it.each(cases)('%s → %s', async (_what, body, path, fragment) => {
    const r = await mock.pgw(['order', 'create', '--file', ws.file('o.json', body), '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const line = r.stderr.split('\n').find((l) => l.replace(/^(error:)?\s*/, '').startsWith(`${path}: `));
    expect(line, r.stderr).toBeDefined();
    expect(line).toContain(fragment);
  });
});

describe('create order, the earlier variant (--api-version 1.x/2.x)', () => {
  const legacy: [string, Body, string, string][] = [
    ['mop_type outside the enum', orderJson({ mop_type: 'cheque' }), 'mop_type', 'must be one of UPI'],
    ['collection without vpa', orderJson({ collection_mode: 's2s', mop_type: 'UPI', upi_flow_type: 'collection' }), 'vpa', 'required when upi_flow_type is collection'],
    ['vpa not username@bank', orderJson({ collection_mode: 's2s', mop_type: 'UPI', upi_flow_type: 'collection', vpa: 'asha' }), 'vpa', 'username@bank'],
    ['card rule still applies', orderJson({ mop_type: 'CREDIT_CARD' }), 'card_details', 'required when mop_type is CREDIT_CARD'],
  ];
  it.each(legacy)('%s → %s', async (_what, body, path, fragment) => {
    const r = await mock.pgw(['order', 'create', '--file', ws.file('o.json', body), '--api-version', '2.0.0', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`(^|\\n)(error: |  )${path.replace('.', '\\.')}: .*${fragment}`));
  });

  it('a v3-shaped file with lowercase mop_type is sent in uppercase under 2.0.0 (issue 13 item 19)', async () => {
    const file = ws.file('l.json', orderJson({ collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'collection', vpa: 'asha@okbank' }));
    const v2 = await mock.pgw(['order', 'create', '--file', file, '--api-version', '2.0.0', '--dry-run', '--json']);
    expect(v2.code, v2.stderr).toBe(0);
    expect(JSON.parse(v2.stdout).body.mop_type).toBe('UPI');
    const v3 = await mock.pgw(['order', 'create', '--file', ws.file('u.json', orderJson({ mop_type: 'NET_BANKING' })), '--dry-run', '--json']);
    expect(v3.code, v3.stderr).toBe(0);
    expect(JSON.parse(v3.stdout).body.mop_type).toBe('net_banking');
  });

  it('--mop in either case is sent in the version\'s case (dry run)', async () => {
    const file = ws.file('o.json', orderJson({ collection_mode: 's2s', upi_flow_type: 'collection', vpa: 'asha@okbank' }));
    const v2 = await mock.pgw(['order', 'create', '--file', file, '--mop', 'upi', '--api-version', '2.0.0', '--dry-run', '--json']);
    expect(v2.code).toBe(0);
    expect(JSON.parse(v2.stdout).body.mop_type).toBe('UPI');
    expect(JSON.parse(v2.stdout).headers['X-API-Version']).toBe('2.0.0');
    const v3 = await mock.pgw(['order', 'create', '--file', ws.file('p.json', orderJson()), '--mop', 'NET_BANKING', '--dry-run', '--json']);
    expect(JSON.parse(v3.stdout).body.mop_type).toBe('net_banking');
  });
});

describe('how problems are reported', () => {
  it('every wrong value at once: by its flag when a flag gave it, by its path in --file', async () => {
    const file = ws.file('o.json', set(orderJson(), 'buyer.email', 'nope'));
    const r = await mock.pgw(['order', 'create', '--file', file, '--amount', '0', '--postal-code', '11000', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: invalid order: 3 problems');
    expect(r.stderr).toContain('  --amount: must be greater than 0');
    expect(r.stderr).toContain('  buyer.email: must be a valid email address');
    expect(r.stderr).toContain('  --postal-code: must be 6 characters');
  });

  it('a single problem is the error line itself', async () => {
    const r = await mock.pgw(['order', 'create', '--file', ws.file('o.json', orderJson()), '--postal-code', '11000', '-o', 'table']);
    expect(r.stderr).toBe('error: --postal-code: must be 6 characters\n');
  });

  it('a bad flag is reported by its flag name, first, with everything else that is missing (issue 21 item 12)', async () => {
    const r = await mock.pgw(['order', 'create', '--amount', '12.345', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: invalid order: \d+ problems\n  --amount: [^\n]*2 decimal[^\n]*\n  --return-url: required\n/);
    expect(r.stderr).toMatch(/  --buyer-name: required\n/);
  });

  it('JSON mode: the error object with details keyed by field path', async () => {
    const r = await mock.pgw(['order', 'create', '--file', ws.file('o.json', orderJson({ amount: '0', currency: 'USD' })), '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'VALIDATION',
      details: { amount: 'must be greater than 0', currency: 'unsupported currency: use INR' },
    });
  });

  it('off a terminal, missing fields are listed (not asked), with where to give them', async () => {
    const r = await mock.pgw(['order', 'create', '--amount', '100', '-o', 'table']);
    expect(r.code).toBe(2);
    // Named by the flag that gives each (issue 22 item 7); currency and reference_id are filled.
    for (const flag of ['--return-url', '--buyer-name', '--buyer-email', '--buyer-phone', '--address-line1', '--city', '--state', '--postal-code', '--product-name', '--goods', '--invoice-number']) {
      expect(r.stderr).toContain(`  ${flag}: required\n`);
    }
    expect(r.stderr).not.toContain('buyer.name');
    expect(r.stderr).not.toMatch(/currency|reference_id|--amount/);
    expect(r.stderr).toContain('hint: give them with flags or --file');
    expect(r.stderr).toContain('run in a terminal without --no-input to be asked');
  });

  it('--no-input in a terminal: listed, not asked', async () => {
    const r = await mock.pgw(['order', 'create', '--amount', '100', '--no-input'], { tty: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--buyer-name: required');
  });

  it('a card method without card details points at --card-file', async () => {
    const r = await mock.pgw(['order', 'create', '--file', ws.file('o.json', orderJson()), '--mode', 's2s', '--mop', 'credit_card', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('card_details: required when mop_type is credit_card');
    expect(r.stderr).toContain('--card-file <card.json>');
  });
});

describe('bad files and flags (exit 2)', () => {
  it.each([
    ['a missing --file', ['--file', '/nonexistent/o.json'], '--file: cannot read "/nonexistent/o.json": no such file'],
    ['a --file that is not JSON', ['--file', 'BAD'], 'is not valid JSON'],
    ['a --file holding an array', ['--file', 'ARRAY'], 'must hold a JSON object'],
    ['--mode outside its choices', ['--mode', 'redirect'], "argument 'redirect' is invalid"],
    ['--upi-flow outside its choices', ['--upi-flow', 'push'], "argument 'push' is invalid"],
    ['both --file - and --card-file -', ['--file', '-', '--card-file', '-'], 'cannot both read stdin'],
  ])('%s', async (_what, args, message) => {
    const resolved = args.map((a) => (a === 'BAD' ? ws.file('bad.json', '{"amount": 1500,}') : a === 'ARRAY' ? ws.file('arr.json', '[1]') : a));
    const r = await mock.pgw(['order', 'create', ...resolved, '-o', 'table'], { input: '{}' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('a JSON error names the line and column', async () => {
    const r = await mock.pgw(['order', 'create', '--file', ws.file('bad.json', '{\n  "amount": "1",\n}'), '-o', 'table']);
    expect(r.stderr).toContain('at line 3, column 1');
  });

  it('card details are not flags: commander refuses --card-number', async () => {
    const r = await mock.pgw(['order', 'create', '--card-number', '4111111111111111']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--card-number'");
  });
});
