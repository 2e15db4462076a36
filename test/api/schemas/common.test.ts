import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  apiMajor,
  isRealDate,
  markSettledSchema,
  problemsFrom,
  sandboxAmountSchema,
  sandboxLinkCreateSchema,
  sandboxPaySchema,
  sandboxSeedSchema,
  sandboxSubscriptionSchema,
  sandboxWebhookSchema,
  simulatePaymentSchema,
  validate,
} from '../../../src/api/schemas/index.js';
import { ValidationError } from '../../../src/errors.js';

describe('problemsFrom / validate', () => {
  it('joins paths with dots, array indexes included', () => {
    const schema = z.object({ a: z.object({ list: z.array(z.string().min(2, 'too short')) }) });
    const r = schema.safeParse({ a: { list: ['ok', 'x'] } });
    expect(problemsFrom(r.error!)).toEqual([{ path: 'a.list.1', message: 'too short' }]);
  });

  it('uses an empty path for the body itself and says what type was expected', () => {
    expect(validate(markSettledSchema, 'x')).toEqual({ ok: false, problems: [{ path: '', message: 'must be an object' }] });
    expect(validate(markSettledSchema, { payment_uids: 'PR1' })).toEqual({
      ok: false,
      problems: [{ path: 'payment_uids', message: 'must be an array of payment IDs' }],
    });
  });

  it('returns parsed data with defaults on success', () => {
    expect(validate(markSettledSchema, { payment_uids: ['PR1'] })).toEqual({
      ok: true,
      data: { payment_uids: ['PR1'], refund_uids: [], chargeback_uids: [] },
    });
  });

  it('feeds ValidationError directly', () => {
    const r = validate(markSettledSchema, { payment_uids: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const err = new ValidationError(r.problems);
      expect(err.message).toBe('payment_uids: must contain at least 1 payment ID');
      expect(err.details).toEqual({ payment_uids: 'must contain at least 1 payment ID' });
    }
  });
});

describe('small rules', () => {
  it('isRealDate', () => {
    expect(isRealDate('2024-02-29')).toBe(true);
    expect(isRealDate('2023-02-29')).toBe(false);
    expect(isRealDate('2024-04-31')).toBe(false);
    expect(isRealDate('2024-4-30')).toBe(false);
  });

  it('apiMajor (spec part 9)', () => {
    expect(apiMajor('3.0.0')).toBe(3);
    expect(apiMajor('1.2.3')).toBe(1);
    expect(apiMajor('2.0.10')).toBe(2);
    expect(apiMajor('4.0.0')).toBeUndefined();
    expect(apiMajor('3.0')).toBeUndefined();
    expect(apiMajor('v3')).toBeUndefined();
  });
});

describe('mark-settled body (spec 4.6)', () => {
  it.each([
    ['payment_uids', {}],
    ['payment_uids', { payment_uids: [] }],
    ['payment_uids.0', { payment_uids: [''] }],
    ['payment_uids.1', { payment_uids: ['PR1', 7] }],
    ['refund_uids', { payment_uids: ['PR1'], refund_uids: 'RF1' }],
    ['chargeback_uids.0', { payment_uids: ['PR1'], chargeback_uids: [null] }],
  ])('refuses a bad %s', (path, b) => {
    const r = validate(markSettledSchema, b);
    expect(r.ok ? [] : r.problems.map((p) => p.path)).toContain(path);
  });
});

describe('simulate payment body (spec 4.7)', () => {
  it('takes SUCCESS or FAILED and an optional payment_id', () => {
    expect(validate(simulatePaymentSchema, { payment_status: 'SUCCESS' }).ok).toBe(true);
    expect(validate(simulatePaymentSchema, { payment_status: 'FAILED', payment_id: 'PR1' }).ok).toBe(true);
  });
  it.each([
    ['payment_status', { payment_status: 'success' }],
    ['payment_status', {}],
    ['payment_id', { payment_status: 'SUCCESS', payment_id: 5 }],
  ])('refuses a bad %s', (path, b) => {
    const r = validate(simulatePaymentSchema, b);
    expect(r.ok ? [] : r.problems.map((p) => p.path)).toContain(path);
  });
});

describe('sandbox helper bodies', () => {
  it('pay: outcome required, mop_type lowercased, gateway defaults to simulator', () => {
    expect(validate(sandboxPaySchema, { outcome: 'success', mop_type: 'CREDIT_CARD' })).toEqual({
      ok: true,
      data: { outcome: 'success', mop_type: 'credit_card', gateway: 'simulator' },
    });
    const bad = (b: unknown) => {
      const r = validate(sandboxPaySchema, b);
      return r.ok ? [] : r.problems.map((p) => p.path);
    };
    expect(bad({})).toEqual(['outcome']);
    expect(bad({ outcome: 'ok' })).toEqual(['outcome']);
    expect(bad({ outcome: 'fail', mop_type: 'cash' })).toEqual(['mop_type']);
    expect(bad({ outcome: 'fail', vpa: 'nobody' })).toEqual(['vpa']);
  });

  it('amounts are positive 2-decimal strings', () => {
    expect(validate(sandboxAmountSchema, { amount: '100.00' }).ok).toBe(true);
    for (const amount of ['0', '-1', '1.001', 100]) {
      expect(validate(sandboxAmountSchema, { amount }).ok, String(amount)).toBe(false);
      expect(validate(sandboxSubscriptionSchema, { amount }).ok, String(amount)).toBe(false);
    }
  });

  it('link: order_id required, expiry a whole number of seconds with a default', () => {
    const r = validate(sandboxLinkCreateSchema, { order_id: 'OD1' });
    expect(r.ok && r.data.expires_in_seconds).toBe(604800);
    expect(validate(sandboxLinkCreateSchema, { order_id: 'OD1', expires_in_seconds: 1.5 }).ok).toBe(false);
    expect(validate(sandboxLinkCreateSchema, { order_id: 'OD1', expires_in_seconds: 0 }).ok).toBe(false);
    expect(validate(sandboxLinkCreateSchema, {}).ok).toBe(false);
  });

  it('webhook url must be http(s); seed count optional and bounded', () => {
    expect(validate(sandboxWebhookSchema, { url: 'http://127.0.0.1:9/hook' }).ok).toBe(true);
    expect(validate(sandboxWebhookSchema, { url: 'file:///etc/passwd' }).ok).toBe(false);
    expect(validate(sandboxSeedSchema, undefined)).toEqual({ ok: true, data: {} });
    expect(validate(sandboxSeedSchema, { payments: 3 }).ok).toBe(true);
    expect(validate(sandboxSeedSchema, { payments: 0 }).ok).toBe(false);
    expect(validate(sandboxSeedSchema, { payments: 100001 }).ok).toBe(false);
  });
});
