// Virtual bank accounts (vendor 11.7, 11.10 P6) over real HTTP: every operation, every refusal
// with its HTTP status, the credit's rules, its event (signed like every event) and what
// Get Payment shows of it.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import { openRaw } from '../helpers/sqlite.js';

let h: Harness;
let prod: Harness;
let receiver: Server;
const received: { headers: Record<string, unknown>; raw: string }[] = [];
beforeAll(async () => {
  h = await startHarness();
  prod = await startHarness({ production: true });
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, raw });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const added = await h.call('POST', '/sandbox/webhooks/', { body: { url: `http://127.0.0.1:${port}/hook` } });
  expect(added.status).toBeLessThan(300);
});
afterAll(async () => {
  await h.close();
  await prod.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const code = (r: { body: any }) => r.body?.error?.code;
let utrs = 0;
const utr = () => `UTRT${process.pid}${++utrs}`;

async function createVba(body: unknown = {}, as?: 'psp'): Promise<any> {
  const r = await h.call('POST', '/pg/vba/', { body, as });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data[0];
}

function transfer(id: string, over: Record<string, unknown> = {}, target: Harness = h) {
  return target.call('POST', '/pg/vba/simulate-transfer/', {
    body: { virtual_account_id: id, vba_simulation: { amount: 1000, utr: utr(), remitter_name: 'Asha', remitter_account: '000123456789', remitter_ifsc: 'HDFC0001234', ...over } },
  });
}

async function waitFor<T>(fn: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('create, list, get, edit, status (vendor 11.7.1-11.7.3)', () => {
  it('create answers 200 with an array of one ACTIVE account with the P6 ids; the body may be empty', async () => {
    const r = await h.call('POST', '/pg/vba/');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('VBA created successfully');
    expect(Array.isArray(r.body.data)).toBe(true);
    const v = r.body.data[0];
    expect(v).toMatchObject({ vba_status: 'ACTIVE', remitter_lock_details: null, amount_lock_details: null, vba_ifsc: 'PGWS0000001', vba_bank_code: 'PGWSBX' });
    expect(v.virtual_account_id).toMatch(/^[1-9][0-9]{7}$/);
    expect(v.uid).toMatch(/^VBA[0-9]{10}$/);
    expect(v.vba_account_number).toBe(`2222${v.virtual_account_id}`);
  });

  it('locks are validated as 11.7.1: 400 ERR_VBA_002 with the field', async () => {
    const bad = [
      [{ amount_lock_details: { min_amount: 500, max_amount: 100 } }, 'amount_lock_details.min_amount'],
      [{ amount_lock_details: { min_amount: -1 } }, 'amount_lock_details.min_amount'],
      [{ amount_lock_details: { max_amount: 1.234 } }, 'amount_lock_details.max_amount'],
      [{ remitter_lock_details: { allowed_remitters: [{ account_number: '12345678' }] } }, 'remitter_lock_details.allowed_remitters.0.account_number'],
      [{ remitter_lock_details: { allowed_remitters: [{ account_number: '123456789', ifsc: 'HDFC1234' }] } }, 'remitter_lock_details.allowed_remitters.0.ifsc'],
      [{ remitter_lock_details: { allowed_remitters: [] } }, 'remitter_lock_details.allowed_remitters'],
    ] as const;
    for (const [body, field] of bad) {
      const r = await h.call('POST', '/pg/vba/', { body });
      expect([r.status, code(r), r.body.error.message], JSON.stringify(body)).toEqual([400, 'ERR_VBA_002', 'Validation error']);
      expect(r.body.error.details, JSON.stringify(body)).toHaveProperty([field]);
    }
  });

  it('get and list (vba_status filter, paging); another merchant\'s account is 404 ERR_VBA_001', async () => {
    const v = await createVba({ amount_lock_details: { min_amount: 10, max_amount: 100 } });
    const got = await h.call('GET', `/pg/vba/${v.virtual_account_id}/`);
    expect([got.status, got.body.message]).toEqual([200, 'VBA details fetched successfully']);
    expect(got.body.data).toEqual(v);
    const list = await h.call('GET', '/pg/vba/?vba_status=ACTIVE&page_size=1');
    expect(list.body.message).toBe('Request processed successfully.');
    expect(list.body.data).toMatchObject({ page: 1, page_size: 1, previous: null });
    expect(list.body.data.results).toHaveLength(1);
    expect(list.body.data.next).toContain('vba_status=ACTIVE');
    expect(Object.keys(list.body.data.results[0]).sort()).toEqual(['uid', 'vba_account_name', 'vba_account_number', 'vba_bank_code', 'vba_ifsc', 'vba_status', 'virtual_account_id']);
    const badStatus = await h.call('GET', '/pg/vba/?vba_status=CLOSED');
    expect([badStatus.status, code(badStatus)]).toEqual([400, 'ERR_VBA_002']);
    const foreign = await h.call('GET', `/pg/vba/${v.virtual_account_id}/`, { as: 'psp' });
    expect([foreign.status, code(foreign)]).toEqual([404, 'ERR_VBA_001']);
    const none = await h.call('GET', '/pg/vba/99999999/');
    expect([none.status, code(none), none.body.error.details]).toEqual([404, 'ERR_VBA_001', { virtual_account_id: '99999999 not found' }]);
  });

  it('PUT edits only what is given (none: 400); PATCH moves ACTIVE ↔ INACTIVE (anything else: 400)', async () => {
    const v = await createVba();
    const path = `/pg/vba/${v.virtual_account_id}/`;
    const empty = await h.call('PUT', path, { body: {} });
    expect([empty.status, code(empty)]).toEqual([400, 'ERR_VBA_002']);
    const noIfsc = await h.call('PUT', path, { body: { remitter_lock_details: { allowed_remitters: [{ account_number: '123456789' }] } } });
    expect([noIfsc.status, code(noIfsc)]).toEqual([400, 'ERR_VBA_002']);
    const named = await h.call('PUT', path, { body: { virtual_account_name: 'Collections' } });
    expect([named.status, named.body.message]).toEqual([200, 'VBA updated successfully']);
    expect(named.body.data).toMatchObject({ vba_account_name: 'Collections', remitter_lock_details: null });
    const locked = await h.call('PUT', path, { body: { remitter_lock_details: { allowed_remitters: [{ account_number: '123456789', ifsc: 'HDFC0001234' }] } } });
    expect(locked.body.data).toMatchObject({ vba_account_name: 'Collections', remitter_lock_details: { allowed_remitters: [{ account_number: '123456789', ifsc: 'HDFC0001234' }] } });

    const bad = await h.call('PATCH', path, { body: { status: 'CLOSED' } });
    expect([bad.status, code(bad)]).toEqual([400, 'ERR_VBA_002']);
    const off = await h.call('PATCH', path, { body: { status: 'INACTIVE' } });
    expect([off.status, off.body.message, off.body.data.vba_status]).toEqual([200, 'VBA status updated successfully', 'INACTIVE']);
    expect(off.body.data).toHaveProperty('remitter_lock_details');
    const inactive = (await h.call('GET', '/pg/vba/?vba_status=INACTIVE')).body.data.results.map((x: any) => x.virtual_account_id);
    expect(inactive).toContain(v.virtual_account_id);
    const on = await h.call('PATCH', path, { body: { status: 'ACTIVE' } });
    expect(on.body.data.vba_status).toBe('ACTIVE');
    const foreign = await h.call('PATCH', path, { body: { status: 'INACTIVE' }, as: 'psp' });
    expect([foreign.status, code(foreign)]).toEqual([404, 'ERR_VBA_001']);
  });
});

describe('simulate-transfer (vendor 11.7.6, 11.10 P6)', () => {
  it('a captured credit: shape (a), the order unclassified, Get Payment ACTION_REQUIRED, PAYMENT_SUCCESSFUL signed with utr and virtual_account_id', async () => {
    const v = await createVba();
    const u = utr();
    const r = await transfer(v.virtual_account_id, { utr: u, amount: 2500.5, remarks: 'INV-77', bank_txn_number: 'BTX1' });
    expect([r.status, r.body.message]).toEqual([200, 'VBA transfer simulation processed']);
    expect(r.body.data).toEqual({
      payment_id: expect.stringMatching(/^PR[0-9]{10}$/),
      order_id: expect.stringMatching(/^OD[0-9]{14}$/),
      reference_id: expect.stringMatching(/^VBA-[0-9]{12}$/),
      status: 'captured',
      settlement_status: 'action_required',
      status_message: null,
    });
    const p = (await h.call('GET', `/pg/payments/${r.body.data.payment_id}/`)).body.data;
    expect(p).toMatchObject({ status: 'captured', settlement_status: 'ACTION_REQUIRED', bank_ref_num: 'BTX1', mop_type: 'bank_transfer' });
    expect(p.order).toMatchObject({ order_id: r.body.data.order_id, reference_id: r.body.data.reference_id, amount: '2500.50', status: 'payment_successful' });
    // 11.10 P1: unclassified, for the verification step to ask for.
    const raw = openRaw(h.dbPath);
    try {
      expect(raw.prepare('SELECT business_model, purpose_code FROM orders WHERE order_id = ?').get(r.body.data.order_id)).toEqual({ business_model: null, purpose_code: null });
    } finally {
      raw.close();
    }

    const hook = await waitFor(() => received.find((x) => JSON.parse(x.raw).data?.payment_id === r.body.data.payment_id));
    const event = JSON.parse(hook.raw);
    expect(event.event_type).toBe('PAYMENT_SUCCESSFUL');
    expect(event.data).toMatchObject({ utr: u, virtual_account_id: v.virtual_account_id, amount: 2500.5, status: 'captured', payment_message: 'INV-77' });
    const key = (await h.call('GET', '/sandbox/encryption-key/')).body.data.encryption_key as string;
    expect(hook.headers['x-webhook-signature']).toBe(createHmac('sha256', key).update(hook.raw).digest('hex'));
    // vendor 11.7.7: VERIFICATION_NEEDED follows, naming the classification, signed the same way.
    const vn = await waitFor(() => received.find((x) => JSON.parse(x.raw).event_type === 'VERIFICATION_NEEDED' && JSON.parse(x.raw).data.payment_id === r.body.data.payment_id));
    expect(JSON.parse(vn.raw).data.action_required_fields).toEqual(['business_model', 'purpose_code']);
    expect(vn.headers['x-webhook-signature']).toBe(createHmac('sha256', key).update(vn.raw).digest('hex'));
  });

  it('each broken rule is a failed credit, still recorded, with its message and PAYMENT_FAILED', async () => {
    const v = await createVba({ remitter_lock_details: { allowed_remitters: [{ account_number: '123456789', ifsc: 'HDFC0001234' }] }, amount_lock_details: { min_amount: 100, max_amount: 3_000_000 } });
    const id = v.virtual_account_id;
    // Leading zeros and case do not matter (11.7.1).
    expect((await transfer(id, { remitter_account: '000123456789', remitter_ifsc: 'hdfc0001234' })).body.data.status).toBe('captured');
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 2_500_000.01 }, 'Amount exceeds 25 lacs limit'],
      [{ remitter_account: '987654321' }, 'Remitter not in allow-list'],
      [{ remitter_ifsc: 'ICIC0001234' }, 'Remitter not in allow-list'],
      [{ amount: 99.99 }, 'Amount outside allowed range'],
    ];
    for (const [over, message] of cases) {
      const r = await transfer(id, over);
      expect([r.status, r.body.data.status, r.body.data.settlement_status, r.body.data.status_message], message).toEqual([200, 'failed', 'not_applicable', message]);
      const p = (await h.call('GET', `/pg/payments/${r.body.data.payment_id}/`)).body.data;
      expect(p).toMatchObject({ status: 'failed', settlement_status: 'NOT_APPLICABLE', status_message: message });
      const hook = await waitFor(() => received.find((x) => JSON.parse(x.raw).data?.payment_id === r.body.data.payment_id));
      expect(JSON.parse(hook.raw)).toMatchObject({ event_type: 'PAYMENT_FAILED', data: { message, virtual_account_id: id, status: 'failed' } });
    }
    await h.call('PATCH', `/pg/vba/${id}/`, { body: { status: 'INACTIVE' } });
    const inactive = await transfer(id);
    expect([inactive.body.data.status, inactive.body.data.status_message]).toEqual(['failed', 'VBA is inactive']);
  });

  it('refusals: 400 missing or non-positive fields, 404 not this merchant\'s, 409 duplicate utr (nothing created), 403 in production', async () => {
    const v = await createVba();
    const id = v.virtual_account_id;
    for (const over of [{ amount: 0 }, { amount: -5 }, { utr: '' }, { remitter_name: '' }, { remitter_account: undefined }]) {
      const r = await transfer(id, over);
      expect([r.status, code(r)], JSON.stringify(over)).toEqual([400, 'ERR_VBA_002']);
    }
    const missing = await h.call('POST', '/pg/vba/simulate-transfer/', { body: { virtual_account_id: id } });
    expect([missing.status, code(missing)]).toEqual([400, 'ERR_VBA_002']);
    expect(missing.body.error.details).toHaveProperty(['vba_simulation']);
    const foreign = await transfer(id, {}, h).then(() => h.call('POST', '/pg/vba/simulate-transfer/', { as: 'psp', body: { virtual_account_id: id, vba_simulation: { amount: 1, utr: utr(), remitter_name: 'A', remitter_account: '123456789', remitter_ifsc: 'X' } } }));
    expect([foreign.status, code(foreign)]).toEqual([404, 'ERR_VBA_001']);

    const u = utr();
    const first = await transfer(id, { utr: u });
    const before = (await h.call('GET', `/pg/vba/${id}/payments/`)).body.data.count;
    const again = await transfer(id, { utr: u, amount: 5 });
    expect([again.status, code(again), again.body.error.details]).toEqual([409, 'ERR_VBA_003', { utr: `${u} was already credited (${first.body.data.payment_id})` }]);
    expect((await h.call('GET', `/pg/vba/${id}/payments/`)).body.data.count).toBe(before);

    const p = await prod.call('POST', '/pg/vba/', {});
    const inProd = await transfer(p.body.data[0].virtual_account_id, {}, prod);
    expect([inProd.status, code(inProd)]).toEqual([403, 'ERR_VBA_004']);
  });
});

describe("the account's payments (vendor 11.7.4) and one by UTR (11.7.5)", () => {
  it('newest first, uppercase status, amount a number; created_at bounds, since_id (400 if not this account\'s), paging', async () => {
    const v = await createVba({ amount_lock_details: { max_amount: 1000 } });
    const id = v.virtual_account_id;
    const a = (await transfer(id, { amount: 10, utr: 'UA1', remitter_account: '123456789', remitter_ifsc: 'SBIN0000001' })).body.data;
    const b = (await transfer(id, { amount: 2000, utr: 'UB1' })).body.data;
    const c = (await transfer(id, { amount: 30, utr: 'UC1' })).body.data;
    const list = await h.call('GET', `/pg/vba/${id}/payments/`);
    expect([list.status, list.body.message]).toEqual([200, 'VBA payments retrieved successfully']);
    expect(list.body.data.results.map((x: any) => x.payment_id)).toEqual([c.payment_id, b.payment_id, a.payment_id]);
    expect(list.body.data.results[2]).toEqual({
      payment_id: a.payment_id,
      order_id: a.order_id,
      status: 'CAPTURED',
      amount: 10,
      payment_utr: 'UA1',
      buyer_account_number: '123456789',
      buyer_ifsc: 'SBIN0000001',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    expect(list.body.data.results[1].status).toBe('FAILED');

    const since = await h.call('GET', `/pg/vba/${id}/payments/?since_id=${a.payment_id}`);
    expect(since.body.data.results.map((x: any) => x.payment_id)).toEqual([c.payment_id, b.payment_id]);
    const other = await createVba();
    const foreignSince = await h.call('GET', `/pg/vba/${other.virtual_account_id}/payments/?since_id=${a.payment_id}`);
    expect([foreignSince.status, code(foreignSince)]).toEqual([400, 'ERR_VBA_002']);

    const bCreated = list.body.data.results[1].created_at;
    const window = await h.call('GET', `/pg/vba/${id}/payments/?created_at_start=${encodeURIComponent(bCreated.slice(0, 23) + 'Z')}&created_at_end=${encodeURIComponent(bCreated.slice(0, 23) + 'Z')}`);
    // The window is a millisecond wide: b, unless another credit shares its millisecond.
    expect(window.body.data.results.map((x: any) => x.payment_id)).toContain(b.payment_id);
    expect(window.body.data.results.map((x: any) => x.payment_id)).not.toContain(a.payment_id);
    const badTime = await h.call('GET', `/pg/vba/${id}/payments/?created_at_start=yesterday`);
    expect([badTime.status, code(badTime)]).toEqual([400, 'ERR_VBA_002']);
    const page2 = await h.call('GET', `/pg/vba/${id}/payments/?page=2&page_size=2`);
    expect(page2.body.data).toMatchObject({ count: 3, page: 2, page_size: 2, next: null });
    expect(page2.body.data.results.map((x: any) => x.payment_id)).toEqual([a.payment_id]);
    const badSize = await h.call('GET', `/pg/vba/${id}/payments/?page_size=1001`);
    expect([badSize.status, code(badSize)]).toEqual([400, 'ERR_VBA_002']);
    const none = await h.call('GET', '/pg/vba/99999999/payments/');
    expect([none.status, code(none)]).toEqual([404, 'ERR_VBA_001']);

    const one = await h.call('GET', `/pg/vba/${id}/payment-by-utr/?utr=UB1`);
    expect([one.status, one.body.message, one.body.data]).toEqual([200, 'VBA payment retrieved successfully', list.body.data.results[1]]);
    const noUtr = await h.call('GET', `/pg/vba/${id}/payment-by-utr/`);
    expect([noUtr.status, code(noUtr)]).toEqual([400, 'ERR_VBA_002']);
    const unknown = await h.call('GET', `/pg/vba/${id}/payment-by-utr/?utr=NOPE`);
    expect([unknown.status, code(unknown)]).toEqual([404, 'ERR_PAYMENT_005']);
    const elsewhere = await h.call('GET', `/pg/vba/${other.virtual_account_id}/payment-by-utr/?utr=UB1`);
    expect(elsewhere.status).toBe(404);
  });
});
