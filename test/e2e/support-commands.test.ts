// The support commands of issue 14 (run in-process: the commands are the subject, not the
// process), on both targets the contract names: the embedded default (profile local, local-psp)
// and a separate `pgw sandbox serve` process reached over HTTP with credentials in the environment. Each JSON answer is checked against the gateway's own
// data, read with a raw request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';

interface Account { client_id: string; client_secret: string; merchant_id: string; psp: boolean }

let dir: string;
let served: ChildProcess;
let serveInfo: { base_url: string; accounts: Account[] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-support-'));
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

describe.each(targets)('$name', (t) => {
  it('refund create → refund get → settle mark debits it → its settlement and the settlements list', async () => {
    const seeded = await json(t, ['sandbox', 'seed', '--payments', '2']);
    const [p1, p2] = seeded as string[];
    const order = await json(t, ['order', 'get', (await json(t, ['payment', 'get', p1!])).order.order_id]);
    expect(order.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([p1]);
    expect(order.status).toBe('payment_successful');

    const refund = await json(t, ['refund', 'create', p1!, '--amount', '100']);
    expect(refund).toMatchObject({ refund_id: expect.stringMatching(/^RF[0-9]{10}$/), refund_amount: 100, refund_status: 'initiated', payment_id: p1 });
    const alias = await json(t, ['sandbox', 'refund', p2!, '--amount', '5']);
    expect(alias).toMatchObject({ refund_id: expect.stringMatching(/^RF/), refund_amount: 5 });
    const got = await json(t, ['refund', 'get', refund.refund_id]);
    expect(got).toEqual({ ...refund, settlement: { settlement_status: 'PENDING', settlement_details: null } });

    const marked = await json(t, ['settle', 'mark', p1!, '--refund', refund.refund_id]);
    const after = await json(t, ['refund', 'get', refund.refund_id, alias.refund_id]);
    expect(after.map((r: any) => r.settlement.settlement_status)).toEqual(['SETTLED', 'PENDING']);
    expect(after[0].settlement.settlement_details.settlement_id).toBe(marked.settlement_id);
    const payment = await json(t, ['payment', 'get', p1!]);
    expect(payment.refund.map((r: { refund_id: string }) => r.refund_id)).toEqual([refund.refund_id]);

    const list = await json(t, ['settle', 'list', '--all']);
    expect(list.map((s: { settlement_id: string }) => s.settlement_id)).toContain(marked.settlement_id);
    const today = new Date().toISOString().slice(0, 10);
    const filtered = await json(t, ['settle', 'list', '--from', today, '--to', today, '--page-size', '1']);
    expect(filtered).toHaveLength(1);
  });

  it('link create → list → extend → deactivate (with --yes) → get reads it expired', async () => {
    const link = await json(t, ['link', 'create', '--amount', '1499', '--product-description', 'Annual plan', '--buyer-name', 'Jane Roe', '--expires-in', '2d']);
    expect(link).toMatchObject({ link_id: expect.stringMatching(/^PR[0-9]{10}$/), amount: '1499.00', status: 'active', payment_link: expect.stringMatching(/\/p\/[A-Za-z0-9_-]+\/$/) });
    const listed = await json(t, ['link', 'list', '--page-size', '100']);
    expect(listed[0]).toMatchObject({ payment_id: link.link_id, amount: '1499.00', buyer: { name: 'Jane Roe' } });
    const extended = await json(t, ['link', 'extend', link.link_id, '--expires-in', '5d']);
    expect(Date.parse(extended.expiry_date)).toBeGreaterThan(Date.parse(link.expiry_date));
    const refused = await pgwInProcess(['link', 'deactivate', link.link_id], { env: t.env() });
    expect(refused.code).toBe(6);
    await json(t, ['link', 'deactivate', link.link_id, '--yes']);
    expect((await json(t, ['link', 'get', link.link_id])).status).toBe('expired');
  });

  it('merchant get: the sub-merchant with kyc_status, account masked; a table for several', async () => {
    const subs = await json(t, ['merchant', 'list'], true);
    const one = await json(t, ['merchant', 'get', subs[0].id], true);
    expect(one).toMatchObject({ id: subs[0].id, kyc_status: subs[0].kyc_status, settlement_details: { bank_account_number: expect.stringMatching(/^\*+[0-9]{4}$/) } });
    const table = await pgwInProcess(['merchant', 'get', subs[0].id, subs[1].id, '-o', 'table'], { env: t.env(true) });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(subs[1].id);
    // issue 22 item 4: the table's short form is `••••` and the last four digits; the rest never shows.
    expect(table.stdout).toMatch(/••••6789/);
    expect(table.stdout).not.toContain('000123456789');
  });

  // issue 13 item 7: the dry run refuses what the real call refuses.
  it('settle mark --dry-run refuses a settled refund and one that does not exist; passes a fresh one', async () => {
    const [p1, p2, p3] = (await json(t, ['sandbox', 'seed', '--payments', '3'])) as string[];
    const settledRefund = (await json(t, ['refund', 'create', p1!, '--amount', '10'])).refund_id;
    await json(t, ['settle', 'mark', p1!, '--refund', settledRefund]);
    const fresh = (await json(t, ['refund', 'create', p2!, '--amount', '20'])).refund_id;

    const settled = await pgwInProcess(['settle', 'mark', p2!, '--refund', `${settledRefund}=10.00`, '--dry-run', '--json'], { env: t.env() });
    expect(settled.code).toBe(1);
    expect(JSON.parse(settled.stderr).error.details.refund_uids).toEqual([expect.stringMatching(new RegExp(`^${settledRefund} is already settled \\(in ST[0-9]{10}\\)$`))]);
    const missing = await pgwInProcess(['settle', 'mark', p2!, '--refund', 'RF0000000000=10.00', '--dry-run', '--json'], { env: t.env() });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error.details.refund_uids).toEqual(['RF0000000000 not found']);
    const real = await pgwInProcess(['settle', 'mark', p2!, '--refund', 'RF0000000000', '--json'], { env: t.env() });
    expect(real.code).toBe(1); // the real call agrees

    const ok = await pgwInProcess(['settle', 'mark', p2!, p3!, '--refund', fresh, '--dry-run', '--json'], { env: t.env() });
    expect(ok.code, ok.stderr).toBe(0);
    const predicted = JSON.parse(ok.stdout);
    const marked = await json(t, ['settle', 'mark', p2!, p3!, '--refund', fresh]);
    expect(marked.settlement_amount).toBe(predicted.settlement_amount);
  });

  it('a missing ID is exit 5, the rows that worked still printed', async () => {
    const r = await pgwInProcess(['order', 'get', 'OD00000000000000', '--json'], { env: t.env() });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
  });
});
