// The model of the sandbox's money for the model-based stress test (issue 8, part 4): orders,
// payments, refunds, chargebacks and settlements, with the settlement arithmetic of spec 4.6 done
// again here in integer paise, independently of src/settlement.ts and decimal.js. The commands
// that drive the sandbox against it are in stress-model-commands.ts.
import { expect } from 'vitest';
import type { Harness } from '../sandbox/harness.js';

// ---- integer paise ---------------------------------------------------------------------------

/** `12345` → `"123.45"`, `-50` → `"-0.50"`: the sandbox's 2-decimal strings. */
export function fmt(paise: number): string {
  const a = Math.abs(paise);
  return `${paise < 0 ? '-' : ''}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** x × num / den rounded half-up, for x ≥ 0, in integers. */
const halfUp = (x: number, num: number, den: number) => Math.floor((x * num * 2 + den) / (den * 2));

/** spec 4.6 rule 4: fee 5 % of the amount, GST 18 % of the fee, each rounded half-up to the paisa. */
export function breakdown(amount: number): { fee: number; gst: number; net: number } {
  const fee = halfUp(amount, 5, 100);
  const gst = halfUp(fee, 18, 100);
  return { fee, gst, net: amount - fee - gst };
}

// ---- the model -------------------------------------------------------------------------------

export interface MOrder {
  id: string;
  amount: number;
  paid: boolean;
}
export interface MPayment {
  id: string;
  amount: number;
  captured: boolean;
  gateway: string;
  settlement: string | null;
}
export type DebitKind = 'refund' | 'chargeback';
export interface MDebit {
  id: string;
  paymentId: string;
  amount: number;
  settlement: string | null;
}
export interface MSettlement {
  id: string;
  payments: string[];
  refunds: string[];
  chargebacks: string[];
  amount: number;
  charges: number;
  gst: number;
}
export interface Model {
  orders: MOrder[];
  payments: MPayment[];
  refund: MDebit[];
  chargeback: MDebit[];
  settlements: MSettlement[];
}
export interface Real {
  h: Harness;
  /** Commands run, by name (the figures of the report). */
  ran: Record<string, number>;
}

export const emptyModel = (): Model => ({ orders: [], payments: [], refund: [], chargeback: [], settlements: [] });

export const SIMULATOR = 'simulator';
/** An ID of the right shape that no one holds (IDs are drawn at random from 10^10). */
export const UNKNOWN = { payment: 'PR0000000000', refund: 'RF0000000000', chargeback: 'CB0000000000' } as const;

export const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
export const count = (r: Real, name: string) => (r.ran[name] = (r.ran[name] ?? 0) + 1);

export function expectError(res: { status: number; body: any }, status: number, code: string, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.body.success, what).toBe(false);
  expect(res.body.error.code, what).toBe(code);
}

/** Get Payment agrees with the model: status, settlement (and its per-payment figures), refunds. */
export async function checkPayment(m: Model, r: Real, p: MPayment): Promise<void> {
  const res = await r.h.call('GET', `/pg/payments/${p.id}/`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const d = res.body.data;
  expect(d.status, p.id).toBe(p.captured ? 'captured' : 'failed');
  expect(d.order.amount, p.id).toBe(fmt(p.amount));
  if (p.settlement === null) {
    expect(d.settlement, `${p.id} is not settled`).toBeNull();
    expect(d.settlement_status).toBe(p.captured ? 'READY_FOR_SETTLEMENT' : 'PAYMENT_FAILED');
  } else {
    const s = m.settlements.find((x) => x.id === p.settlement)!;
    const b = breakdown(p.amount);
    expect(d.settlement_status, p.id).toBe('SETTLED');
    expect(d.settlement, p.id).toMatchObject({
      id: s.id,
      settlement_amount: fmt(s.amount),
      number_of_transactions: s.payments.length,
      merchant_service_fee: fmt(b.fee),
      merchant_service_tax: fmt(b.gst),
      merchant_net_amount: fmt(b.net),
      forex_rate: '96',
    });
  }
  const refunds = m.refund.filter((x) => x.paymentId === p.id).map((x) => ({ refund_id: x.id, refund_amount: Number(fmt(x.amount)) }));
  expect(d.refund.map((x: any) => ({ refund_id: x.refund_id, refund_amount: x.refund_amount })), `${p.id} refunds`).toEqual(refunds);
}
