// --print-template: a complete example per mode and API variant, that passes validation as printed,
// with the flags given on top; it needs no profile and sends nothing. And the body builder's rules.
import { describe, expect, it } from 'vitest';
import { buildOrderBody, normaliseAmount } from '../../../src/commands/order/body.js';
import { buildOrderCreateOptions } from '../../../src/commands/order/create.js';
import { UsageError } from '../../../src/errors.js';
import { useMock, useWorkspace } from './helpers.js';

const ws = useWorkspace();
const mock = useMock(ws);

const MODES: [string, string[], Record<string, unknown>][] = [
  ['hosted', [], { collection_mode: 'hosted_payment' }],
  ['S2S UPI intent', ['--mode', 's2s'], { collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'intent' }],
  ['S2S UPI collection', ['--mode', 's2s', '--mop', 'upi', '--upi-flow', 'collection'], { upi_flow_type: 'collection' }],
  ['S2S card', ['--mode', 's2s', '--mop', 'debit_card'], { mop_type: 'debit_card' }],
];

describe('--print-template', () => {
  it.each(MODES)('%s: complete, valid as printed (its dry run passes), nothing sent', async (_name, args, expected) => {
    const t = await mock.pgw(['order', 'create', '--print-template', ...args], { tty: true });
    expect(t.code).toBe(0);
    expect(t.stderr).toBe('');
    const body = JSON.parse(t.stdout); // JSON even on a terminal: it is a body to edit
    expect(body).toMatchObject(expected);
    for (const key of ['amount', 'currency', 'reference_id', 'return_url', 'buyer', 'product', 'invoice']) expect(body).toHaveProperty(key);
    if (body.mop_type === 'debit_card') expect(Object.keys(body.card_details).sort()).toEqual(['cardholder_name', 'cvv', 'expiry_month', 'expiry_year', 'identifier', 'network', 'nickname', 'number']);
    const dry = await mock.pgw(['order', 'create', '--file', ws.file('t.json', body), '--dry-run', '--json']);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
  });

  it('API 2.x: the earlier variant (uppercase mop_type, vpa for collection), valid under 2.x', async () => {
    const t = await mock.pgw(['order', 'create', '--print-template', '--mode', 's2s', '--upi-flow', 'collection', '--api-version', '2.0.0']);
    expect(t.code).toBe(0);
    const body = JSON.parse(t.stdout);
    expect(body).toMatchObject({ mop_type: 'UPI', upi_flow_type: 'collection', vpa: 'asha@okbank' });
    const dry = await mock.pgw(['order', 'create', '--file', ws.file('t.json', body), '--api-version', '2.0.0', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
  });

  it('the flags given are applied on top, normalised', async () => {
    const t = await mock.pgw(['order', 'create', '--print-template', '--amount', '99.5', '--buyer-name', 'Ravi', '--currency', 'inr']);
    expect(JSON.parse(t.stdout)).toMatchObject({ amount: '99.50', currency: 'INR', buyer: { name: 'Ravi' } });
  });

  it('needs no profile: works with one that does not exist', async () => {
    const t = await mock.pgw(['order', 'create', '--print-template', '--profile', 'no-such-profile']);
    expect(t.code).toBe(0);
    expect(JSON.parse(t.stdout).amount).toBe('1500.00');
  });

  it('--query applies', async () => {
    const t = await mock.pgw(['order', 'create', '--print-template', '--query', 'buyer.address.postal_code']);
    expect(t.stdout).toBe('560001\n');
  });
});

describe('the body builder', () => {
  it.each([
    ['1500', '1500.00'],
    ['1500.5', '1500.50'],
    [' 7 ', '7.00'],
    [1500, '1500.00'],
    [1500.25, '1500.25'],
    ['10.123', '10.123'],
    ['abc', 'abc'],
    [1e21, 1e21],
    [-5, -5],
  ])('normaliseAmount(%j) → %j', (input, output) => {
    expect(normaliseAmount(input)).toEqual(output);
  });

  it('flags replace a file value that is not an object, and write mop_type in the version case', () => {
    const body = buildOrderBody({ buyer: 'nobody', mop_type: 'upi' }, { 'buyer.name': 'Asha', mop_type: 'credit_card' }, 2);
    expect(body).toEqual({ buyer: { name: 'Asha' }, mop_type: 'CREDIT_CARD' });
  });

  it('the file is not changed', () => {
    const file = { amount: '1', buyer: { name: 'A' } };
    buildOrderBody(file, { 'buyer.name': 'B' }, 3);
    expect(file).toEqual({ amount: '1', buyer: { name: 'A' } });
  });

  it('the options builder maps flags to fields, and refuses two readers of stdin', () => {
    expect(buildOrderCreateOptions({ buyerName: 'A', postalCode: '560001', dryRun: true })).toMatchObject({
      fields: { 'buyer.name': 'A', 'buyer.address.postal_code': '560001' },
      dryRun: true,
      printTemplate: false,
    });
    expect(() => buildOrderCreateOptions({ file: '-', cardFile: '-' })).toThrow(UsageError);
  });
});
