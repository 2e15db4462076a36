// Create Payment Link as the vendor's newest links file describes it (vendor N9): expiry_date
// without an offset is UTC and null means the default; preferred_payment_method (any case),
// business_model, purpose_code, buyer.send_sms/send_email and product.hs_code are taken; an
// invoice number is letters and digits only. Checked on the sandbox and through the CLI's file check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from './harness.js';
import { pgwInProcess } from '../helpers/in-process.js';

const DAY = 86_400_000;
let h: Harness;
let sandboxNow: number;
const dir = mkdtempSync(join(tmpdir(), 'pgw-link-vendor-'));
beforeAll(async () => {
  h = await startHarness({ pollWebhooks: false });
  expect((await h.call('POST', '/sandbox/clock/', { body: { set: '2029-03-01T00:00:00Z' } })).status).toBe(200);
  sandboxNow = Date.parse((await h.call('GET', '/sandbox/clock/')).body.data.now);
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const link = (extra: Record<string, unknown> = {}) => ({
  amount: '1500.00',
  reference_id: `lv${Math.random().toString(36).slice(2, 12)}`,
  product: { description: 'Annual plan', type_of_goods: 'service' },
  ...extra,
});

describe('Create Payment Link: what the vendor documents (N9)', () => {
  it('an expiry_date without an offset is read as UTC, on create and on extend', async () => {
    const created = await h.call('POST', '/pg/payment-links/', { body: link({ expiry_date: '2029-03-10T18:29:59' }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.expiry_date).toBe('2029-03-10T18:29:59.000000Z');
    const extended = await h.call('POST', `/pg/payment-links/${created.body.data.link_id}/extend_expiry/`, { body: { expiry_date: '2029-03-20T06:00' } });
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(extended.body.data.expiry_date).toBe('2029-03-20T06:00:00.000000Z');
  });

  it('expiry_date null is the default lifetime, 365 days on the sandbox clock', async () => {
    const created = await h.call('POST', '/pg/payment-links/', { body: link({ expiry_date: null }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The sandbox clock runs on from where it was set: a few seconds at most have passed.
    const lifetime = Date.parse(created.body.data.expiry_date) - sandboxNow;
    expect(lifetime).toBeGreaterThanOrEqual(365 * DAY);
    expect(lifetime).toBeLessThan(365 * DAY + 60_000);
  });

  it('takes preferred_payment_method in any case, business_model, purpose_code, send_sms/send_email and an 8-digit hs_code', async () => {
    const created = await h.call('POST', '/pg/payment-links/', {
      body: link({
        preferred_payment_method: 'upi',
        business_model: 'B2C',
        purpose_code: 'S0802',
        buyer: { name: 'Rahul', email: 'rahul@example.com', phone: '+919876543210', send_sms: true, send_email: false },
        product: { name: 'Headphones', description: 'Wireless', type_of_goods: 'physical_goods', hs_code: '85183000', hs_code_description: null },
        invoice: { number: 'INV2026000124' },
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it('refuses, naming each field: an unknown method, a business model, an hs_code, an invoice number with a hyphen', async () => {
    const refused = await h.call('POST', '/pg/payment-links/', {
      body: link({
        preferred_payment_method: 'cash',
        business_model: 'B2X',
        product: { description: 'x', hs_code: '8518' },
        invoice: { number: 'INV-2026/1' },
      }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('ERR_ORDER_002');
    const details = refused.body.error.details;
    expect(details.preferred_payment_method).toMatch(/UPI, CARD, CREDIT_CARD, DEBIT_CARD, NET_BANKING/);
    expect(details.business_model).toBe('must be B2B or B2C');
    expect(details['product.hs_code']).toBe('must be an 8-digit HS code');
    expect(details['invoice.number']).toMatch(/only letters and digits/);
  });

  it('the CLI takes a file with the new fields and a zone-less expiry (dry run: nothing sent)', async () => {
    const file = join(dir, 'link.json');
    writeFileSync(file, JSON.stringify(link({ expiry_date: '2099-01-01T00:00:00', preferred_payment_method: 'Net_Banking', business_model: 'B2B', purpose_code: 'P0103', buyer: { send_sms: true } })));
    const r = await pgwInProcess(['link', 'create', '--file', file, '--dry-run', '--json'], { env: { PGW_CONFIG_DIR: join(dir, 'cfg') } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body).toMatchObject({ preferred_payment_method: 'Net_Banking', expiry_date: '2099-01-01T00:00:00' });
  });

  it('the CLI refuses an invoice number with a hyphen before sending anything (exit 2)', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(link({ invoice: { number: 'INV-1' } })));
    const r = await pgwInProcess(['link', 'create', '--file', file, '--dry-run'], { env: { PGW_CONFIG_DIR: join(dir, 'cfg') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invoice\.number/);
    expect(r.stdout).toBe('');
  });
});
