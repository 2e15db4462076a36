import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function merchantBody(brand: string): any {
  return {
    settlement_details: {
      bank_account_number: '987654321012',
      bank_account_name: `${brand} LLC`,
      bank_swift_code: 'CHASUS33',
      bank_name: 'Chase',
      bank_country: 'United States',
      routing_number: '021000021',
    },
    company_details: {
      legal_name: `${brand} LLC`,
      brand_name: brand,
      registration_number: 'REG-1',
      international_org_type: 'PRIVATE_LIMITED',
      tax_id: 'TAX-1',
      website: 'https://brand.example',
      monthly_avg_transaction_value: '10000.00',
      monthly_avg_transaction_volume: '50',
      same_as_registered_address: true,
      registered_address: '1 Main St',
      registered_city: 'Austin',
      registered_state: 'Texas',
      registered_country: 'United States',
      registered_pincode: '787010',
      business_category: 'TECHNOLOGY',
      business_mode: 'B2B',
      hs_codes: ['85176290'],
      purpose_code: 'P0802',
    },
  };
}

describe('partner operations (spec 4.8-4.10)', () => {
  it('list: count, page, page_size (250 by default), next, previous, results', async () => {
    const r = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      count: 2,
      page: 1,
      page_size: 250,
      next: null,
      previous: null,
      results: [
        { id: expect.stringMatching(/^[0-9]+$/), brand_name: 'Demo Sub-merchant One', kyc_status: 'APPROVED', created_date: expect.any(String), created_at: expect.any(String) },
        { id: expect.stringMatching(/^[0-9]+$/), brand_name: 'Demo Sub-merchant Two', kyc_status: 'PENDING', created_date: expect.any(String), created_at: expect.any(String) },
      ],
    });
  });

  it('create: the spec 2.10 response, PENDING, and listed', async () => {
    const r = await h.call('POST', '/partners/merchants/', { as: 'psp', body: merchantBody('Acme') });
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('Sub-merchant created successfully');
    expect(r.body.data).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      settlement_details: { ...merchantBody('Acme').settlement_details, settlement_currency: 'USD' },
      // Sent without contact or description: the PSP's contact and "" stand in (docs/sandbox.md).
      company_details: { ...merchantBody('Acme').company_details, email: 'partners@demo-psp.example', phone_number: '+912240000002', description_of_products_and_services: '' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_updated_at: expect.any(String),
      kyc_status: 'PENDING',
      invoice_file: null,
    });
    const list = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    expect(list.body.data.results.at(-1)).toMatchObject({ id: r.body.data.id, brand_name: 'Acme', kyc_status: 'PENDING' });
    // The new sub-merchant is immediately in the PSP's reach, but takes payments only once APPROVED
    // (vendor 7.4; issue 45): the refusal names its kyc_status, not "not found".
    const create = () =>
      h.call('POST', '/pg/orders/', {
        as: 'psp',
        headers: { 'x-merchant-id': r.body.data.id },
        body: {
          amount: '5.00', currency: 'INR', reference_id: 'acme-1', return_url: 'https://a.example/',
          buyer: { name: 'Bo', email: 'bo@a.example', phone: '+15125550100', address: { line_1: '1 Main St', city: 'Austin', state: 'Texas', postal_code: '787010' } },
          product: { name: 'App', type_of_goods: 'digital_goods' },
          invoice: { number: 'A-1' },
        },
      });
    const refused = await create();
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ERR_MERCHANT_ACCOUNT_002', message: 'Merchant account is not active', details: { kyc_status: 'PENDING' } });
    await h.call('POST', `/sandbox/merchants/${r.body.data.id}/kyc/`, { as: 'psp', body: { kyc_status: 'APPROVED' } });
    expect((await create()).status).toBe(201);
  });

  it('create: validation with details keyed by field path', async () => {
    const b = merchantBody('Bad');
    b.company_details.hs_codes = ['85176290', '123'];
    b.company_details.purpose_code = 'X0802';
    const r = await h.call('POST', '/partners/merchants/', { as: 'psp', body: b });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual({
      'company_details.hs_codes.1': 'must be an 8-digit HS code',
      'company_details.purpose_code': 'must be P or S followed by 4 digits (a FEMA purpose code), e.g. S0802',
    });
  });

  it('paging: page_size, next and previous', async () => {
    for (const brand of ['B1', 'B2', 'B3']) await h.call('POST', '/partners/merchants/', { as: 'psp', body: merchantBody(brand) });
    const first = await h.call('GET', '/partners/merchants/?page_size=2', { as: 'psp' });
    expect(first.body.data).toMatchObject({ count: 6, page: 1, page_size: 2, previous: null });
    expect(first.body.data.next).toBe(`${h.sandbox.baseUrl}/partners/merchants/?page=2&page_size=2`);
    const last = await h.call('GET', '/partners/merchants/?page=3&page_size=2', { as: 'psp' });
    expect(last.body.data).toMatchObject({ page: 3, next: null, previous: `${h.sandbox.baseUrl}/partners/merchants/?page=2&page_size=2` });
    expect(last.body.data.results.map((m: { brand_name: string }) => m.brand_name)).toEqual(['B2', 'B3']);
    const beyond = await h.call('GET', '/partners/merchants/?page=9&page_size=2', { as: 'psp' });
    expect(beyond.body.data.results).toEqual([]);
    for (const q of ['page=0', 'page=x', 'page_size=0', 'page_size=1001']) {
      const bad = await h.call('GET', `/partners/merchants/?${q}`, { as: 'psp' });
      expect(bad.status, q).toBe(400);
    }
  });

  it('update: updated_fields, merged and re-validated', async () => {
    const created = await h.call('POST', '/partners/merchants/', { as: 'psp', body: merchantBody('Upd') });
    const id = created.body.data.id;
    const r = await h.call('PATCH', `/partners/merchants/${id}/`, { as: 'psp', body: { company_details: { brand_name: 'Updated', website: 'https://new.example' } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'merchant updated successfully', data: { merchant_id: id, updated_fields: ['company_details'] } });
    const list = await h.call('GET', '/partners/merchants/?page_size=1000', { as: 'psp' });
    expect(list.body.data.results.find((m: { id: string }) => m.id === id).brand_name).toBe('Updated');

    const both = await h.call('PATCH', `/partners/merchants/${id}/`, { as: 'psp', body: { settlement_details: { bank_name: 'Citi' }, company_details: { tax_id: 'T-2' } } });
    expect(both.body.data.updated_fields).toEqual(['company_details', 'settlement_details']);

    // Switching off same_as_registered_address needs the communication address.
    const bad = await h.call('PATCH', `/partners/merchants/${id}/`, { as: 'psp', body: { company_details: { same_as_registered_address: false } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toHaveProperty('company_details.communication_address');
    const empty = await h.call('PATCH', `/partners/merchants/${id}/`, { as: 'psp', body: {} });
    expect(empty.status).toBe(400);
  });

  it('update of a merchant that is not a sub-merchant of the caller: 404 ERR_MERCHANT_001, details naming merchant_id (vendor 7.3, spec 7)', async () => {
    const id = h.merchant.merchant_id;
    const r = await h.call('PATCH', `/partners/merchants/${id}/`, { as: 'psp', body: { company_details: { tax_id: 'X' } } });
    expect(r.status).toBe(404);
    expect(r.body.error).toEqual({ code: 'ERR_MERCHANT_001', message: 'Validation error', details: { merchant_id: `${id} not found` } });
  });
});
