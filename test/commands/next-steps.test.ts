// issue 42 item 4: a next step after every step of the sandbox, onboarding and compliance flows,
// as a `next:` line on stderr that is the command alone (it pastes), on the embedded default.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';

const config = tempConfigDir();
afterAll(() => config.cleanup());

const pgw = (argv: string[], profile = 'local') => runCli(['-p', profile, ...argv, '-o', 'table'], { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' } });
async function json<T = any>(...argv: string[]): Promise<T> {
  const r = await runCli([...argv, '--json'], { env: { PGW_CONFIG_DIR: config.dir } });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}
/** The next: lines of a run. */
const nexts = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('next: ')).map((l) => l.slice(6));

describe('next: after each step', () => {
  it('sandbox pay: settle what was captured; pay again what failed', async () => {
    const template = (await runCli(['order', 'create', '--print-template'], { env: { PGW_CONFIG_DIR: config.dir } })).stdout;
    const file = `${config.dir}/order.json`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, template);
    const failed = (await json('order', 'create', '--file', file, '--reference-id', 'next-1')).order_id as string;
    expect(nexts((await pgw(['sandbox', 'pay', failed, '--fail'])).stderr)).toEqual([`pgw sandbox pay ${failed}`]);
    const paid = await pgw(['sandbox', 'pay', failed]);
    expect(nexts(paid.stderr)).toEqual([expect.stringMatching(/^pgw settle mark PR\d{10}$/)]);
  });

  it('vba create, then a transfer into it, then its verification', async () => {
    const created = await pgw(['vba', 'create']);
    const [transfer] = nexts(created.stderr);
    expect(transfer).toMatch(/^pgw sandbox vba transfer \d+ --amount 25000 --utr UTR\d+$/);
    const moved = await pgw(transfer!.split(' ').slice(1));
    expect(moved.code, moved.stderr).toBe(0);
    expect(nexts(moved.stderr)).toEqual([expect.stringMatching(/^pgw payment verification PR\d{10}$/)]);
  });

  it('the review: a send-back points at what is owed; in review at the answer; expired at the refund', async () => {
    const id = (await json('trigger', 'PAYMENT_SUCCESSFUL')).payment_id as string;
    expect(nexts((await pgw(['sandbox', 'verification', id, 'ACTION_REQUIRED'])).stderr)).toEqual([`pgw payment verification ${id}`]);
    expect(nexts((await pgw(['sandbox', 'verification', id, 'UNDER_REVIEW'])).stderr)).toEqual([`pgw sandbox verification ${id} VERIFIED`]);
    expect(nexts((await pgw(['sandbox', 'verification', id, 'EXPIRED'])).stderr)).toEqual([`pgw refund list --payment-id ${id}`]);
  });

  it('payment verify that files the set: the reviewer\'s answer, on the sandbox', async () => {
    const id = (await json('trigger', 'PAYMENT_SUCCESSFUL', '--amount', '1000')).payment_id as string;
    await json('sandbox', 'verification', id, 'ACTION_REQUIRED');
    const { writeFileSync } = await import('node:fs');
    const pdf = `${config.dir}/inv.pdf`;
    writeFileSync(pdf, '%PDF-1.4\n');
    const fields = { business_model: 'B2B', purpose_code: 'S0802', buyer_address_line_1: '1 Main St', buyer_city: 'Pune', buyer_state: 'MH', buyer_postal_code: '411001', invoice_number: `INV${Date.now()}`, invoice_date: '2026-11-01', invoice_amount: '1000.00', declaration: 'true' };
    const r = await pgw(['payment', 'verify', id, ...Object.entries(fields).flatMap(([k, v]) => ['--field', `${k}=${v}`]), '--document', `invoice=${pdf}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/status +in_review/);
    expect(nexts(r.stderr)).toEqual([`pgw sandbox verification ${id} VERIFIED`]);
  });

  it('merchant create (a PSP): approve its KYC; once approved: take a payment for it', async () => {
    const template = (await runCli(['merchant', 'create', '--print-template'], { env: { PGW_CONFIG_DIR: config.dir } })).stdout;
    const file = `${config.dir}/merchant.json`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, template);
    const created = await pgw(['merchant', 'create', '--file', file], 'local-psp');
    expect(created.code, created.stderr).toBe(0);
    const [approve] = nexts(created.stderr);
    expect(approve).toMatch(/^pgw sandbox merchant kyc \d+ APPROVED$/);
    const approved = await pgw(approve!.split(' ').slice(1), 'local-psp');
    expect(nexts(approved.stderr)).toEqual([expect.stringMatching(/^pgw -m \d+ link create --amount 1500 --product-description '<what is sold>'$/)]);
  });

  it('webhook add: make an event for it', async () => {
    expect(nexts((await pgw(['sandbox', 'webhook', 'add', 'http://127.0.0.1:9/hook'])).stderr)).toEqual(['pgw trigger PAYMENT_SUCCESSFUL']);
  });
});
