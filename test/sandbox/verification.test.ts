// Payment verification over real HTTP (vendor 11.2-11.4; 11.10 P1, P2, P5, P9): the checklist,
// the submit's rules and every documented refusal with its HTTP status and code type, the states
// and the compliance events, mark-settled's gate, and expiry on the sandbox clock with a refund.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, paidOrder, type Harness } from './harness.js';

let h: Harness;
let prod: Harness;
beforeAll(async () => {
  h = await startHarness();
  prod = await startHarness({ production: true });
});
afterAll(async () => {
  await h.close();
  await prod.close();
});

let utrs = 0;
const utr = () => `UTRV${process.pid}${++utrs}`;
const err = (r: { body: any }) => r.body?.error;

async function credit(amount = 1000, remitter = 'Acme GmbH'): Promise<{ payment_id: string; order_id: string }> {
  const v = await h.call('POST', '/pg/vba/', { body: {} });
  const t = await h.call('POST', '/pg/vba/simulate-transfer/', {
    body: { virtual_account_id: v.body.data[0].virtual_account_id, vba_simulation: { amount, utr: utr(), remitter_name: remitter, remitter_account: '000123456789', remitter_ifsc: 'HDFC0001234' } },
  });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  return t.body.data;
}

async function eventsAbout(id: string, type?: string): Promise<any[]> {
  const r = await h.call('GET', `/sandbox/events/?about=${id}${type ? `&event_type=${type}` : ''}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const list = r.body.data.results ?? r.body.data;
  const full = [];
  for (const e of list) full.push(JSON.parse((await h.call('GET', `/sandbox/events/${e.id}/`)).body.data.body));
  return full;
}

const B2B = { business_model: 'B2B', purpose_code: 'S0802' };
const FIELDS = {
  buyer_address_line_1: '1 Main St',
  buyer_city: 'Berlin',
  buyer_state: 'Berlin',
  buyer_postal_code: '560034',
  buyer_email: 'ap@acme.example',
  buyer_phone: '+4930123456',
  invoice_number: 'INV-1',
  invoice_date: '2026-11-01',
  invoice_amount: '1000.00',
  declaration: true,
};

function multipart(parts: { name: string; value?: string; filename?: string; content?: Buffer }[]): { raw: Buffer; headers: Record<string, string> } {
  const boundary = '----pgwtest' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `Content-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename !== undefined ? '\r\nContent-Type: application/octet-stream' : '';
    chunks.push(Buffer.from(`--${boundary}\r\n${disp}${type}\r\n\r\n`), p.content ?? Buffer.from(p.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function upload(paymentId: string, type = 'invoice', filename = 'invoice.pdf', content = PDF): Promise<{ status: number; body: any }> {
  return h.call('POST', `/pg/payments/${paymentId}/documents/`, multipart([{ name: 'type', value: type }, { name: 'file', filename, content }]));
}

describe('payment verification', () => {
  it('the upload gives a ref (201); bad types and files are 40359, an unknown payment 40360', async () => {
    const c = await credit();
    const ok = await upload(c.payment_id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ success: true, message: 'Document uploaded', data: { ref: expect.stringMatching(/^\d{10}$/), type: 'invoice' } });
    const type = await upload(c.payment_id, 'selfie');
    expect([type.status, err(type).code, err(type).details]).toEqual([400, 40359, { type: 'Unknown document type.' }]);
    const exe = await upload(c.payment_id, 'invoice', 'run.exe');
    expect([exe.status, err(exe).code, err(exe).details.type]).toEqual([400, 40359, 'Unknown document type.']);
    const locked = await upload(c.payment_id, 'invoice', 'locked.pdf', Buffer.from('%PDF-1.4 /Encrypt 5 0 R'));
    expect(err(locked).details.file).toBe('is a password-protected PDF');
    const unknown = await upload('PR0000000001');
    expect([unknown.status, err(unknown).code, typeof err(unknown).details]).toEqual([400, 40360, 'string']);
  });

  it('the scenario: classify, two submits (the second with the invoice ref), IN_REVIEW, staging closed, ERR_IMPORT_VERIFICATION_001 on a reused invoice number', async () => {
    const c = await credit();
    const path = `/pg/payments/${c.payment_id}/verification/`;
    const first = await h.call('POST', path, { body: { fields: { ...B2B, buyer_city: 'Berlin', buyer_state: 'Berlin' } } });
    expect(first.body.data.status).toBe('incomplete');
    const ref = (await upload(c.payment_id)).body.data.ref;
    const staged = await h.call('POST', path, { body: { fields: FIELDS, documents: [{ code: 'invoice', ref }], finalize: false } });
    expect(staged.body.data).toEqual({ payment_id: c.payment_id, status: 'complete', outstanding: [] });
    const filed = await h.call('POST', path, { body: {} });
    expect(filed.body.data).toEqual({ payment_id: c.payment_id, status: 'in_review', outstanding: [] });
    const g = (await h.call('GET', path)).body.data;
    expect(g.settlement_status).toBe('UNDER_REVIEW');
    expect(g.documents).toEqual([{ code: 'invoice', message: 'Invoice', satisfied: true, provided: true }]);
    const ir = (await eventsAbout(c.payment_id, 'VERIFICATION_NEEDED'))[0];
    expect(ir.data).toEqual({ payment_id: c.payment_id, order_id: c.order_id, verification_status: 'IN_REVIEW', message: 'Payment verification action required', action_required_fields: [], payment_verification_expiry: null });
    const closed = await h.call('POST', path, { body: { fields: { buyer_city: 'Munich' } } });
    expect([closed.status, err(closed).code, err(closed).message]).toEqual([400, 40360, 'Payment is not in a state that accepts verification details.']);
    expect(err(closed).details).toContain('can no longer be changed');
    // Another credit with the same invoice number: refused when it would be filed.
    const d = await credit();
    const dPath = `/pg/payments/${d.payment_id}/verification/`;
    const dRef = (await upload(d.payment_id)).body.data.ref;
    const clash = await h.call('POST', dPath, { body: { fields: { ...B2B, ...FIELDS }, documents: [{ code: 'invoice', ref: dRef }] } });
    expect([clash.status, err(clash).code, err(clash).message, err(clash).details]).toEqual([400, 'ERR_IMPORT_VERIFICATION_001', 'Invoice number already exists.', 'Invoice number already exists.']);
    expect((await h.call('GET', dPath)).body.data.business_model).toBeNull();
    // A ref is the merchant's: another merchant's payment cannot use it (reads as unknown).
    const wrongType = await h.call('POST', dPath, { body: { fields: B2B, documents: [{ code: 'invoice', ref: (await upload(d.payment_id, 'passport')).body.data.ref }] } });
    expect(err(wrongType).details.invoice).toContain('uploaded as passport');
  });

  it('a VBA credit is unclassified: two fields, no documents; VERIFICATION_NEEDED names them after PAYMENT_SUCCESSFUL', async () => {
    const c = await credit();
    const r = await h.call('GET', `/pg/payments/${c.payment_id}/verification/`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Verification requirements');
    expect(r.body.data).toEqual({
      payment_id: c.payment_id,
      order_id: c.order_id,
      settlement_status: 'ACTION_REQUIRED',
      business_model: null,
      purpose_code: null,
      fields: [
        { code: 'business_model', message: expect.any(String), satisfied: false, provided: false },
        { code: 'purpose_code', message: expect.any(String), satisfied: false, provided: false },
      ],
      documents: [],
    });
    const alias = await h.call('GET', `/pg/lrs/payments/${c.payment_id}/verification/`);
    expect(alias.body.data).toEqual(r.body.data);
    const events = await eventsAbout(c.payment_id);
    const types = events.map((e) => e.event_type).reverse();
    expect(types).toEqual(['PAYMENT_SUCCESSFUL', 'VERIFICATION_NEEDED']);
    const vn = events.find((e) => e.event_type === 'VERIFICATION_NEEDED');
    expect(vn.version).toBe('3.0.0');
    expect(vn.event_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(vn.data).toEqual({
      payment_id: c.payment_id,
      order_id: c.order_id,
      verification_status: 'ACTION_REQUIRED',
      message: 'Payment verification action required',
      action_required_fields: ['business_model', 'purpose_code'],
      payment_verification_expiry: null,
    });
    // The older path takes sends too, under the same rules: one of the pair alone is refused (11.2.2 rule 2).
    const half = await h.call('POST', `/pg/lrs/payments/${c.payment_id}/verification/`, { body: { fields: { business_model: 'B2B' } } });
    expect([half.status, String(half.body.error.code)]).toEqual([400, '40359']);
  });

  it('classification: together, once, enabled codes only; then the B2B services checklist of 11 fields and the invoice', async () => {
    const c = await credit();
    const path = `/pg/payments/${c.payment_id}/verification/`;
    const alone = await h.call('POST', path, { body: { fields: { business_model: 'B2B' } } });
    expect([alone.status, err(alone).code, err(alone).message, err(alone).details]).toEqual([400, 40359, 'Invalid verification request.', { purpose_code: 'Required together with business_model.' }]);
    const disabled = await h.call('POST', path, { body: { fields: { business_model: 'B2B', purpose_code: 'S0101' } } });
    expect([disabled.status, err(disabled).code, typeof err(disabled).details.purpose_code]).toEqual([400, 40359, 'string']);
    const none = await h.call('POST', path, { body: { fields: { business_model: 'B2C', purpose_code: 'S0802' } } });
    expect([none.status, err(none).code, typeof err(none).details]).toEqual([400, 40359, 'string']);
    expect(err(none).details).toContain('No verification checklist');
    const ok = await h.call('POST', path, { body: { fields: B2B } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ message: 'Verification details received', data: { payment_id: c.payment_id, status: 'incomplete' } });
    // buyer_name is held on the order (the remitter's name): provided, satisfied.
    expect(ok.body.data.outstanding).toEqual([...Object.keys(FIELDS).slice(0, 0), 'buyer_address_line_1', 'buyer_city', 'buyer_state', 'buyer_postal_code', 'buyer_email', 'buyer_phone', 'invoice_number', 'invoice_date', 'invoice_amount', 'declaration', 'invoice']);
    const again = await h.call('POST', path, { body: { fields: B2B } });
    expect(err(again)).toEqual({
      code: 40359,
      message: 'Invalid B2B services request.',
      details: { business_model: 'Already set on the order; it cannot be changed here.', purpose_code: 'Already set on the order; it cannot be changed here.' },
    });
    const g = (await h.call('GET', path)).body.data;
    expect([g.business_model, g.purpose_code, g.fields.length, g.documents.map((d: any) => d.code)]).toEqual(['B2B', 'S0802', 11, ['invoice']]);
    expect(g.fields.find((f: any) => f.code === 'buyer_name')).toMatchObject({ satisfied: true, provided: true });
  });

  it('every refusal of a submit is 400 40359 with details per code, all or nothing, and VERIFICATION_NEEDED names the failed items', async () => {
    const c = await credit();
    const path = `/pg/payments/${c.payment_id}/verification/`;
    await h.call('POST', path, { body: { fields: B2B } });
    const bad = await h.call('POST', path, {
      body: {
        fields: { buyer_city: 'Berlin', buyer_postal_code: '12345', remitter_pan: 'ABCDE1234F', invoice: 'x', buyer_state: '  ', invoice_amount: '999.00' },
        documents: [{ code: 'buyer_city', ref: '1' }, { code: 'invoice', ref: '0000000000' }, { code: 'invoice', waiver_reason: 'none' }],
      },
    });
    expect(bad.status).toBe(400);
    expect(err(bad).code).toBe(40359);
    expect(err(bad).details).toEqual({
      buyer_postal_code: 'Enter a valid Indian PIN code.',
      remitter_pan: "Not a requirement of this payment's checklist.",
      invoice: 'Sent more than once in this call.',
      buyer_state: 'Blank value; omit the key instead.',
      invoice_amount: 'Does not match the amount received (1000.00).',
      buyer_city: "This is a field code; send it under 'fields'.",
    });
    // Nothing written: buyer_city, valid in the call, is still outstanding.
    const g = (await h.call('GET', path)).body.data;
    expect(g.fields.find((f: any) => f.code === 'buyer_city').provided).toBe(false);
    const waiver = await h.call('POST', path, { body: { documents: [{ code: 'invoice', waiver_reason: 'lost' }] } });
    expect(err(waiver).details).toEqual({ invoice: 'This document cannot be waived.' });
    const both = await h.call('POST', path, { body: { documents: [{ code: 'invoice' }] } });
    expect(err(both).details).toEqual({ invoice: 'Send exactly one of ref and waiver_reason.' });
    const unknownRef = await h.call('POST', path, { body: { documents: [{ code: 'invoice', ref: '0000000000' }] } });
    expect(err(unknownRef).details).toEqual({ invoice: 'Unknown document ref.' });
    const events = await eventsAbout(c.payment_id, 'VERIFICATION_NEEDED');
    const named = events.map((e) => e.data.action_required_fields);
    expect(named).toContainEqual(['invoice']);
    expect(named).toContainEqual(expect.arrayContaining(['buyer_postal_code', 'invoice_amount']));
  });

  it('40360 with a string details for an unknown or foreign payment', async () => {
    const r = await h.call('GET', '/pg/payments/PR0000000001/verification/');
    expect([r.status, err(r).code, err(r).message, err(r).details]).toEqual([400, 40360, 'Payment is not in a state that accepts verification details.', 'PR0000000001: Payment not found.']);
    const c = await credit();
    const foreign = await h.call('POST', `/pg/payments/${c.payment_id}/verification/`, { as: 'psp', body: { fields: B2B } });
    expect([foreign.status, err(foreign).code, typeof err(foreign).details]).toEqual([400, 40360, 'string']);
  });

  it('a card payment shows READY_FOR_SETTLEMENT and refuses sends; PAYMENT_FAILED for a failed one', async () => {
    const { paymentId } = await paidOrder(h);
    expect((await h.call('GET', `/pg/payments/${paymentId}/`)).body.data.settlement_status).toBe('READY_FOR_SETTLEMENT');
    const sent = await h.call('POST', `/pg/payments/${paymentId}/verification/`, { body: { fields: B2B } });
    expect([sent.status, err(sent).code]).toEqual([400, 40360]);
    expect(err(sent).details).toContain('READY_FOR_SETTLEMENT');
  });

  it('simulate-verification: refused on production, validated, and moves the states with their events', async () => {
    const p = await prod.call('POST', '/pg/payments/PR0000000001/simulate-verification/', { body: { status: 'VERIFIED' } });
    expect([p.status, err(p).code]).toEqual([400, 'ERR_SERVICE_ERROR_000']);
    const c = await credit();
    const path = `/pg/payments/${c.payment_id}/simulate-verification/`;
    const bad = await h.call('POST', path, { body: { status: 'DONE' } });
    expect([bad.status, err(bad).code]).toEqual([400, 'ERR_VALIDATION_000']);
    const held = await h.call('POST', path, { body: { status: 'ON_HOLD' } });
    expect(held.body.data).toEqual({ payment_id: c.payment_id, settlement_status: 'ON_HOLD' });
    const hold = (await eventsAbout(c.payment_id, 'VERIFICATION_NEEDED'))[0];
    expect(hold.data).toMatchObject({ verification_status: 'ON_HOLD', message: 'Payment settlement is on hold' });
    const review = await h.call('POST', path, { body: { status: 'UNDER_REVIEW' } });
    expect(review.status).toBe(200);
    const same = await h.call('POST', path, { body: { status: 'UNDER_REVIEW' } });
    expect(same.status).toBe(200);
    const ir = await eventsAbout(c.payment_id, 'VERIFICATION_NEEDED');
    expect(ir.filter((e) => e.data.verification_status === 'IN_REVIEW')).toHaveLength(1);
    const back = await h.call('POST', path, { body: { status: 'ACTION_REQUIRED', message: 'Invoice unreadable' } });
    expect(back.status).toBe(200);
    expect((await eventsAbout(c.payment_id, 'VERIFICATION_NEEDED'))[0].data).toMatchObject({ verification_status: 'ACTION_REQUIRED', message: 'Invoice unreadable' });
    const verdict = await h.call('POST', path, { body: { status: 'VERIFIED', verdict: 'APPROVED' } });
    expect([verdict.status, err(verdict).code]).toEqual([400, 'ERR_VERIFICATION_001']);
  });

  it('mark-settled refuses a credit until it is verified, then settles it (SETTLED, PAYMENT_SETTLED)', async () => {
    const c = await credit();
    const early = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [c.payment_id] } });
    expect([early.status, err(early).code, err(early).details.payment_uids]).toEqual([400, 'ERR_SERVICE_ERROR_000', [`${c.payment_id} is not verified`]]);
    await h.call('POST', `/pg/payments/${c.payment_id}/simulate-verification/`, { body: { status: 'VERIFIED' } });
    const settled = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [c.payment_id] } });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    expect((await h.call('GET', `/pg/payments/${c.payment_id}/`)).body.data.settlement_status).toBe('SETTLED');
    expect((await h.call('GET', `/pg/payments/${c.payment_id}/verification/`)).body.data.settlement_status).toBe('SETTLED');
  });

  it('a card payment opened for verification expires 7 days after capture on the sandbox clock: EXPIRED, a full refund, VERIFICATION_NEEDED EXPIRED', async () => {
    const { paymentId } = await paidOrder(h, '500.00');
    const open = await h.call('POST', `/pg/payments/${paymentId}/simulate-verification/`, { body: { status: 'ACTION_REQUIRED' } });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const first = (await eventsAbout(paymentId, 'VERIFICATION_NEEDED'))[0];
    expect(first.data.payment_verification_expiry).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 6 * 86400 } });
    expect((await h.call('GET', `/pg/payments/${paymentId}/`)).body.data.settlement_status).toBe('ACTION_REQUIRED');
    await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 2 * 86400 } });
    const p = (await h.call('GET', `/pg/payments/${paymentId}/`)).body.data;
    expect(p.settlement_status).toBe('EXPIRED');
    expect(p.refund).toHaveLength(1);
    expect(p.refund[0]).toMatchObject({ refund_amount: 500 });
    const expired = (await eventsAbout(paymentId, 'VERIFICATION_NEEDED'))[0];
    expect(expired.data).toMatchObject({ verification_status: 'EXPIRED', action_required_fields: ['business_model', 'purpose_code'] });
    await h.call('POST', '/sandbox/clock/', { body: { reset: true } });
  });

  it('an LRS walk: the requirement list on declaring, a PAN refusal (PAN_NOT_VERIFIED), a pass after PAN verify, a send-back, a verdict', async () => {
    const c = await credit(1000, 'Asha Verma');
    const path = `/pg/payments/${c.payment_id}/verification/`;
    const declared = await h.call('POST', path, { body: { fields: { business_model: 'B2C', purpose_code: 'S0305' } } });
    expect(declared.body.data.status).toBe('incomplete');
    const ask = (await eventsAbout(c.payment_id, 'LRS_VERIFICATION_NEEDED'))[0];
    expect(ask.data.action_required_documents.map((d: any) => d.code)).toEqual(['offer_letter', 'passport', 'student_id_or_visa']);
    expect(ask.data.action_required_fields[0]).toEqual({ code: 'buyer_address_line_1', message: 'Buyer address' });
    expect(ask.data.action_required_fields.find((f: any) => f.code === 'student_name')).toBeUndefined();
    const refs: Record<string, string> = {};
    for (const t of ['offer_letter', 'passport', 'student_id_or_visa']) refs[t] = (await upload(c.payment_id, t)).body.data.ref;
    const pan = 'ABCPV1234K';
    const all = {
      ...FIELDS,
      invoice_amount: undefined,
      declaration: undefined,
      remitter_pan: pan,
      remitter_dob: '1990-02-28',
      remitter_relation: 'SELF',
      buyer_declaration: true,
      amount_to_be_settled: '1000.00',
    };
    const refused = await h.call('POST', path, { body: { fields: JSON.parse(JSON.stringify(all)), documents: Object.entries(refs).map(([code, ref]) => ({ code, ref })) } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(refused.body.data).toEqual({ payment_id: c.payment_id, status: 'action_required', outstanding: [], refusal: { reason: 'PAN_NOT_VERIFIED', missing: ['remitter.pan'], outstanding_cents: 0 } });
    expect((await eventsAbout(c.payment_id, 'LRS_VERIFICATION_NEEDED'))[0].data).toMatchObject({ message: 'Payment verification did not pass', action_required_fields: [{ code: 'remitter_pan', message: 'Remitter PAN' }] });
    // Never VERIFICATION_NEEDED for an LRS payment beyond the credit's first ask.
    expect(await eventsAbout(c.payment_id, 'VERIFICATION_NEEDED')).toHaveLength(1);
    expect((await h.call('POST', '/pg/pan/verify/', { body: { pan, name: 'Asha Verma', dob: '1990-02-28' } })).body.data.verified).toBe(true);
    const passed = await h.call('POST', path, { body: {} });
    expect(passed.body.data).toEqual({ payment_id: c.payment_id, status: 'in_review', outstanding: [] });
    expect((await eventsAbout(c.payment_id, 'PAYMENT_UNDER_REVIEW'))[0].data).toEqual({
      payment_id: c.payment_id, order_id: c.order_id, verification_status: 'UNDER_REVIEW', message: 'Payment is under review', action_required_fields: [], payment_verification_expiry: null,
    });
    const sim = `/pg/payments/${c.payment_id}/simulate-verification/`;
    expect((await h.call('POST', sim, { body: { status: 'ACTION_REQUIRED', message: 'Passport scan unreadable' } })).status).toBe(200);
    expect((await eventsAbout(c.payment_id, 'LRS_VERIFICATION_NEEDED'))[0].data.message).toBe('Passport scan unreadable');
    expect((await h.call('POST', sim, { body: { status: 'UNDER_REVIEW' } })).status).toBe(200);
    expect((await h.call('POST', sim, { body: { status: 'VERIFIED', verdict: 'APPROVED' } })).status).toBe(200);
    const verdict = (await eventsAbout(c.payment_id, 'VERIFICATION_STATUS'))[0].data;
    expect(verdict).toEqual({
      payment_id: c.payment_id,
      order_id: c.order_id,
      verification_status: 'APPROVED',
      message: '',
      documents: Object.entries(refs).map(([code, ref]) => ({ code, message: expect.any(String), ref, doc_status: 'VERIFIED' })),
    });
  });

  it('LRS: a sender whose name is not the PAN\'s is SENDER_NAME_MISMATCH; less received than owed is a null reason with the shortfall', async () => {
    const pan = 'ABCPW1234K';
    await h.call('POST', '/pg/pan/verify/', { body: { pan, name: 'Ravi Kumar', dob: '1980-01-01' } });
    const fields = { ...FIELDS, invoice_amount: undefined, declaration: undefined, remitter_pan: pan, remitter_dob: '1980-01-01', remitter_relation: 'SELF', buyer_declaration: true };
    for (const [sender, owed, refusal] of [
      ['Someone Else', '1000.00', { reason: 'SENDER_NAME_MISMATCH', missing: [], outstanding_cents: 100000 }],
      ['Ravi Kumar', '1500.50', { reason: null, missing: ['outstanding'], outstanding_cents: 50050 }],
    ] as const) {
      const c = await credit(1000, sender);
      const path = `/pg/payments/${c.payment_id}/verification/`;
      await h.call('POST', path, { body: { fields: { business_model: 'B2C', purpose_code: 'S1107' } } });
      const docs = [];
      for (const t of ['offer_letter', 'student_id']) docs.push({ code: t, ref: (await upload(c.payment_id, t)).body.data.ref });
      const r = await h.call('POST', path, { body: { fields: JSON.parse(JSON.stringify({ ...fields, amount_to_be_settled: owed })), documents: docs } });
      expect(r.body.data, sender).toEqual({ payment_id: c.payment_id, status: 'action_required', outstanding: [], refusal });
      expect((await h.call('GET', path)).body.data.settlement_status).toBe('ACTION_REQUIRED');
    }
  });

  it('the deprecated upload-verification-details: validated per field, mapped onto the checklist, VERIFIED only with the vendor\'s test values', async () => {
    const c = await credit();
    const path = `/pg/payments/${c.payment_id}/upload-verification-details/`;
    const bad = await h.call('POST', path, { body: { buyer_name: 'John', type_of_goods: 'SHOES' } });
    expect([bad.status, err(bad).code, err(bad).details]).toMatchObject([400, 'ERR_VALIDATION_000'.replace('VALIDATION_000', 'VERIFICATION_002'), { type_of_goods: '"SHOES" is not a valid choice.', invoice_number: 'This field is required.' }]);
    const unknown = await h.call('POST', '/pg/payments/PR0000000001/upload-verification-details/', { body: {} });
    expect([unknown.status, err(unknown).code]).toEqual([404, 'ERR_PAYMENT_005']);
    const body = { buyer_name: 'Jane', type_of_goods: 'SERVICE', product_description: 'This is a test product for test purpose.', buyer_address: '1 MG Road', invoice_number: 'INV-OLD-1', buyer_postal_code: '560034', purpose_code: 'S0802', business_model: 'B2B' };
    const partly = await h.call('POST', path, { body });
    expect(partly.status, JSON.stringify(partly.body)).toBe(200);
    expect(partly.body.message).toBe('Payment verification details uploaded successfully; order updated.');
    expect(partly.body.data.missing_documents.map((d: any) => d.doc_name)).toEqual(['buyer_name']);
    expect(partly.body.data.uploaded_documents[0]).toMatchObject({ doc_type: 'VALUE', doc_status: 'VERIFIED' });
    const g = (await h.call('GET', `/pg/payments/${c.payment_id}/verification/`)).body.data;
    expect([g.settlement_status, g.business_model, g.purpose_code]).toEqual(['ACTION_REQUIRED', 'B2B', 'S0802']);
    expect(g.fields.find((f: any) => f.code === 'buyer_address_line_1')).toMatchObject({ provided: true });
    const passed = await h.call('POST', path, { body: { ...body, buyer_name: 'John' } });
    expect(passed.body.data.missing_documents).toEqual([]);
    expect((await h.call('GET', `/pg/payments/${c.payment_id}/`)).body.data.settlement_status).toBe('VERIFIED');
    const closed = await h.call('POST', path, { body: { ...body, buyer_name: 'John' } });
    expect([closed.status, err(closed).code]).toEqual([400, 'ERR_VERIFICATION_002']);
  });

  it('B2B services settlement documents: list before and after settlement, every submit refusal in its documented order, then SUBMITTED', async () => {
    const c = await credit();
    const path = `/pg/payments/${c.payment_id}/settlement-documents/`;
    const submit = (refs: unknown) => h.call('POST', `/pg/payments/${c.payment_id}/settlement/submit/`, { body: { refs } });
    const unclassified = await h.call('GET', path);
    expect([unclassified.status, err(unclassified).code, err(unclassified).details]).toEqual([400, 40360, `${c.payment_id}: Not a B2B services payment.`]);
    await h.call('POST', `/pg/payments/${c.payment_id}/verification/`, { body: { fields: B2B } });
    const fresh = await h.call('GET', path);
    expect(fresh.body).toMatchObject({ message: 'Settlement documents', data: { state: 'FRESH', is_settled: false, is_multi: true, required_doc_types: ['delivery_proof'], submitted_at: null, documents: [] } });
    const proof = (await upload(c.payment_id, 'delivery_proof', 'proof.pdf')).body.data.ref;
    const invoice = (await upload(c.payment_id, 'invoice')).body.data.ref;
    const code = async (refs: unknown) => {
      const r = await submit(refs);
      return [r.status, err(r)?.code, err(r)?.details];
    };
    expect(await code(['0000000000'])).toEqual([400, 'ERR_B2B_SETTLEMENT_001', 'Document not found for this payment.']);
    expect(await code([invoice])).toEqual([400, 'ERR_B2B_SETTLEMENT_001', 'Document not found for this payment.']);
    expect(await code([])).toEqual([400, 'ERR_B2B_SETTLEMENT_003', 'Payment is not settled.']);
    expect(await code([proof])).toEqual([400, 'ERR_B2B_SETTLEMENT_003', 'Payment is not settled.']);
    await h.call('POST', `/pg/payments/${c.payment_id}/simulate-verification/`, { body: { status: 'VERIFIED' } });
    expect((await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [c.payment_id] } })).status).toBe(200);
    expect(await code([])).toEqual([400, 'ERR_B2B_SETTLEMENT_004', 'At least one document ref is required.']);
    const second = (await upload(c.payment_id, 'delivery_proof', 'proof2.pdf')).body.data.ref;
    expect((await h.call('GET', path)).body.data.documents.map((d: any) => d.document_id)).toEqual([proof, second]);
    const ok = await submit([proof, proof]);
    expect([ok.status, ok.body.message, ok.body.data]).toEqual([200, 'Documents submitted', {}]);
    const after = (await h.call('GET', path)).body.data;
    expect(after).toMatchObject({ state: 'SUBMITTED', is_settled: true, submitted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+$/) });
    expect(after.documents).toEqual([{ document_id: proof, doc_type: 'delivery_proof', file_name: 'proof.pdf', file: null }]);
    expect(await code([second])).toEqual([400, 'ERR_B2B_SETTLEMENT_002', 'Documents have already been submitted for this payment.']);
  });

  it('purpose codes can be disabled per account (11.10 P4): the declaration refused, an LRS filing PURPOSE_CODE_NOT_ALLOWED', async () => {
    const c = await credit(1000, 'Meera Iyer');
    const lrs = await credit(1000, 'Meera Iyer');
    const pan = 'ABCPM1234K';
    await h.call('POST', '/pg/pan/verify/', { body: { pan, name: 'Meera Iyer', dob: '1985-05-05' } });
    await h.call('POST', `/pg/payments/${lrs.payment_id}/verification/`, { body: { fields: { business_model: 'B2C', purpose_code: 'S1107' } } });
    try {
      const bad = await h.call('POST', '/sandbox/purpose-codes/', { body: { disabled: ['S9999'] } });
      expect([bad.status, err(bad).code]).toEqual([400, 'ERR_VALIDATION_000']);
      const set = await h.call('POST', '/sandbox/purpose-codes/', { body: { disabled: ['S0802', 's1107'] } });
      expect(set.body.data).toMatchObject({ disabled: ['S0802', 'S1107'] });
      expect((await h.call('GET', '/sandbox/purpose-codes/')).body.data.enabled).not.toContain('S0802');
      const declared = await h.call('POST', `/pg/payments/${c.payment_id}/verification/`, { body: { fields: B2B } });
      expect([declared.status, err(declared).code, err(declared).details]).toEqual([400, 40359, { purpose_code: 'Purpose code S0802 is not enabled for this merchant.' }]);
      const docs = [];
      for (const t of ['offer_letter', 'student_id']) docs.push({ code: t, ref: (await upload(lrs.payment_id, t)).body.data.ref });
      const fields = { ...FIELDS, invoice_amount: undefined, declaration: undefined, remitter_pan: pan, remitter_dob: '1985-05-05', remitter_relation: 'SELF', buyer_declaration: true, amount_to_be_settled: '1000.00' };
      const r = await h.call('POST', `/pg/payments/${lrs.payment_id}/verification/`, { body: { fields: JSON.parse(JSON.stringify(fields)), documents: docs } });
      expect(r.body.data.refusal).toEqual({ reason: 'PURPOSE_CODE_NOT_ALLOWED', missing: ['purpose_code'], outstanding_cents: 0 });
    } finally {
      expect((await h.call('POST', '/sandbox/purpose-codes/', { body: { disabled: [] } })).status).toBe(200);
    }
    const again = await h.call('POST', `/pg/payments/${lrs.payment_id}/verification/`, { body: {} });
    expect(again.body.data.status).toBe('in_review');
  });

  it('waivers: a waivable travel document is discharged with a reason (provided, no ref); the checklist shows the flags', async () => {
    const c = await credit();
    const path = `/pg/payments/${c.payment_id}/verification/`;
    await h.call('POST', path, { body: { fields: { business_model: 'B2C', purpose_code: 'S0303' } } });
    const before = (await h.call('GET', path)).body.data.documents;
    expect(before.map((d: any) => [d.code, d.waivable ?? false])).toEqual([['passenger_list', false], ['traveller_passports', false], ['traveller_visas', true], ['ticket', true], ['invoice', false]]);
    const waived = await h.call('POST', path, { body: { documents: [{ code: 'ticket', waiver_reason: 'Ticket issued at the counter' }, { code: 'traveller_visas', waiver_reason: ' ' }] } });
    expect([waived.status, err(waived).code, err(waived).message, err(waived).details]).toEqual([400, 40359, 'Invalid LRS request.', { traveller_visas: 'Blank value; omit the key instead.' }]);
    const ok = await h.call('POST', path, { body: { documents: [{ code: 'ticket', waiver_reason: 'Ticket issued at the counter' }] } });
    expect(ok.body.data.outstanding).not.toContain('ticket');
    const ticket = (await h.call('GET', path)).body.data.documents.find((d: any) => d.code === 'ticket');
    expect(ticket).toEqual({ code: 'ticket', message: 'Ticket', satisfied: true, provided: true, waivable: true });
    const student = (await h.call('GET', path)).body.data.fields.find((f: any) => f.code === 'student_name');
    expect(student).toEqual({ code: 'student_name', message: 'Student name', satisfied: true, provided: false, condition: 'PAYING_FOR_SOMEONE_ELSE' });
    await h.call('POST', path, { body: { fields: { remitter_relation: 'PARENT' } } });
    const owed = (await h.call('GET', path)).body.data.fields.find((f: any) => f.code === 'student_name');
    expect(owed.satisfied).toBe(false);
  });
});
