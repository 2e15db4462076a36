// "I was charged twice for INV-7781" (issue 33 items 5-7), the commands run in-process on the
// embedded sandbox: a reference where an ID belongs names the search that finds it; a trailing *
// finds both charges; a full refund shows where the payment is shown; money has one form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';
import { runCli } from '../helpers/run.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';

let dir: string;
const env = () => ({ PGW_CONFIG_DIR: join(dir, 'config') });
const pgw = (args: string[]) => pgwInProcess(args, { env: env() });

async function json(args: string[]): Promise<any> {
  const r = await pgw([...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

/** A paid order of 2499.00 under this reference and invoice number: [order_id, payment_id]. */
async function paidOrder(reference: string, invoice: string): Promise<[string, string]> {
  const file = join(dir, `${reference}.json`);
  const template = JSON.parse((await pgw(['order', 'create', '--print-template'])).stdout);
  writeFileSync(file, JSON.stringify({ ...template, reference_id: reference, amount: '2499', invoice: { ...template.invoice, number: invoice } }));
  const order = await json(['order', 'create', '--file', file]);
  const payment = await json(['sandbox', 'pay', order.order_id]);
  return [order.order_id, payment.payment_id];
}

let first: [string, string];
let second: [string, string];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-support-desk-'));
  first = await paidOrder('INV-7781-1', 'INV-A1');
  second = await paidOrder('INV-7781-2', 'INV-A2');
  await paidOrder('INV-77810', 'INV-B'); // starts with INV-7781 too: a prefix is a prefix
  await paidOrder('XINV-7781-3', 'INV-C'); // contains it, does not start with it
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a customer reference where an ID belongs', () => {
  it('order get INV-7781: exit 2, nothing sent, the search that finds it named', async () => {
    const r = await pgw(['order', 'get', 'INV-7781']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('INV-7781 is not an order ID');
    expect(r.stderr).toContain('pgw payment list --reference-id INV-7781');
    expect(r.stderr).not.toMatch(/not found/i);
  });

  it('on a terminal, the hint names the invoice search and the prefix, quoted for the shell', async () => {
    const r = await runCli(['order', 'get', 'INV-7781'], { env: env(), tty: true, columns: 200 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: INV-7781 is not an order ID (OD…): to find it by the merchant\'s own reference, pgw payment list --reference-id INV-7781');
    expect(r.stderr).toContain("hint: by invoice number: pgw payment list --invoice-number INV-7781; near references: pgw payment list --reference-id 'INV-7781*'");
  });

  it('payment get, refund get, link get and settle get refuse it with their own search', async () => {
    const cases: [string[], string][] = [
      [['payment', 'get', 'INV-7781'], 'pgw payment list --reference-id INV-7781'],
      [['refund', 'get', 'INV-7781'], 'pgw refund list --reference-id INV-7781'],
      [['link', 'get', 'INV-7781'], 'pgw payment list --reference-id INV-7781'],
      [['settle', 'get', 'INV-7781'], 'pgw settle list'],
    ];
    for (const [args, search] of cases) {
      const r = await pgw([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(2);
      const error = JSON.parse(r.stderr).error;
      expect(error.code).toBe('NOT_AN_ID');
      expect(error.message).toContain(search);
    }
  });

  it("the help of order get, payment get and payment list says so (a walk needs no other file)", async () => {
    // Help is folded to the terminal's width: read it as one line.
    const help = async (args: string[]) => (await pgw([...args, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(await help(['order', 'get'])).toContain('pgw payment list --reference-id INV-7781');
    expect(await help(['payment', 'get'])).toContain('is not a payment ID');
    const list = await help(['payment', 'list']);
    expect(list).toContain('--invoice-number');
    expect(list).toContain("Quote it ('INV-7781*')");
  });

  it('an ID of the right form is still looked up (not found is exit 5)', async () => {
    expect((await pgw(['order', 'get', 'OD00000000000001'])).code).toBe(5);
  });
});

describe('payment list finds both charges', () => {
  it("--reference-id 'INV-7781*' lists every reference starting with INV-7781, and only those", async () => {
    const listed = await json(['payment', 'list', '--reference-id', 'INV-7781*']);
    expect(listed.map((p: any) => p.reference_id).sort()).toEqual(['INV-7781-1', 'INV-7781-2', 'INV-77810']);
    expect(listed.map((p: any) => p.payment_id)).toEqual(expect.arrayContaining([first[1], second[1]]));
    // Any case: a reference typed from a ticket.
    expect((await json(['payment', 'list', '--reference-id', 'inv-7781-*'])).length).toBe(2);
    const table = await pgw(['payment', 'list', '--reference-id', 'INV-7781-*', '-o', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('INV-7781-1');
    expect(table.stdout).toContain('INV-7781-2');
  });

  it('without the * the reference is exact (the gateway filters it)', async () => {
    expect(await json(['payment', 'list', '--reference-id', 'INV-7781'])).toEqual([]);
    expect((await json(['payment', 'list', '--reference-id', 'INV-7781-2'])).map((p: any) => p.payment_id)).toEqual([second[1]]);
  });

  it('a * anywhere but the end, a lone *, or --page with a prefix: exit 2', async () => {
    for (const args of [['--reference-id', 'INV*7781'], ['--reference-id', '*'], ['--reference-id', 'INV-7781*', '--page', '2']]) {
      const r = await pgw(['payment', 'list', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it('--invoice-number finds the payment by its invoice', async () => {
    const listed = await json(['payment', 'list', '--invoice-number', 'INV-A2']);
    expect(listed.map((p: any) => p.payment_id)).toEqual([second[1]]);
    expect(listed[0].invoice_number).toBe('INV-A2');
  });
});

describe('refunds show where the payment is shown; one money form', () => {
  let refundId: string;
  let partialId: string;

  beforeAll(async () => {
    refundId = (await json(['refund', 'create', first[1]])).refund_id; // the whole 2499.00
    partialId = (await json(['refund', 'create', second[1], '--amount', '100'])).refund_id;
  }, 30_000);

  it('order get shows the fully refunded payment as refunded, with the refund', async () => {
    const r = await pgw(['order', 'get', first[0], '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/captured · refunded 2499\.00/);
    expect(r.stdout).toContain('Refunds and chargebacks (1)');
    expect(r.stdout).toMatch(new RegExp(`${refundId}\\s.*refund\\s.*${first[1]}\\s.*2499\\.00\\s.*INR\\s.*initiated`));
    // JSON is the gateway's own: the entry carries the refund as Get Payment does.
    const order = await json(['order', 'get', first[0]]);
    expect(order.payments[0].refund.map((x: any) => x.refund_id)).toEqual([refundId]);
    expect(order.payments[0].refund[0].refund_amount).toBe(2499);
  });

  it.skipIf(!hasTmux)('at 80 columns in a terminal: the refunded status and the refund fit, nothing wider', async () => {
    const session = startPgw(['order', 'get', first[0]], { env: env(), columns: 80, rows: 60 });
    try {
      expect(await session.exited()).toBe(0);
      const screen = session.screen();
      expect(screen).toContain('captured · refunded 2499.00');
      expect(screen).toContain(refundId);
      expect(screen).toMatch(/│\s+2499\.00 │/);
      for (const line of screen.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    } finally {
      session.close();
    }
  });

  it('payment get shows it too, in the status and the refunds section', async () => {
    const r = await pgw(['payment', 'get', first[1], '-o', 'table']);
    expect(r.stdout).toMatch(/status\s+captured · refunded 2499\.00/);
    expect(r.stdout).toMatch(new RegExp(`${refundId}\\s+2499\\.00 INR\\s+initiated`));
    const several = await pgw(['payment', 'get', first[1], second[1], '-o', 'table']);
    expect(several.stdout).toContain('captured · refunded 2499.00');
    expect(several.stdout).toContain('captured · refunded 100.00');
  });

  it('refund get: 2 decimals, never 100 INR', async () => {
    const r = await pgw(['refund', 'get', partialId, '-o', 'table']);
    expect(r.stdout).toMatch(/amount\s+100\.00 INR/);
    expect(r.stdout).toMatch(/reference_id\s+INV-7781-2/);
    expect(r.stdout).not.toMatch(/\b100 INR/);
    const table = await pgw(['refund', 'get', partialId, refundId, '-o', 'table']);
    expect(table.stdout).toMatch(/│\s+100\.00 │ INR\s+│/);
    expect(table.stdout).toMatch(/│\s+2499\.00 │ INR\s+│/);
    // JSON keeps the gateway's value.
    expect((await json(['refund', 'get', partialId])).refund_amount).toBe(100);
  });

  it('refund list: the table and the CSV in the same form, with the payment reference', async () => {
    const table = await pgw(['refund', 'list', '-o', 'table']);
    expect(table.stdout).toMatch(/│\s+100\.00 │ INR\s+│/);
    expect(table.stdout).toContain('INV-7781-2');
    const csv = (await pgw(['refund', 'list', '-o', 'csv'])).stdout.trim().split('\r\n');
    const head = csv[0]!.split(',');
    expect(head).toContain('reference_id');
    const rows = csv.slice(1).map((line) => Object.fromEntries(line.split(',').map((v, i) => [head[i], v])));
    const partial = rows.find((row) => row.refund_id === partialId)!;
    expect(partial).toMatchObject({ refund_amount: '100.00', currency: 'INR', reference_id: 'INV-7781-2', payment_id: second[1] });
    expect(rows.find((row) => row.refund_id === refundId)).toMatchObject({ refund_amount: '2499.00', reference_id: 'INV-7781-1' });
  });

  it('refund simulate prints the same form, with the currency as refund get does', async () => {
    const r = await pgw(['refund', 'simulate', partialId, '--status', 'PROCESSING', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/amount\s+100\.00 INR\n/);
    expect((await pgw(['refund', 'get', partialId, '-o', 'table'])).stdout).toMatch(/amount\s+100\.00 INR\n/);
  });

  it('payment list: amount with 2 decimals, the currency in its own column (table and CSV)', async () => {
    const table = await pgw(['payment', 'list', '--reference-id', 'INV-7781-1', '-o', 'table']);
    expect(table.stdout).toMatch(/│\s+2499\.00 │ INR\s+│/);
    const csv = (await pgw(['payment', 'list', '--reference-id', 'INV-7781-1', '-o', 'csv'])).stdout.split('\r\n');
    expect(csv[1]).toContain(',2499.00,INR,');
  });

  it('refund create --reason: exit 2, one line, nothing sent', async () => {
    const before = (await json(['refund', 'list'])).length;
    const r = await pgw(['refund', 'create', second[1], '--amount', '1', '--reason', 'charged twice']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('the gateway has no refund reason field');
    expect((await json(['refund', 'list'])).length).toBe(before);
    const help = await pgw(['refund', 'create', '--help']);
    expect(help.stdout).toContain('There is no --reason');
  });
});
