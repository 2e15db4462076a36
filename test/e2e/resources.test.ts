// Issue 20 through the command line (run in-process), on both targets: the embedded default
// (profiles local, local-psp) and a separate `pgw sandbox serve` process reached over HTTP with
// credentials in the environment. Refund lifecycle and list, payment search, order status, settlement recon and
// -o csv, sub-merchant kyc.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';
import { parseCsv } from '../helpers/csv.js';

interface Account { client_id: string; client_secret: string; merchant_id: string; psp: boolean }

let dir: string;
let served: ChildProcess;
let serveInfo: { base_url: string; accounts: Account[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-resources-'));
  served = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--db', join(dir, 'served.db')], { cwd: ROOT, env: { ...process.env, PGW_CONFIG_DIR: join(dir, 'serve-config') } });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    served.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    served.on('exit', () => reject(new Error('serve exited early')));
  });
  serveInfo = JSON.parse(line);
}, 30_000);

afterAll(async () => {
  const exited = new Promise((resolve) => served.on('exit', resolve));
  served.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
});

type Target = { name: string; env: (psp?: boolean) => Record<string, string> };
const targets: Target[] = [
  { name: 'embedded (profile local)', env: (psp) => ({ PGW_CONFIG_DIR: join(dir, 'embedded'), ...(psp ? { PGW_PROFILE: 'local-psp' } : {}) }) },
  {
    name: 'pgw sandbox serve',
    env: (psp) => {
      const a = serveInfo.accounts.find((x) => x.psp === (psp === true))!;
      return { PGW_CONFIG_DIR: join(dir, 'remote'), PGW_BASE_URL: serveInfo.base_url, PGW_CLIENT_ID: a.client_id, PGW_CLIENT_SECRET: a.client_secret };
    },
  },
];

async function json(t: Target, args: string[], psp = false): Promise<any> {
  const r = await pgwInProcess([...args, '--json'], { env: t.env(psp) });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

async function text(t: Target, args: string[], psp = false): Promise<string> {
  const r = await pgwInProcess(args, { env: t.env(psp) });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

describe.each(targets)('$name', (t) => {
  it('refund create → simulate through statuses → refund list (filters, csv) → settle mark refuses a failed refund', async () => {
    const [p1, p2] = (await json(t, ['sandbox', 'seed', '--payments', '2'])) as string[];
    const r1 = await json(t, ['refund', 'create', p1!, '--amount', '100']);
    expect(r1).toMatchObject({ refund_status: 'initiated', refund_amount: 100, bank_ref_num: null, refunded_at: null });
    const moved = await json(t, ['refund', 'simulate', r1.refund_id, '--status', 'refunded', '--bank-ref', 'ARN42', '--message', 'done']);
    expect(moved).toMatchObject({ refund_id: r1.refund_id, refund_status: 'refunded', message: 'done', refunded_at: expect.any(String) });
    expect(await json(t, ['refund', 'get', r1.refund_id])).toMatchObject({ refund_status: 'refunded', bank_ref_num: 'ARN42' });

    const r2 = await json(t, ['refund', 'create', p2!, '--amount', '20']);
    expect((await json(t, ['refund', 'simulate', r2.refund_id, '--status', 'FAILED'])).refund_status).toBe('failed');
    const bad = await pgwInProcess(['refund', 'simulate', r2.refund_id, '--status', 'DONE'], { env: t.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--status');
    const missing = await pgwInProcess(['refund', 'simulate', 'RF0000000000', '--status', 'FAILED'], { env: t.env() });
    expect(missing.code).toBe(5);

    const byPayment = await json(t, ['refund', 'list', '--payment-id', p1!]);
    expect(byPayment.map((r: any) => r.refund_id)).toEqual([r1.refund_id]);
    const all = await json(t, ['refund', 'list', '--all']);
    expect(all.map((r: any) => r.refund_id)).toEqual(expect.arrayContaining([r1.refund_id, r2.refund_id]));

    const csv = parseCsv(await text(t, ['refund', 'list', '--payment-id', p2!, '-o', 'csv']));
    expect(csv[0]).toEqual(['refund_id', 'payment_id', 'order_id', 'refund_amount', 'currency', 'refund_status', 'message', 'bank_ref_num', 'refunded_at', 'created_at', 'reference_id', 'settlement_status', 'settlement_id']);
    // One money form in CSV too (2 decimals; JSON keeps the gateway's 20); a failed refund will never be debited.
    expect(csv.slice(1).map((row) => [row[0], row[3], row[5], row[11], row[12]])).toEqual([[r2.refund_id, '20.00', 'failed', 'NOT_APPLICABLE', '']]);

    const refused = await pgwInProcess(['settle', 'mark', p2!, '--refund', r2.refund_id, '--json'], { env: t.env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${r2.refund_id} is failed`);
    const dry = await pgwInProcess(['settle', 'mark', p2!, '--refund', r2.refund_id, '--dry-run', '--json'], { env: t.env() });
    expect(dry.code).not.toBe(0);
    expect(dry.stderr).toContain(`${r2.refund_id} is failed`);
  });

  it('order status: payment_pending, failed, payment_successful, several as an array; an unknown order is exit 5 (ERR_ORDER_001)', async () => {
    const created = await json(t, ['order', 'create', '--amount', '150', '--currency', 'INR', '--reference-id', `st-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`, '--mode', 'hosted_payment', '--buyer-name', 'Asha Verma', '--buyer-email', 'asha@example.com', '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001', '--product-name', 'Scarf', '--goods', 'digital_goods', '--invoice-number', 'INV-9', '--invoice-date', '2026-01-15', '--return-url', 'https://shop.example/r']);
    const orderId = created.order_id as string;
    expect(await json(t, ['order', 'status', orderId])).toMatchObject({ order_id: orderId, status: 'payment_pending', created_at: expect.any(String), updated_at: expect.any(String) });
    await json(t, ['sandbox', 'pay', orderId, '--fail']);
    expect((await json(t, ['order', 'status', orderId])).status).toBe('failed');
    await json(t, ['sandbox', 'pay', orderId]);
    const [seeded] = (await json(t, ['sandbox', 'seed', '--payments', '1'])) as string[];
    const other = (await json(t, ['payment', 'get', seeded!])).order.order_id;
    const both = await json(t, ['order', 'status', orderId, other]);
    expect(both.map((s: any) => [s.order_id, s.status])).toEqual([[orderId, 'payment_successful'], [other, 'payment_successful']]);
    const missing = await pgwInProcess(['order', 'status', 'OD00000000000000'], { env: t.env() });
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('ERR_ORDER_001');
  });

  it('payment list --reference-id finds the payment in one command; filters, --all, csv', async () => {
    const [p1] = (await json(t, ['sandbox', 'seed', '--payments', '1'])) as string[];
    const payment = await json(t, ['payment', 'get', p1!]);
    const ref = payment.order.reference_id as string;
    const found = await json(t, ['payment', 'list', '--reference-id', ref]);
    expect(found.map((p: any) => p.payment_id)).toEqual([p1]);
    expect(found[0]).toMatchObject({ reference_id: ref, order_id: payment.order.order_id, status: 'captured', amount: { currency: 'INR' } });
    const byBuyer = await json(t, ['payment', 'list', '--buyer-name', payment.order.buyer.name.slice(0, 3).toUpperCase(), '--status', 'CAPTURED', '--all']);
    expect(byBuyer.map((p: any) => p.payment_id)).toContain(p1);
    const csv = parseCsv(await text(t, ['payment', 'list', '--order-id', payment.order.order_id, '-o', 'csv']));
    expect(csv[0]!.slice(0, 4)).toEqual(['payment_id', 'status', 'amount', 'currency']);
    expect(csv.slice(1).map((r) => r[0])).toEqual([p1]);
    const bad = await pgwInProcess(['payment', 'list', '--status', 'done'], { env: t.env() });
    expect(bad.code).toBe(2);
    const badDay = await pgwInProcess(['payment', 'list', '--from', '2026-11-31'], { env: t.env() });
    expect(badDay.code).toBe(2);
  });

  it('settle recon ST… -o csv: one row per transaction, a header row, amounts as the gateway gives them; csv for the other lists', async () => {
    const [p1, p2] = (await json(t, ['sandbox', 'seed', '--payments', '2'])) as string[];
    const refund = await json(t, ['refund', 'create', p1!, '--amount', '12.5']);
    const cb = await json(t, ['sandbox', 'chargeback', p2!, '--amount', '3']);
    const marked = await json(t, ['settle', 'mark', p1!, p2!, '--refund', refund.refund_id, '--chargeback', cb.chargeback_id]);
    const st = marked.settlement_id as string;
    const doc = await text(t, ['settle', 'recon', st, '-o', 'csv']);
    const rows = parseCsv(doc);
    expect(rows[0]).toEqual(['settlement_type', 'transaction_id', 'settlement_id', 'settlement_completed_at', 'settlement_currency', 'transaction_currency', 'transaction_amount', 'merchant_net_amount', 'total_processing_fee', 'total_service_tax', 'mop_type', 'created_at']);
    expect(rows).toHaveLength(5);
    const byId = new Map(rows.slice(1).map((r) => [r[1], r]));
    expect(new Set(byId.keys())).toEqual(new Set([p1, p2, refund.refund_id, cb.chargeback_id]));
    expect(byId.get(refund.refund_id)!.slice(6, 10)).toEqual(['12.50', '-12.50', '0.00', '0.00']);
    expect(byId.get(refund.refund_id)![3]).toBe('');
    const asJson = await json(t, ['settle', 'recon', st, '--all']);
    expect(asJson.find((r: any) => r.transaction_id === p1).merchant_net_amount).toBe(byId.get(p1)![7]);
    const missing = await pgwInProcess(['settle', 'recon', 'ST0000000000'], { env: t.env() });
    expect(missing.code).toBe(5);

    const settlements = parseCsv(await text(t, ['settle', 'list', '--from', marked.settlement_completed_at.slice(0, 10), '-o', 'csv']));
    expect(settlements[0]!.slice(0, 4)).toEqual(['settlement_id', 'utr_number', 'settlement_completed_date', 'settlement_amount']);
    expect(settlements.slice(1).map((r) => r[0])).toContain(st);
    const links = parseCsv(await text(t, ['link', 'list', '-o', 'csv']));
    expect(links[0]).toEqual(['link_id', 'status', 'amount', 'currency', 'reference_id', 'buyer_name', 'buyer_email', 'payment_link', 'created_at']);
    const merchants = parseCsv(await text(t, ['merchant', 'list', '-o', 'csv'], true));
    expect(merchants[0]).toEqual(['id', 'legal_name', 'brand_name', 'kyc_status', 'country', 'email', 'created_at', 'updated_at']);
    expect(merchants.length).toBeGreaterThanOrEqual(3);
  });

  it('sandbox merchant kyc: a new sub-merchant is PENDING; APPROVED; then merchant update is refused naming the status', async () => {
    const subs = await json(t, ['merchant', 'list', '--json'], true);
    const pending = subs.find((m: any) => m.kyc_status === 'PENDING') ?? subs[0];
    const moved = await json(t, ['sandbox', 'merchant', 'kyc', pending.id, 'in_review'], true);
    expect(moved).toMatchObject({ merchant_id: pending.id, kyc_status: 'IN_REVIEW' });
    const approved = await json(t, ['sandbox', 'merchant', 'kyc', pending.id, 'APPROVED'], true);
    expect(approved.kyc_status).toBe('APPROVED');
    expect((await json(t, ['merchant', 'get', pending.id], true)).kyc_status).toBe('APPROVED');
    const refused = await pgwInProcess(['merchant', 'update', pending.id, '--set', 'company_details.tax_id=TAX-9', '--json'], { env: t.env(true) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ERR_MERCHANT_001');
    expect(refused.stderr).toContain('is APPROVED');
    const bad = await pgwInProcess(['sandbox', 'merchant', 'kyc', pending.id, 'DONE'], { env: t.env(true) });
    expect(bad.code).toBe(2);
    const notPsp = await pgwInProcess(['sandbox', 'merchant', 'kyc', pending.id, 'APPROVED'], { env: t.env() });
    expect(notPsp.code).toBe(4);
    await json(t, ['sandbox', 'merchant', 'kyc', pending.id, 'PENDING'], true);
  });

  it('link list past the last page: the gateway\'s 500 with the integer code 40350 is exit 1, code shown', async () => {
    const r = await pgwInProcess(['link', 'list', '--page', '999', '--json'], { env: t.env() });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: '40350', status: 500 });
  });

  it('-o csv is refused where there is no list, before anything is sent', async () => {
    const r = await pgwInProcess(['order', 'get', 'OD0000000000', '-o', 'csv'], { env: t.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-o csv is for list and recon commands');
  });
});
