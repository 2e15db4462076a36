// Virtual bank accounts, the commands run in-process, on the embedded sandbox (vendor 11.7): create
// → transfer → PAYMENT_SUCCESSFUL in the delivery log with utr and virtual_account_id → the
// account's payments and the one by UTR → a duplicate UTR refused → an inactive account's credit
// recorded as failed; and every refusal, each with its exit code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';
import { hasTmux, startPgw } from '../helpers/tmux.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-vba-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pgw = (args: string[], input?: string) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir }, input });
async function json(...args: string[]): Promise<any> {
  const r = await pgw([...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

describe('pgw vba and pgw sandbox vba transfer (vendor 11.7)', () => {
  it('create → transfer → PAYMENT_SUCCESSFUL with utr and account → payments, by UTR → duplicate 409 → inactive: a failed credit', async () => {
    const [vba] = await json('vba', 'create', '--remitter', '000123456789:hdfc0001234', '--remitter', '555566667777', '--max-amount', '100000');
    const id = vba.virtual_account_id as string;
    expect(vba).toMatchObject({ vba_status: 'ACTIVE', remitter_lock_details: { allowed_remitters: [{ account_number: '000123456789', ifsc: 'HDFC0001234' }, { account_number: '555566667777' }] }, amount_lock_details: { max_amount: 100000 } });
    expect((await json('vba', 'get', id)).uid).toBe(vba.uid);
    expect((await json('vba', 'list', '--status', 'active')).map((v: any) => v.virtual_account_id)).toContain(id);

    const utr = `UTRE2E${process.pid}`;
    const credit = await json('sandbox', 'vba', 'transfer', id, '--amount', '25000', '--utr', utr, '--remitter-account', '123456789', '--remitter-ifsc', 'HDFC0001234', '--remarks', 'INV-1');
    expect(credit).toMatchObject({ status: 'captured', settlement_status: 'action_required', status_message: null });

    const events = await json('events', 'list');
    const ev = events.find((e: any) => e.event_type === 'PAYMENT_SUCCESSFUL');
    expect(ev, JSON.stringify(events)).toBeDefined();
    const detail = await json('events', 'get', ev.id);
    expect(detail.payload.data).toMatchObject({ payment_id: credit.payment_id, utr, virtual_account_id: id, amount: 25000, payment_message: 'INV-1' });

    const payments = await json('vba', 'payments', id);
    expect(payments).toEqual([expect.objectContaining({ payment_id: credit.payment_id, status: 'CAPTURED', amount: 25000, payment_utr: utr, buyer_account_number: '123456789', buyer_ifsc: 'HDFC0001234' })]);
    expect((await json('vba', 'payments', id, '--utr', utr)).payment_id).toBe(credit.payment_id);
    expect((await json('payment', 'get', credit.payment_id)).settlement_status).toBe('ACTION_REQUIRED');

    const dup = await pgw(['sandbox', 'vba', 'transfer', id, '--amount', '1', '--utr', utr, '--json']);
    expect([dup.code, dup.stdout]).toEqual([1, '']);
    expect(JSON.parse(dup.stderr).error).toMatchObject({ code: 'ERR_VBA_003', status: 409 });
    expect(await json('vba', 'payments', id)).toHaveLength(1);

    // A sender outside the list: still recorded, as failed (exit 0, the reason on stderr).
    const outsider = await pgw(['sandbox', 'vba', 'transfer', id, '--amount', '10', '--utr', `${utr}X`, '-o', 'table']);
    expect(outsider.code).toBe(0);
    expect(outsider.stdout).toMatch(/failed\s+Remitter not in allow-list/);
    expect(outsider.stderr).toContain('recorded as failed: Remitter not in allow-list');

    const off = await pgw(['api', 'PATCH', `/pg/vba/${id}/`, '--data', '-'], JSON.stringify({ status: 'INACTIVE' }));
    expect(off.code, off.stderr).toBe(0);
    const refused = await json('sandbox', 'vba', 'transfer', id, '--amount', '10', '--utr', `${utr}Y`, '--remitter-account', '123456789', '--remitter-ifsc', 'HDFC0001234');
    expect(refused).toMatchObject({ status: 'failed', settlement_status: 'not_applicable', status_message: 'VBA is inactive' });
    const failedEvents = (await json('events', 'list')).filter((e: any) => e.event_type === 'PAYMENT_FAILED');
    const failed = await Promise.all(failedEvents.map((e: any) => json('events', 'get', e.id)));
    expect(failed.map((d: any) => d.payload.data)).toContainEqual(expect.objectContaining({ payment_id: refused.payment_id, message: 'VBA is inactive', utr: `${utr}Y`, virtual_account_id: id }));
    expect((await json('vba', 'payments', id)).map((p: any) => p.status)).toEqual(['FAILED', 'FAILED', 'CAPTURED']);
    expect((await json('vba', 'payments', id, '--since', credit.payment_id)).map((p: any) => p.payment_id)).toEqual([refused.payment_id, expect.any(String)]);
    expect(await json('vba', 'payments', id, '--from', '2999-01-01')).toEqual([]);
    expect((await json('vba', 'list', '--status', 'INACTIVE')).map((v: any) => v.virtual_account_id)).toContain(id);
  });

  it('tables and csv: get, list, payments', async () => {
    const [vba] = await json('vba', 'create', '--min-amount', '100');
    const id = vba.virtual_account_id as string;
    await json('sandbox', 'vba', 'transfer', id, '--amount', '150.5', '--utr', `UTRCSV${process.pid}`);
    const shown = await pgw(['vba', 'get', id, '-o', 'table']);
    expect(shown.stdout).toContain(`Virtual account ${id}`);
    expect(shown.stdout).toMatch(/amounts\s+at least 100\.00 INR/);
    const csv = await pgw(['vba', 'payments', id, '-o', 'csv']);
    expect(csv.stdout.split(/\r?\n/)[0]).toBe('payment_id,order_id,status,amount,payment_utr,buyer_account_number,buyer_ifsc,created_at');
    expect(csv.stdout).toContain(',CAPTURED,150.50,');
    const list = await pgw(['vba', 'list', '-o', 'csv']);
    expect(list.stdout).toContain(`${id},ACTIVE,2222${id},`);
  });

  it('refusals: bad input exit 2 (nothing sent), not found exit 5, production exit 6', async () => {
    const before = (await json('vba', 'list', '--all')).length;
    for (const args of [
      ['vba', 'create', '--min-amount', '500', '--max-amount', '100'],
      ['vba', 'create', '--remitter', '1234'],
      ['vba', 'create', '--remitter', '123456789:HDFC'],
      ['vba', 'create', '--max-amount', '1.234'],
    ]) {
      const r = await pgw(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
    expect((await json('vba', 'list', '--all')).length).toBe(before);
    for (const args of [
      ['sandbox', 'vba', 'transfer', '12345678', '--utr', 'U1'],
      ['sandbox', 'vba', 'transfer', '12345678', '--amount', '10'],
      ['sandbox', 'vba', 'transfer', '12345678', '--amount', '0', '--utr', 'U1'],
      ['sandbox', 'vba', 'transfer', '12345678', '--amount', '10', '--utr', 'bad utr'],
      ['sandbox', 'vba', 'transfer', '12345678', '--amount', '10', '--utr', 'U1', '--payment-date', '28/11/2026'],
      ['sandbox', 'vba', 'transfer', 'OD12345678901234', '--amount', '10', '--utr', 'U1'],
      ['vba', 'payments', '12345678', '--from', 'yesterday'],
      ['vba', 'payments', '12345678', '--utr', 'U1', '--all'],
      ['vba', 'get', 'PR1234567890'],
      ['vba', 'list', '--status', 'closed'],
      ['vba', 'payments', '12345678', '--since', 'OD12345678901234'],
    ]) {
      const r = await pgw(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
    }
    const unknown = await pgw(['vba', 'get', '99999999']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('ERR_VBA_001');
    const [vba] = await json('vba', 'create');
    const noUtr = await pgw(['vba', 'payments', vba.virtual_account_id, '--utr', 'NOPE']);
    expect(noUtr.code).toBe(5);
    const noAccount = await pgw(['sandbox', 'vba', 'transfer', '99999999', '--amount', '10', '--utr', 'U404']);
    expect(noAccount.code).toBe(5);

    const dry = await pgw(['sandbox', 'vba', 'transfer', vba.virtual_account_id, '--amount', '10', '--utr', 'UDRY', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('POST');
    expect(dry.stdout).toContain('/pg/vba/simulate-transfer/');
    expect(dry.stdout).toContain('"remitter_ifsc": "TEST0000001"');
    expect(await json('vba', 'payments', vba.virtual_account_id)).toEqual([]);

    const add = await pgw(['profile', 'add', 'live', '--env', 'production', '--base-url', 'https://gateway.example.invalid', '--client-id', 'live_id', '--client-secret-stdin'], 'live-secret-123456\n');
    expect(add.code, add.stderr).toBe(0);
    const prod = await pgw(['-p', 'live', 'sandbox', 'vba', 'transfer', '12345678', '--amount', '10', '--utr', 'U1']);
    expect(prod.code).toBe(6);
    expect(prod.stderr).toContain('sandbox only');
    const raw = await pgw(['-p', 'live', 'api', 'POST', '/pg/vba/simulate-transfer/', '--data', '-'], '{}');
    expect(raw.code).toBe(6);
  });

  it.runIf(hasTmux)('at 80 columns the tables fit: the UTR whole, an account number never cut (dropped whole and named)', async () => {
    const [vba] = await json('vba', 'create');
    const id = vba.virtual_account_id as string;
    const utr = `UTR-LONG-REFERENCE-${process.pid}-2026`;
    await json('sandbox', 'vba', 'transfer', id, '--amount', '1234567.89', '--utr', utr, '--remitter-account', '123456789012345678901234', '--remitter-name', 'Kaveri Silks And Sarees Private Limited');
    const t = startPgw(['vba', 'payments', id], { env: { PGW_CONFIG_DIR: dir }, columns: 80 });
    try {
      expect(await t.exited()).toBe(0);
      const screen = t.screen();
      for (const line of screen.split('\n')) expect([...line].length, screen).toBeLessThanOrEqual(80);
      expect(screen).toContain(` ${utr} `);
      expect(screen).toContain('1234567.89');
      expect(screen).not.toContain('…');
      expect(screen.replace(/\n +/g, ' ')).toMatch(/columns? hidden \([^)]*remitter_account/);
    } finally {
      t.close();
    }
    const t2 = startPgw(['vba', 'list'], { env: { PGW_CONFIG_DIR: dir }, columns: 80 });
    try {
      expect(await t2.exited()).toBe(0);
      const screen = t2.screen();
      for (const line of screen.split('\n')) expect([...line].length, screen).toBeLessThanOrEqual(80);
      expect(screen).toContain(`2222${id}`);
    } finally {
      t2.close();
    }
  });
});
