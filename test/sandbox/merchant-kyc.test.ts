// Partner merchants as vendor 7 describes them, over real HTTP: created PENDING (201) with email
// and phone kept; the sandbox kyc control and MERCHANT_APPROVED; updates only while PENDING or
// CHANGES_REQUESTED (ERR_MERCHANT_001 naming the status); the list's search and ordering.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let receiver: Server;
const received: { type: string; data: Record<string, any> }[] = [];
let nowMs = Date.parse('2026-11-20T10:00:00.000Z');

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const e = JSON.parse(body);
      received.push({ type: e.event_type ?? e.event, data: e.data });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  h = await startHarness({ clock: () => new Date(nowMs) });
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await h.call('POST', '/sandbox/webhooks/', { body: { url }, as: 'psp' })).status).toBeLessThan(300);
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => receiver.close(r));
});

function body(brand: string, company: Record<string, unknown> = {}): any {
  return {
    settlement_details: { bank_account_number: '987654321012', bank_account_name: `${brand} LLC`, bank_name: 'Chase', bank_country: 'United States', routing_number: '021000021' },
    company_details: {
      legal_name: `${brand} Legal LLC`,
      brand_name: brand,
      registration_number: 'REG-1',
      international_org_type: 'Private Limited Company',
      tax_id: 'TAX-1',
      website: 'https://brand.example',
      monthly_avg_transaction_volume: 'BETWEEN_5_K_AND_20_K',
      same_as_registered_address: true,
      registered_address: '1 Main St',
      registered_city: 'Austin',
      registered_state: 'Texas',
      registered_country: 'United States',
      registered_pincode: '78701',
      business_category: 'SaaS / subscriptions / recurring billing',
      business_mode: 'b2b',
      ...company,
    },
  };
}

const kyc = (id: string, status: string, as: 'psp' | 'merchant' = 'psp') => h.call('POST', `/sandbox/merchants/${id}/kyc/`, { body: { kyc_status: status }, as });
const patch = (id: string) => h.call('PATCH', `/partners/merchants/${id}/`, { as: 'psp', body: { company_details: { tax_id: 'TAX-2' } } });

describe('partner merchants (vendor 7)', () => {
  it('create: 201, PENDING, email and phone_number kept and returned; bad ones refused with ERR_MERCHANT_001', async () => {
    const r = await h.call('POST', '/partners/merchants/', { as: 'psp', body: body('Kestrel', { email: 'ops@kestrel.example', phone_number: '+14155550100' }) });
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('Sub-merchant created successfully');
    expect(r.body.merchant_id).toBe(r.body.data.id);
    expect(r.body.data).toMatchObject({ kyc_status: 'PENDING', company_details: { email: 'ops@kestrel.example', phone_number: '+14155550100' }, last_updated_at: expect.any(String) });
    const got = await h.call('GET', `/partners/merchants/${r.body.data.id}/`, { as: 'psp' });
    expect(got.body.data.company_details).toMatchObject({ email: 'ops@kestrel.example', phone_number: '+14155550100' });
    const bad = await h.call('POST', '/partners/merchants/', { as: 'psp', body: body('Bad', { email: 'nope', phone_number: '555' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('ERR_MERCHANT_001');
    expect(Object.keys(bad.body.error.details).sort()).toEqual(['company_details.email', 'company_details.phone_number']);
    const notPsp = await h.call('POST', '/partners/merchants/', { body: body('X') });
    expect(notPsp.status).toBe(403);
    expect(notPsp.body.error).toMatchObject({ code: 'ERR_AUTH_003', message: 'This endpoint is only accessible to PSP merchants', details: { authentication: expect.any(String) } });
  });

  it('kyc: PENDING → IN_REVIEW (update refused) → CHANGES_REQUESTED (update accepted) → APPROVED fires MERCHANT_APPROVED once', async () => {
    const id = (await h.call('POST', '/partners/merchants/', { as: 'psp', body: body('Osprey') })).body.data.id as string;
    expect((await patch(id)).status).toBe(200);
    nowMs += 1000;
    expect((await kyc(id, 'in_review')).body.data).toMatchObject({ merchant_id: id, kyc_status: 'IN_REVIEW', previous_kyc_status: 'PENDING' });
    const refused = await patch(id);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'ERR_MERCHANT_001',
      message: 'Validation error',
      details: { kyc_status: `${id} is IN_REVIEW: a sub-merchant can be updated only while PENDING or CHANGES_REQUESTED` },
    });
    expect((await kyc(id, 'CHANGES_REQUESTED')).status).toBe(200);
    expect((await patch(id)).status).toBe(200);
    nowMs += 1000;
    const approved = await kyc(id, 'APPROVED');
    expect(approved.body.data.kyc_status).toBe('APPROVED');
    await kyc(id, 'APPROVED');
    expect((await patch(id)).body.error.details.kyc_status).toContain('is APPROVED');
    expect((await h.call('GET', `/partners/merchants/${id}/`, { as: 'psp' })).body.data.kyc_status).toBe('APPROVED');
    for (let i = 0; i < 300 && !received.some((e) => e.data.merchant_id === id); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    const events = received.filter((e) => e.data.merchant_id === id);
    expect(events).toEqual([
      { type: 'MERCHANT_APPROVED', data: { approved_at: approved.body.data.last_updated_at, merchant_id: id, legal_name: 'Osprey Legal LLC', trade_name: 'Osprey' } },
    ]);
  });

  it('kyc control: a status outside the five is refused; only the owning PSP may move it', async () => {
    const id = (await h.call('POST', '/partners/merchants/', { as: 'psp', body: body('Heron') })).body.data.id as string;
    expect((await kyc(id, 'DONE')).status).toBe(400);
    expect((await kyc(id, 'APPROVED', 'merchant')).status).toBe(403);
    expect((await kyc('1000000000', 'APPROVED')).status).toBe(404);
  });

  it('list: search by brand or legal name, ordering by created_at or last_updated_at either way', async () => {
    const names = (r: any) => r.body.data.results.map((m: any) => m.brand_name);
    expect(names(await h.call('GET', '/partners/merchants/?search=kestrel', { as: 'psp' }))).toEqual(['Kestrel']);
    expect(names(await h.call('GET', '/partners/merchants/?search=OSPREY%20legal', { as: 'psp' }))).toEqual(['Osprey']);
    const newest = names(await h.call('GET', '/partners/merchants/?ordering=-created_at', { as: 'psp' }));
    expect(newest[0]).toBe('Heron');
    const updated = names(await h.call('GET', '/partners/merchants/?ordering=-last_updated_at&search=e', { as: 'psp' }));
    expect(updated[0]).toBe('Heron');
    expect((await h.call('GET', '/partners/merchants/?ordering=name', { as: 'psp' })).body.error.code).toBe('ERR_MERCHANT_001');
    const listed = (await h.call('GET', '/partners/merchants/?search=kestrel', { as: 'psp' })).body.data.results[0];
    expect(listed).toMatchObject({ kyc_status: 'PENDING', created_date: expect.any(String), created_at: listed.created_date });
  });
});
