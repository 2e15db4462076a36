// Issue 21 items 1-2 on the embedded sandbox, the commands run in-process: a subscription payment's
// outcome cannot be flipped once money has moved after it, and an order never ends with two
// captured payments, whatever sequence of `sub simulate` and `sandbox pay` is tried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-money-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pgw(...args: string[]) {
  return pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
}
async function value(...args: string[]): Promise<string> {
  const r = await pgw(...args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout.trim();
}
async function chargedSubscription(): Promise<{ sub: string; payment: string }> {
  const sub = await value('sandbox', 'subscription', 'create', '--amount', '100', '--query', 'uid');
  const payment = await value('sub', 'simulate', sub, '--status', 'SUCCESS', '--query', 'payment_id');
  return { sub, payment };
}

describe('a payment with refunds, chargebacks or a settlement never changes outcome (item 1)', () => {
  it('refunded in full, then FAILED: refused, and the payment stays captured', async () => {
    const { sub, payment } = await chargedSubscription();
    await value('refund', 'create', payment, '--amount', '100', '--query', 'refund_id');
    const flip = await pgw('sub', 'simulate', sub, '--status', 'FAILED', '--payment-id', payment);
    expect(flip.code).toBe(1);
    expect(flip.stdout).toBe('');
    expect(flip.stderr).toMatch(new RegExp(`${payment} has refunds`));
    expect(await value('payment', 'get', payment, '--query', 'status')).toBe('captured');
  });

  it('charged back, then FAILED: refused', async () => {
    const { sub, payment } = await chargedSubscription();
    await value('sandbox', 'chargeback', payment, '--amount', '10', '--query', 'chargeback_id');
    const flip = await pgw('sub', 'simulate', sub, '--status', 'FAILED', '--payment-id', payment);
    expect(flip.code).toBe(1);
    expect(flip.stderr).toMatch(new RegExp(`${payment} has chargebacks`));
    expect(await value('payment', 'get', payment, '--query', 'status')).toBe('captured');
  });

  it('asking for the status a payment already has changes nothing (its completion time stays)', async () => {
    const { sub, payment } = await chargedSubscription();
    const before = await value('payment', 'get', payment, '--query', 'payment_completed_at');
    await value('sub', 'simulate', sub, '--status', 'SUCCESS', '--payment-id', payment, '--query', 'payment_status');
    expect(await value('payment', 'get', payment, '--query', 'payment_completed_at')).toBe(before);
  });
});

describe('an order never has two captured payments (item 2)', () => {
  it('SUCCESS → FAILED, sandbox pay, SUCCESS again on the first: refused; one captured payment, the order paid', async () => {
    const { sub, payment } = await chargedSubscription();
    expect(await value('sub', 'simulate', sub, '--status', 'FAILED', '--payment-id', payment, '--query', 'payment_status')).toBe('FAILED');
    const order = await value('payment', 'get', payment, '--query', 'order.order_id');
    expect(await value('order', 'get', order, '--query', 'status')).toBe('failed');
    const second = await value('sandbox', 'pay', order, '--query', 'payment_id');
    const again = await pgw('sub', 'simulate', sub, '--status', 'SUCCESS', '--payment-id', payment);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`already paid by ${second}`));
    expect(await value('payment', 'get', payment, '--query', 'status')).toBe('failed');
    expect(await value('payment', 'get', second, '--query', 'status')).toBe('captured');
    // failing the first again does not mark the order, paid by the second, as failed
    await value('sub', 'simulate', sub, '--status', 'FAILED', '--payment-id', payment, '--query', 'payment_status');
    expect(await value('order', 'get', order, '--query', 'status')).toBe('payment_successful');
  });
});
