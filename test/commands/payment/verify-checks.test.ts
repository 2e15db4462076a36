// issue 42 items 2-3 on the embedded default (in-process): pgw payment verify checks every rule it
// can know before its first upload (uploads are immutable: a bad invoice_date must not cost one),
// every problem at once; a payment whose state takes nothing is refused saying what the state
// means; a purpose code not enabled is refused naming the enabled ones; pgw sandbox purpose-codes
// lists and moves them; the merchant template's purpose code is one the checklists take; payment
// get shows what a send-back asks.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../helpers/run.js';

const config = tempConfigDir();
const invoice = join(config.dir, 'invoice.pdf');
let open: string;

const pgw = (argv: string[]) => runCli(argv, { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' } });
async function json<T = any>(...argv: string[]): Promise<T> {
  const r = await pgw([...argv, '--json']);
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}
/** The requests a run sent (-v logs each on stderr as `> METHOD url`). */
const sent = (stderr: string) => [...stderr.matchAll(/^> (GET|POST|PATCH|PUT|DELETE) \S+/gm)].map((m) => m[0].slice(2));

beforeAll(async () => {
  writeFileSync(invoice, '%PDF-1.4\n% a test invoice\n');
  open = (await json('trigger', 'PAYMENT_SUCCESSFUL', '--amount', '1000')).payment_id;
  await json('sandbox', 'verification', open, 'ACTION_REQUIRED');
  await json('payment', 'verify', open, '--field', 'business_model=B2B', '--field', 'purpose_code=S0802');
});
afterAll(() => config.cleanup());

describe('pgw payment verify: checked before the first upload', () => {
  it('every bad value at once, exit 2, and only reads were sent: no upload', async () => {
    const r = await pgw([
      'payment', 'verify', open, '-v',
      '--field', 'invoice_date=28/11/2026',
      '--field', 'buyer_postal_code=10115',
      '--field', 'buyer_email=not-an-email',
      '--field', 'buyer_phone=030 1234',
      '--field', 'invoice_amount=ten',
      '--document', 'invoice=' + invoice,
      '-o', 'table',
    ]);
    expect(r.code).toBe(2);
    for (const why of ['invoice_date=28/11/2026: Enter a valid date (YYYY-MM-DD).', 'buyer_postal_code=10115: Enter a valid Indian PIN code.', 'Enter a valid email address.', 'Enter a valid phone number with its country code', 'Must be a decimal string in rupees']) {
      expect(r.stderr).toContain(why);
    }
    expect(sent(r.stderr)).toEqual([]);
  });

  it('a code not on the checklist is caught after one read, before any upload', async () => {
    const r = await pgw(['payment', 'verify', open, '-v', '--field', 'remitter_pan=ABCDE1234F', '--document', `invoice=${invoice}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("remitter_pan is not on this payment's checklist");
    expect(sent(r.stderr).every((s) => s.startsWith('GET '))).toBe(true);
  });

  it('a valid answer uploads, submits, and names what is still owed as the next command', async () => {
    const r = await pgw(['payment', 'verify', open, '--field', 'invoice_date=2026-11-28', '--document', `invoice=${invoice}`, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^next: pgw payment verify PR\d{10} --field buyer_address_line_1=<value> .* --field declaration=true$/m);
    expect(r.stderr).not.toContain('invoice=<file>');
  });
});

describe('a payment that takes no details, and purpose codes', () => {
  it('READY_FOR_SETTLEMENT: one line, and a refusal that says what the state means, with the way to open a review', async () => {
    const card = (await json('trigger', 'PAYMENT_SUCCESSFUL')).payment_id as string;
    const shown = await pgw(['payment', 'verification', card, '-o', 'table']);
    expect(shown.stdout).toBe(`${card} is READY_FOR_SETTLEMENT: it needs no verification (none was opened, or it passed): nothing is owed, and it settles as it is\n`);
    const r = await pgw(['payment', 'verify', card, '-v', '--field', 'business_model=B2B', '--field', 'purpose_code=S0802', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${card} is READY_FOR_SETTLEMENT: it needs no verification`);
    expect(r.stderr).not.toContain('has been filed');
    expect(r.stderr).toContain(`hint: to try the compliance flow on it, open a review on pgw's sandbox: pgw sandbox verification ${card} ACTION_REQUIRED`);
    expect(sent(r.stderr).every((s) => s.startsWith('GET '))).toBe(true);
    // The gateway's own answer says the same: nothing was filed.
    const raw = await runCli(['api', 'POST', `/pg/payments/${card}/verification/`, '--data', '-', '--json'], { env: { PGW_CONFIG_DIR: config.dir }, input: '{"fields":{"business_model":"B2B","purpose_code":"S0802"}}' });
    expect(raw.code).toBe(1);
    expect(JSON.parse(raw.stderr).error.details.details).toBe(`${card} is READY_FOR_SETTLEMENT: it takes no verification details (nothing was filed; only ACTION_REQUIRED and INFO_PENDING do).`);
  });

  it('a purpose code not enabled is refused naming the enabled ones; purpose-codes lists, disables and enables', async () => {
    const listed = await json('sandbox', 'purpose-codes');
    expect(listed.enabled).toEqual(expect.arrayContaining(['S0802', 'S0305']));
    expect((await json('sandbox', 'purpose-codes', 'disable', 's0803')).disabled).toEqual(['S0803']);
    const id = (await json('trigger', 'PAYMENT_SUCCESSFUL')).payment_id as string;
    await json('sandbox', 'verification', id, 'ACTION_REQUIRED');
    const r = await pgw(['payment', 'verify', id, '--field', 'business_model=B2B', '--field', 'purpose_code=S0803']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/purpose_code S0803 is not enabled for this account: enabled for this account: S0802, S1005/);
    expect(r.stderr).toContain('pgw sandbox purpose-codes enable S0803');
    const p0802 = await pgw(['payment', 'verify', id, '--field', 'business_model=B2B', '--field', 'purpose_code=P0802']);
    expect(p0802.stderr).toContain('purpose_code P0802 is not enabled');
    expect((await json('sandbox', 'purpose-codes', 'enable', 'S0803')).disabled).toEqual([]);
    expect((await pgw(['payment', 'verify', id, '--field', 'business_model=B2B', '--field', 'purpose_code=S0803'])).code).toBe(0);
    expect((await pgw(['sandbox', 'purpose-codes', 'enable', 'S9999'])).code).toBe(2);
  });

  it("the merchant template's purpose code is one the checklists take, enabled by default", async () => {
    const template = await pgw(['merchant', 'create', '--print-template']);
    const code = JSON.parse(template.stdout).company_details.purpose_code as string;
    expect((await json('sandbox', 'purpose-codes')).enabled).toContain(code);
  });
});

describe('pgw payment get: what a send-back asks (item 2)', () => {
  it("shows the reviewer's last message, what it asks for and the deadline under Settlement", async () => {
    const id = (await json('trigger', 'PAYMENT_SUCCESSFUL', '--amount', '800')).payment_id as string;
    await json('sandbox', 'verification', id, 'ACTION_REQUIRED');
    await json('sandbox', 'verification', id, 'UNDER_REVIEW');
    await json('sandbox', 'verification', id, 'ACTION_REQUIRED', '--message', 'Send the signed invoice');
    const r = await pgw(['payment', 'get', id, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/last message +Send the signed invoice \(\d{4}-\d\d-\d\dT[^,]+, VERIFICATION_NEEDED\)/);
    expect(r.stdout).toMatch(/asks for +business_model, purpose_code/);
    expect(r.stdout).toMatch(/deadline +\d{4}-\d\d-\d\dT\S+ \(then it expires and is refunded in full\)/);
  });
});
