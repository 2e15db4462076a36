// pgw order update <order_id>: against the sandbox over real HTTP, and MockAgent for what it
// does not give (a production gateway, an answer that is not nested).
import { describe, expect, it } from 'vitest';
import { buildUpdateBody, innermostData } from '../../../src/commands/order/update.js';
import { ValidationError } from '../../../src/errors.js';
import { fakePrompter } from '../../helpers/fake-prompter.js';
import { orderFlags, useMock, useSandbox, useWorkspace } from './helpers.js';

const ws = useWorkspace();
const sb = useSandbox(ws);
const mock = useMock(ws);
const PRODUCTION = 'https://api-pacb.eximpe.com';

async function newOrder(): Promise<string> {
  const r = await sb.pgw(['order', 'create', ...orderFlags(), '--query', 'order_id']);
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

describe('against the sandbox', () => {
  it('JSON: the innermost data, unchanged; only the fields given are changed', async () => {
    const id = await newOrder();
    const r = await sb.pgw(['order', 'update', id, '--pan', 'ABCDE1234F', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ order_id: id, buyer: { pan_number: 'ABCDE1234F', dob: null }, invoice: { number: 'INV-1', date: null } });
    const again = await sb.pgw(['order', 'update', id, '--dob', '1990-02-28', '--invoice-date', '2026-01-31', '--json']);
    expect(JSON.parse(again.stdout)).toEqual({ order_id: id, buyer: { pan_number: 'ABCDE1234F', dob: '1990-02-28' }, invoice: { number: 'INV-1', date: '2026-01-31' } });
  });

  it('a terminal gets a readable view', async () => {
    const id = await newOrder();
    const r = await sb.pgw(['order', 'update', id, '--invoice-number', 'INV/2026-9'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`order_id\\s+${id}`));
    expect(r.stdout).toMatch(/invoice\s+INV\/2026-9/);
    expect(r.stdout).toMatch(/pan_number\s+-/);
  });

  it('--file with flags on top (flags win); a lowercase --pan is sent in capitals', async () => {
    const id = await newOrder();
    const file = ws.file('u.json', { buyer: { pan_number: 'ZZZZZ9999Z', dob: '1985-05-05' }, invoice: { number: 'INV-F' } });
    const r = await sb.pgw(['order', 'update', id, '--file', file, '--pan', 'abcde1234f', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ buyer: { pan_number: 'ABCDE1234F', dob: '1985-05-05' }, invoice: { number: 'INV-F' } });
  });

  it('--file - reads stdin', async () => {
    const id = await newOrder();
    const r = await sb.pgw(['order', 'update', id, '--file', '-', '--json'], { input: '{"invoice":{"date":"2024-02-29"}}' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).invoice.date).toBe('2024-02-29');
  });

  it('an unknown order: exit 5', async () => {
    const r = await sb.pgw(['order', 'update', 'OD0000000000', '--pan', 'ABCDE1234F', '-o', 'table']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Order not found (ERR_ORDER_001)');
  });

  it('--dry-run sends nothing', async () => {
    const id = await newOrder();
    const dry = await sb.pgw(['order', 'update', id, '--pan', 'ABCDE1234F', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ method: 'PATCH', url: `${sb.sandbox.baseUrl}/pg/orders/${id}/`, body: { buyer: { pan_number: 'ABCDE1234F' } } });
    const after = await sb.pgw(['order', 'update', id, '--dob', '2000-01-01', '--json']);
    expect(JSON.parse(after.stdout).buyer.pan_number).toBeNull();
  });
});

describe('refused before sending (exit 2)', () => {
  it.each([
    ['a malformed PAN', ['--pan', 'ABCD12345F'], 'buyer.pan_number: must be a PAN'],
    ['a dob that is not a real date', ['--dob', '1990-02-30'], 'buyer.dob: must be a real date'],
    ['a dob in another form', ['--dob', '28/02/1990'], 'buyer.dob: must be a real date'],
    ['an invoice date that is not a date', ['--invoice-date', '2026-13-01'], 'invoice.date: must be a real date'],
    ['an invoice number with a space', ['--invoice-number', 'INV 1'], 'invoice.number: may contain only'],
    ['an empty update', [], 'nothing to update: give --pan, --dob, --invoice-number or --invoice-date'],
    ['a bad order id', ['--pan', 'ABCDE1234F', '__ID__../x'], 'order_id: "../x" is not a valid identifier'],
  ])('%s', async (_what, args, message) => {
    const id = args.find((a) => a.startsWith('__ID__'))?.slice(6) ?? 'OD1';
    const r = await mock.pgw(['order', 'update', id, ...args.filter((a) => !a.startsWith('__ID__')), '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('fields the update does not take are named, not sent or dropped', async () => {
    const file = ws.file('u.json', { buyer: { name: 'X', dob: '1990-01-01' }, amount: '1.00' });
    const r = await mock.pgw(['order', 'update', 'OD1', '--file', file, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('buyer.name: cannot be changed by order update');
    expect(r.stderr).toContain('amount: cannot be changed by order update');
  });

  it('an empty --file is an empty update', async () => {
    const r = await mock.pgw(['order', 'update', 'OD1', '--file', ws.file('u.json', { buyer: {} })]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to update');
  });

  it('buildUpdateBody reports every problem at once', () => {
    try {
      buildUpdateBody({ buyer: { pan_number: 'x', dob: 'y' } }, { 'invoice.date': 'z' });
      expect.unreachable();
    } catch (err) {
      expect((err as ValidationError).problems.map((p) => p.path).sort()).toEqual(['buyer.dob', 'buyer.pan_number', 'invoice.date']);
    }
  });
});

describe('gateway answers the sandbox does not give', () => {
  it('an answer that is not nested is printed as it is', async () => {
    const inner = { order_id: 'OD1', buyer: { pan_number: 'ABCDE1234F', dob: null }, invoice: { number: 'I', date: null } };
    mock.reply('PATCH', '/pg/orders/OD1/', 200, { success: true, message: 'ok', data: inner });
    const r = await mock.pgw(['order', 'update', 'OD1', '--pan', 'ABCDE1234F']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(inner);
  });

  it('innermostData unwraps every envelope level and nothing else', () => {
    expect(innermostData({ success: true, message: 'm', data: { success: true, message: 'm', data: { order_id: 'OD1' } } })).toEqual({ order_id: 'OD1' });
    expect(innermostData({ order_id: 'OD1', data: 1 })).toEqual({ order_id: 'OD1', data: 1 });
  });

  it('a gateway error: exit 1 with its message', async () => {
    mock.reply('PATCH', '/pg/orders/OD1/', 400, { success: false, error: { code: 'ERR_ORDER_009', message: 'Order cannot be updated' } });
    const r = await mock.pgw(['order', 'update', 'OD1', '--pan', 'ABCDE1234F', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Order cannot be updated (ERR_ORDER_009)');
  });
});

describe('production confirmation', () => {
  const nested = { success: true, message: 'order updated successfully', data: { success: true, message: 'order updated successfully', data: { order_id: 'OD1' } } };

  it('update: off a terminal without --yes: exit 6, nothing sent', async () => {
    const r = await mock.pgw(['order', 'update', 'OD1', '--pan', 'ABCDE1234F'], { env: { PGW_BASE_URL: PRODUCTION } });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('PRODUCTION');
    expect(r.stderr).toContain('needs --yes');
  });

  it('update: --yes sends', async () => {
    const seen = mock.reply('PATCH', '/pg/orders/OD1/', 200, nested, PRODUCTION);
    const r = await mock.pgw(['order', 'update', 'OD1', '--pan', 'ABCDE1234F', '--yes'], { env: { PGW_BASE_URL: PRODUCTION } });
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(1);
  });

  it('update: asked in a terminal; no means nothing is sent (exit 6)', async () => {
    const no = fakePrompter({ kind: 'confirm', message: /update order OD1 on PRODUCTION/, answer: false });
    const r = await mock.pgw(['order', 'update', 'OD1', '--pan', 'ABCDE1234F'], { tty: true, prompter: no, env: { PGW_BASE_URL: PRODUCTION } });
    expect(r.code).toBe(6);
    no.assertDone();
    const yes = fakePrompter({ kind: 'confirm', answer: true });
    mock.reply('PATCH', '/pg/orders/OD1/', 200, nested, PRODUCTION);
    const ok = await mock.pgw(['order', 'update', 'OD1', '--pan', 'ABCDE1234F', '--json'], { tty: true, prompter: yes, env: { PGW_BASE_URL: PRODUCTION } });
    expect(ok.code).toBe(0);
    yes.assertDone();
  });

  it('create: refused without --yes off a terminal, sent with it; a dry run needs no confirmation', async () => {
    const args = ['order', 'create', ...orderFlags()];
    const refused = await mock.pgw(args, { env: { PGW_BASE_URL: PRODUCTION } });
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('create an order of 1500.00 INR needs --yes');
    const dry = await mock.pgw([...args, '--dry-run'], { env: { PGW_BASE_URL: PRODUCTION } });
    expect(dry.code).toBe(0);
    mock.reply('POST', '/pg/orders/', 200, { success: true, message: 'checkout session created', data: { order_id: 'OD2', session_id: 's' } }, PRODUCTION);
    const ok = await mock.pgw([...args, '--yes'], { env: { PGW_BASE_URL: PRODUCTION } });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ order_id: 'OD2', session_id: 's' });
  });

  it('create: asked in a terminal after the fields, before sending', async () => {
    const prompter = fakePrompter(
      { kind: 'select', message: 'How will the buyer pay', answer: 'hosted_payment' },
      { message: 'Buyer name', answer: 'Asha' },
      { kind: 'select', message: 'Send this order', answer: 'send' },
      { kind: 'confirm', message: /create an order of 1500\.00 INR on PRODUCTION/, answer: false },
    );
    const all = orderFlags();
    const i = all.indexOf('--buyer-name');
    all.splice(i, 2);
    const r = await mock.pgw(['order', 'create', ...all], { tty: true, prompter, env: { PGW_BASE_URL: PRODUCTION } });
    expect(r.code).toBe(6);
    prompter.assertDone();
  });
});
