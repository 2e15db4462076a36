// The comparison of two answers (src/compare/shape.ts), the known differences (known.ts) and the
// choice of steps (scenario.ts): pure functions, tested by tables.
import { describe, expect, it } from 'vitest';
import { compareAnswers, idForm, type Answer } from '../../src/compare/shape.js';
import { knownReason } from '../../src/compare/known.js';
import { STEPS } from '../../src/compare/scenario.js';
import { isReadOnly, selectSteps } from '../../src/compare/select.js';

const ok = (data: unknown, status = 200): Answer => ({ status, json: { success: true, message: 'ok', data } });
const refused = (code: unknown, details: unknown = { payment_id: 'not found' }, status = 404): Answer => ({ status, json: { success: false, error: { code, message: 'Payment not found', details } } });
const diff = (sandbox: Answer, gateway: Answer) => compareAnswers(sandbox, gateway).map((d) => `${d.kind} ${d.where}: ${d.sandbox} | ${d.gateway}`);

describe('compareAnswers', () => {
  it('values that must differ are never compared: IDs of one form, times, amounts, messages', () => {
    expect(diff(ok({ order_id: 'OD17900000000001', created_at: '2026-01-01T00:00:00Z', amount: '10.00', n: 1 }), { status: 200, json: { success: true, message: 'other words', data: { order_id: 'OD17999999999999', created_at: '2027-05-05T10:00:00Z', amount: '99.50', n: 7 } } })).toEqual([]);
  });

  it.each([
    ['a renamed key, once', ok({ reference_id: 'a', x: 1 }), ok({ referenceId: 'a', x: 1 }), ['renamed data.reference_id: reference_id | referenceId']],
    ['a number where a string was', ok({ amount: '10.00' }), ok({ amount: 10 }), ['type data.amount: string | number']],
    ['null where a string was (one resource)', ok({ status_message: 'x' }), ok({ status_message: null }), ['type data.status_message: string | null']],
    ['a key only the sandbox has', ok({ a: 1, order_id: 'OD1' }), ok({ order_id: 'OD2' }), ['missing data.a: number | missing']],
    ['a key only the gateway has', ok({ order_id: 'OD1' }), ok({ order_id: 'OD2', extra_thing: [] }), ['extra data.extra_thing: missing | array']],
    ['a missing envelope field', ok({}), { status: 200, json: { success: true, data: {} } }, ['envelope message: present | missing']],
    ['another status', ok({}, 201), ok({}, 200), ['status status: 201 | 200']],
    ['an enum value of one resource', ok({ status: 'payment_pending' }), ok({ status: 'PENDING' }), ['enum data.status: payment_pending | PENDING']],
    ['the form of an ID', ok({ payment_id: 'PR1234567890' }), ok({ payment_id: 'PR12345' }), ['id data.payment_id: PR+10 digits | PR+5 digits']],
    ['a UUID for an ID', ok({ settlement_id: 'ST1234567890' }), ok({ settlement_id: '550e8400-e29b-41d4-a716-446655440000' }), ['id data.settlement_id: ST+10 digits | uuid']],
  ])('%s', (_name, sandbox, gateway, expected) => {
    expect(diff(sandbox, gateway)).toEqual(expected);
  });

  it('an error: the code by value (a number code too), the rest by shape', () => {
    expect(diff(refused('ERR_PAYMENT_005'), refused('ERR_PAYMENT_005'))).toEqual([]);
    expect(diff(refused('ERR_PAYMENT_005'), refused('ERR_PAYMENT_404'))).toEqual(['code error.code: ERR_PAYMENT_005 | ERR_PAYMENT_404']);
    expect(diff(refused('ERR_X'), refused(40350, undefined, 500))).toEqual(['status status: 404 | 500', 'code error.code: ERR_X | 40350']);
    expect(diff(refused('E'), refused('E', 'Not found.'))).toEqual(['type error.details: object | string']);
    expect(diff(refused('E', { payment_id: 'x' }), refused('E', { order: 'y', reason: 'z' }))).toEqual(['missing error.details.payment_id: string | missing', 'extra error.details.order: missing | string', 'extra error.details.reason: missing | string']);
    expect(diff(refused('E', { payment_id: 'x' }), refused('E', { payment: 'x', order: 'y' }))).toEqual(['renamed error.details.payment_id: payment_id | payment', 'extra error.details.order: missing | string']);
  });

  it('a success against a refusal is one difference (and the code), not every key of both', () => {
    expect(diff(ok({ a: 1, b: 2 }), refused('ERR_ORDER_002', { buyer: 'required' }, 400))).toEqual(['status status: 200 | 400', 'envelope success: true | false', 'code error.code: none | ERR_ORDER_002']);
  });

  it('a body that is not JSON: its kind, then nothing of its keys', () => {
    expect(diff(ok({ a: 1 }), { status: 502, contentType: 'text/html' })).toEqual(['status status: 200 | 502', 'body body: JSON | not JSON (text/html)']);
  });

  it('lists: elements merged, compared only when both sides have some; data-dependent nulls, optional keys and documented values are not differences', () => {
    const list = (results: unknown[]) => ok({ count: results.length, results });
    expect(diff(list([{ id: 'PR1234567890', status: 'captured' }]), list([]))).toEqual([]);
    expect(diff(list([{ comment: null, status: 'captured', order_id: 'OD17900000000001' }]), list([{ comment: 'x', status: 'failed' }, { comment: null, status: 'pending', order_id: 'OD17900000000002' }]))).toEqual([]);
    expect(diff(list([{ status: 'captured' }]), list([{ status: 'CAPTURED' }]))).toEqual(['enum data.results[].status: captured | CAPTURED']);
    expect(diff(list([{ amount: '1.00', currency: 'INR' }]), list([{ amount: { amount: '1', total_amount: '1', currency: 'INR' } }]))).toEqual(['missing data.results[].currency: string | missing', 'type data.results[].amount: string | object']);
    expect(diff(list([{ payment_id: 'PR1234567890' }]), list([{ payment_id: 'PR0000000001' }, { payment_id: 'pay_77' }]))).toEqual(['id data.results[].payment_id: PR+10 digits | text a_9']);
  });

  it('idForm: what a client parsing one ID would take for another', () => {
    expect(['OD17900000000001', '1234567890', '550E8400-E29B-41D4-A716-446655440000', 'a'.repeat(64), 'sub-echo', 'Ab12'].map(idForm)).toEqual(['OD+14 digits', '10 digits', 'uuid', '64 hex', 'text a-a', 'text Aa9']);
  });
});

describe('known differences (docs/sandbox.md decisions)', () => {
  it('are recognised only at their step, place and kind', () => {
    expect(knownReason('order.create', { where: 'status', kind: 'status', sandbox: '201', gateway: '200' })).toMatch(/vendor N1/);
    expect(knownReason('order.create', { where: 'status', kind: 'status', sandbox: '201', gateway: '202' })).toBeUndefined();
    expect(knownReason('link.list', { where: 'data.results[].amount', kind: 'type', sandbox: 'string', gateway: 'object' })).toMatch(/C11/);
    expect(knownReason('link.create', { where: 'data.buyer', kind: 'missing', sandbox: 'object', gateway: 'missing' })).toMatch(/whole link/);
    expect(knownReason('link.create', { where: 'data.link_id', kind: 'missing', sandbox: 'string', gateway: 'missing' })).toBeUndefined();
    expect(knownReason('link.create', { where: 'data.amount', kind: 'type', sandbox: 'string', gateway: 'number' })).toBeUndefined();
    expect(knownReason('order.get', { where: 'data.reference_id', kind: 'renamed', sandbox: 'reference_id', gateway: 'referenceId' })).toBeUndefined();
    expect(knownReason('bad.api-version', { where: 'error.code', kind: 'code', sandbox: 'ERR_VERSION_000', gateway: 'ERR_AUTH_000' })).toMatch(/ERR_VERSION_000/);
  });
});

describe('the scenario', () => {
  it('--only: names, groups and prefixes, with the steps that make their IDs; --read-only keeps GETs that need nothing', () => {
    const names = (only?: string[], readOnly = false) => selectSteps(only, readOnly).map((s) => s.name);
    expect(names(['order.get'])).toEqual(['order.create', 'order.get']);
    expect(names(['bad'])).toEqual(['bad.missing-field', 'bad.amount', 'bad.unknown-payment', 'bad.unknown-order', 'bad.api-version']);
    expect(names(['settle.mark'])).toEqual(['refund.create', 'settle.mark']);
    expect(names(['link.*'])).toEqual(['link.create', 'link.get', 'link.list', 'link.deactivate', 'link.get-expired']);
    expect(names(undefined, true)).toEqual(['payment.search', 'link.list', 'settle.list', 'merchant.list', 'bad.unknown-payment', 'bad.unknown-order', 'bad.api-version']);
    expect(() => names(['nope'])).toThrow(/unknown step "nope"/);
    // Only GETs are read-only; the whole scenario stays within a few dozen requests.
    for (const s of STEPS.filter(isReadOnly)) expect(s.request({ reference: 'X' }).method).toBe('GET');
    expect(STEPS.length).toBeLessThanOrEqual(24);
  });
});
