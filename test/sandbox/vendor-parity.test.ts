// Where the sandbox differed from the vendor's published schemas (docs/sandbox.md "Optional keys
// and required fields"): a link without a description, nulls where the docs say an optional
// string or object, the unknown sub-merchant's details, and the sub-merchant's required
// company_details fields. Each test fails on the sandbox as it was before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBody, paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const E164 = /^\+[1-9][0-9]{6,14}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

describe('POST /pg/payment-links/ without a description', () => {
  it('is created: neither the spec nor the docs require product.description', async () => {
    const r = await h.call('POST', '/pg/payment-links/', { body: { amount: '25.00', reference_id: 'nodesc1', product: { name: 'Plan', type_of_goods: 'service' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const link = (await h.call('GET', `/pg/payment-links/${r.body.data.link_id}/`)).body.data;
    expect(link.product).toMatchObject({ name: 'Plan', type_of_goods: 'service' });
    expect(link.product).not.toHaveProperty('description');
    // No product at all: the same.
    expect((await h.call('POST', '/pg/payment-links/', { body: { amount: '25.00', reference_id: 'nodesc2' } })).status).toBe(201);
  });

  it('keeps the other rules: a bad amount or reference_id is still 400 ERR_ORDER_002', async () => {
    const r = await h.call('POST', '/pg/payment-links/', { body: { amount: '0', reference_id: 'a b' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('ERR_ORDER_002');
    expect(Object.keys(r.body.error.details).sort()).toEqual(['amount', 'reference_id']);
  });
});

describe('optional keys are left out while they have no value, never null', () => {
  it("an unpaid order without a method has no opted_mop_type (or mop_type) in its details or in Get Payment's order", async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
    const orderId = created.body.data.order_id;
    const details = (await h.call('GET', `/pg/orders/${orderId}/`)).body.data;
    expect(details).not.toHaveProperty('opted_mop_type');
    expect(details).not.toHaveProperty('mop_type');
    const paid = await h.call('POST', `/sandbox/orders/${orderId}/pay/`, { body: { outcome: 'fail' } });
    const payment = (await h.call('GET', `/pg/payments/${paid.body.data.payment_id}/`)).body.data;
    expect(payment.order).not.toHaveProperty('opted_mop_type');
  });

  it('an order with a method has both names, lowercase (C6)', async () => {
    const created = await h.call('POST', '/pg/orders/', { body: orderBody({ mop_type: 'upi' }) });
    const details = (await h.call('GET', `/pg/orders/${created.body.data.order_id}/`)).body.data;
    expect(details).toMatchObject({ opted_mop_type: 'upi', mop_type: 'upi' });
  });

  it("a failed payment's entry in order details has no settlement; a captured one has its object", async () => {
    const failed = await paidOrder(h, '30.00', { outcome: 'fail' });
    await h.call('POST', `/sandbox/orders/${failed.orderId}/pay/`, { body: { outcome: 'success' } });
    const d = (await h.call('GET', `/pg/orders/${failed.orderId}/`)).body.data;
    const [captured, failedEntry] = d.payments;
    expect(failedEntry.payment_id).toBe(failed.paymentId);
    expect(failedEntry).not.toHaveProperty('settlement');
    expect(captured.settlement).toMatchObject({ status: 'pending', settlement_details: null });
  });

  it("PAYMENT_FAILED's bank_ref_num is a string (required there): <order_id>-<payment_id>", async () => {
    const failed = await paidOrder(h, '31.00', { outcome: 'fail' });
    const [summary] = (await h.call('GET', `/sandbox/events/?event_type=PAYMENT_FAILED&about=${failed.paymentId}`)).body.data;
    const event = (await h.call('GET', `/sandbox/events/${summary.id}/`)).body.data.payload;
    expect(event.data.bank_ref_num).toBe(`${failed.orderId}-${failed.paymentId}`);
    // Get Payment may say null (nullable there, vendor 3.2): the payment has no bank reference.
    expect((await h.call('GET', `/pg/payments/${failed.paymentId}/`)).body.data.bank_ref_num).toBeNull();
  });
});

describe('an unknown sub-merchant', () => {
  it('answers 404 ERR_MERCHANT_001 with details an object naming merchant_id, on get, update and the kyc setter', async () => {
    const id = '1000000001';
    const expected = { code: 'ERR_MERCHANT_001', message: 'Validation error', details: { merchant_id: `${id} not found` } };
    for (const [method, path, body] of [
      ['GET', `/partners/merchants/${id}/`, undefined],
      ['PATCH', `/partners/merchants/${id}/`, { company_details: { tax_id: 'X' } }],
      ['POST', `/sandbox/merchants/${id}/kyc/`, { kyc_status: 'APPROVED' }],
    ] as const) {
      const r = await h.call(method, path, { as: 'psp', body });
      expect([r.status, r.body.error], `${method} ${path}`).toEqual([404, expected]);
    }
  });
});

describe("sub-merchants' company_details fields the docs require (vendor 7.1)", () => {
  const subs = async () => (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string }[];

  it('seeded sub-merchants have email, phone_number and description_of_products_and_services', async () => {
    const seeded = (await subs()).slice(0, 2);
    expect(seeded).toHaveLength(2);
    for (const { id } of seeded) {
      const c = (await h.call('GET', `/partners/merchants/${id}/`, { as: 'psp' })).body.data.company_details;
      expect(c.email, id).toMatch(EMAIL);
      expect(c.phone_number, id).toMatch(E164);
      expect(c.description_of_products_and_services, id).toMatch(/\S/);
    }
  });

  it("one created without them answers its PSP's contact and an empty description; given ones are its own", async () => {
    const body = {
      settlement_details: { bank_account_number: '123456789012', bank_account_name: 'Quiet LLC', bank_name: 'Chase', bank_country: 'United States' },
      company_details: {
        legal_name: 'Quiet LLC', brand_name: 'Quiet', registration_number: 'R-1', international_org_type: 'Private Limited Company', tax_id: 'T-1',
        website: 'https://quiet.example', monthly_avg_transaction_volume: '10', same_as_registered_address: true, registered_address: '1 Main St',
        registered_city: 'Austin', registered_state: 'TX', registered_country: 'United States', registered_pincode: '78701',
        business_category: 'goods_merchant', business_mode: 'b2b',
      },
    };
    const created = await h.call('POST', '/partners/merchants/', { as: 'psp', body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    const pspContact = { email: 'partners@demo-psp.example', phone_number: '+912240000002' };
    expect(created.body.data.company_details).toMatchObject({ ...pspContact, description_of_products_and_services: '' });
    const got = (await h.call('GET', `/partners/merchants/${id}/`, { as: 'psp' })).body.data;
    expect(got.company_details).toMatchObject({ ...pspContact, description_of_products_and_services: '' });
    expect(got.contact).toEqual(pspContact);

    // An update that gives them replaces the stand-ins.
    const own = { email: 'ops@quiet.example', phone_number: '+15125550100', description_of_products_and_services: 'Quiet keyboards' };
    expect((await h.call('PATCH', `/partners/merchants/${id}/`, { as: 'psp', body: { company_details: own } })).status).toBe(200);
    expect((await h.call('GET', `/partners/merchants/${id}/`, { as: 'psp' })).body.data.company_details).toMatchObject(own);
  });
});
