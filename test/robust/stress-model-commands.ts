// The commands of the model-based stress test: each drives the sandbox over HTTP, checks its answer
// against the model (stress-model.ts) and only then updates the model; fast-check generates, runs
// and shrinks sequences of them.
import * as fc from 'fast-check';
import { expect } from 'vitest';
import { orderBody } from '../sandbox/harness.js';
import {
  SIMULATOR,
  UNKNOWN,
  breakdown,
  checkPayment,
  count,
  expectError,
  fmt,
  pick,
  type DebitKind,
  type MDebit,
  type MPayment,
  type MSettlement,
  type Model,
  type Real,
} from './stress-model.js';

type Cmd = fc.AsyncCommand<Model, Real>;

class CreateOrder implements Cmd {
  constructor(readonly amount: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    count(r, 'create order');
    const res = await r.h.call('POST', '/pg/orders/', { body: orderBody({ amount: fmt(this.amount) }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.order_id).toMatch(/^OD[0-9]{14}$/);
    m.orders.push({ id: res.body.data.order_id, amount: this.amount, paid: false });
  }
  toString = () => `CreateOrder(${fmt(this.amount)})`;
}

class PayOrder implements Cmd {
  constructor(
    readonly n: number,
    readonly outcome: 'success' | 'fail',
    readonly gateway: string,
  ) {}
  check = (m: Readonly<Model>) => m.orders.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    count(r, 'pay order');
    const o = pick(m.orders, this.n);
    const res = await r.h.call('POST', `/sandbox/orders/${o.id}/pay/`, { body: { outcome: this.outcome, gateway: this.gateway } });
    if (o.paid) return expectError(res, 400, 'ERR_ORDER_003', `paying paid ${o.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const captured = this.outcome === 'success';
    expect(res.body.data.status).toBe(captured ? 'captured' : 'failed');
    expect(res.body.data.order.amount).toBe(fmt(o.amount));
    expect(res.body.data.settlement).toBeNull();
    expect(m.payments.some((p) => p.id === res.body.data.payment_id), 'a fresh payment ID').toBe(false);
    m.payments.push({ id: res.body.data.payment_id, amount: o.amount, captured, gateway: this.gateway, settlement: null });
    if (captured) o.paid = true;
  }
  toString = () => `PayOrder(#${this.n}, ${this.outcome}, ${this.gateway})`;
}

/** A refund or chargeback of `permille` ‰ of the payment (over 1000 ‰: more than it holds). */
class AddDebit implements Cmd {
  constructor(
    readonly kind: DebitKind,
    readonly n: number,
    readonly permille: number,
  ) {}
  check = (m: Readonly<Model>) => m.payments.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    count(r, `add ${this.kind}`);
    const p = pick(m.payments, this.n);
    const amount = Math.max(1, Math.floor((p.amount * this.permille) / 1000));
    // Refunds through the real operation (beyond 2.1), chargebacks through the sandbox helper.
    const res =
      this.kind === 'refund'
        ? await r.h.call('POST', '/pg/refunds/', { body: { payment_id: p.id, refund_amount: fmt(amount) } })
        : await r.h.call('POST', `/sandbox/payments/${p.id}/chargebacks/`, { body: { amount: fmt(amount) } });
    const code = this.kind === 'refund' ? 'ERR_REFUND_00' : 'ERR_CHARGEBACK_00';
    if (!p.captured) return expectError(res, 400, `${code}1`, `${this.kind} on failed ${p.id}`);
    const debited = [...m.refund, ...m.chargeback].filter((d) => d.paymentId === p.id).reduce((s, d) => s + d.amount, 0);
    if (amount > p.amount - debited) return expectError(res, 400, `${code}2`, `${this.kind} over what is left of ${p.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data[`${this.kind}_id`] as string;
    expect(id).toMatch(this.kind === 'refund' ? /^RF[0-9]{10}$/ : /^CB[0-9]{10}$/);
    // vendor 2.5: a refund's refund_amount is a JSON number; a chargeback's amount a decimal string.
    expect(res.body.data[this.kind === 'refund' ? 'refund_amount' : 'amount']).toBe(this.kind === 'refund' ? Number(fmt(amount)) : fmt(amount));
    m[this.kind].push({ id, paymentId: p.id, amount, settlement: null });
  }
  toString = () => `Add${this.kind}(#${this.n}, ${this.permille}‰)`;
}

type Inject = 'none' | 'payment' | 'refund' | 'chargeback';

/**
 * Mark-settled of picked payments, refunds and chargebacks (any state: failed, already settled,
 * repeated, or an unknown ID injected), which the model accepts or refuses by spec 4.6 rule 1 and
 * rule 3: refused → 400 ERR_SERVICE_ERROR_000 naming the first bad UID per category and nothing
 * written; accepted → the model's own figures.
 */
class MarkSettled implements Cmd {
  constructor(
    readonly pays: number[],
    readonly refunds: number[],
    readonly chargebacks: number[],
    readonly inject: Inject,
    readonly at: number,
    /** Pick among what can be settled only (distinct), so accepted batches of several items come up often. */
    readonly eligibleOnly: boolean,
  ) {}
  check = (m: Readonly<Model>) => (this.eligibleOnly ? m.payments.some(settleable) : m.payments.length > 0);

  private uids<T extends { id: string }>(list: readonly T[], picks: number[], kind: Exclude<Inject, 'none'>): string[] {
    let ids = list.length === 0 ? [] : picks.map((n) => pick(list, n).id);
    if (this.eligibleOnly) ids = [...new Set(ids)];
    if (this.inject === kind) ids.splice(this.at % (ids.length + 1), 0, UNKNOWN[kind]);
    return ids;
  }

  async run(m: Model, r: Real): Promise<void> {
    const open = (d: MDebit) => d.settlement === null;
    const body = this.eligibleOnly
      ? {
          payment_uids: this.uids(m.payments.filter(settleable), this.pays, 'payment'),
          refund_uids: this.uids(m.refund.filter(open), this.refunds, 'refund'),
          chargeback_uids: this.uids(m.chargeback.filter(open), this.chargebacks, 'chargeback'),
        }
      : {
          payment_uids: this.uids(m.payments, this.pays, 'payment'),
          refund_uids: this.uids(m.refund, this.refunds, 'refund'),
          chargeback_uids: this.uids(m.chargeback, this.chargebacks, 'chargeback'),
        };
    const problems = {
      payment_uids: firstProblem(body.payment_uids, m.payments, (p) =>
        p.gateway !== SIMULATOR ? 'is not on the simulator gateway' : !p.captured ? 'is not captured' : p.settlement ? 'is already settled' : null,
      ),
      refund_uids: firstProblem(body.refund_uids, m.refund, (d) => (d.settlement ? 'is already settled' : null)),
      chargeback_uids: firstProblem(body.chargeback_uids, m.chargeback, (d) => (d.settlement ? 'is already settled' : null)),
    };
    const res = await r.h.call('POST', '/pg/settlements/mark-settled/', { body });
    const touched = [...new Set(body.payment_uids)].map((id) => m.payments.find((p) => p.id === id)).filter((p) => p !== undefined);

    if (problems.payment_uids || problems.refund_uids || problems.chargeback_uids) {
      count(r, 'mark-settled (refused)');
      expectError(res, 400, 'ERR_SERVICE_ERROR_000', `mark-settled ${JSON.stringify(body)}`);
      for (const [cat, first] of Object.entries(problems)) {
        expect(res.body.error.details[cat], cat).toEqual(first ? [`${first.uid} ${first.why}`] : []);
      }
      // Atomic (rule 3): nothing of the batch was settled.
      for (const p of touched) await checkPayment(m, r, p);
      return;
    }

    const payments = body.payment_uids.map((id) => m.payments.find((p) => p.id === id)!);
    const refunds = body.refund_uids.map((id) => m.refund.find((d) => d.id === id)!);
    const chargebacks = body.chargeback_uids.map((id) => m.chargeback.find((d) => d.id === id)!);
    const parts = payments.map((p) => breakdown(p.amount));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const total = sum(parts.map((b) => b.net)) - sum(refunds.map((d) => d.amount)) - sum(chargebacks.map((d) => d.amount));
    if (total < 0) {
      // I1: a settlement is never negative; the debits named first carry the reason.
      count(r, 'mark-settled (refused: negative)');
      expectError(res, 400, 'ERR_SERVICE_ERROR_000', `mark-settled ${JSON.stringify(body)}`);
      const key = refunds.length > 0 ? 'refund_uids' : 'chargeback_uids';
      expect(res.body.error.details[key][0]).toContain(`would settle ${fmt(total)}`);
      for (const p of touched) await checkPayment(m, r, p);
      return;
    }
    count(r, 'mark-settled (accepted)');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s: MSettlement = {
      id: res.body.data.settlement_id,
      payments: payments.map((p) => p.id),
      refunds: refunds.map((d) => d.id),
      chargebacks: chargebacks.map((d) => d.id),
      // rule 5: Σ net − Σ refunds − Σ chargebacks; charges and GST from payments only.
      amount: total,
      charges: sum(parts.map((b) => b.fee)),
      gst: sum(parts.map((b) => b.gst)),
    };
    expect(s.id).toMatch(/^ST[0-9]{10}$/);
    expect(res.body.data).toMatchObject({
      settlement_amount: fmt(s.amount),
      settlement_charges: fmt(s.charges),
      settlement_gst: fmt(s.gst),
      forex_rate: '96',
    });
    m.settlements.push(s);
    for (const x of [...payments, ...refunds, ...chargebacks]) x.settlement = s.id;
    for (const p of touched) await checkPayment(m, r, p);
  }
  toString = () =>
    `MarkSettled${this.eligibleOnly ? 'Eligible' : ''}(p=${this.pays}, r=${this.refunds}, c=${this.chargebacks}, inject=${this.inject}@${this.at})`;
}

const settleable = (p: MPayment) => p.captured && p.gateway === SIMULATOR && p.settlement === null;

/** The sandbox's order of checks: a repeat, then existence, then the row's own state. */
function firstProblem<T extends { id: string }>(uids: string[], rows: readonly T[], why: (row: T) => string | null): { uid: string; why: string } | null {
  const seen = new Set<string>();
  for (const uid of uids) {
    if (seen.has(uid)) return { uid, why: 'appears more than once' };
    seen.add(uid);
    const row = rows.find((x) => x.id === uid);
    if (!row) return { uid, why: 'not found' };
    const problem = why(row);
    if (problem) return { uid, why: problem };
  }
  return null;
}

class GetPayment implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.payments.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    count(r, 'get payment');
    await checkPayment(m, r, pick(m.payments, this.n));
  }
  toString = () => `GetPayment(#${this.n})`;
}

/** Get Settlement: figures as JSON numbers with the model's rupee values (docs/sandbox.md). */
class GetSettlement implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.settlements.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    count(r, 'get settlement');
    const s = pick(m.settlements, this.n);
    const res = await r.h.call('GET', `/pg/settlements/${s.id}/`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.settlement_id).toBe(s.id);
    expect(d.settlement_amount).toBe(s.amount / 100);
    const rupees = (p: number) => p / 100;
    const expected = [
      ...s.payments.map((id) => {
        const p = m.payments.find((x) => x.id === id)!;
        const b = breakdown(p.amount);
        return { settlement_type: 'capture', transaction_id: id, transaction_amount: rupees(p.amount), merchant_service_fee: rupees(b.fee), merchant_service_tax: rupees(b.gst), merchant_net_amount: rupees(b.net) };
      }),
      ...(['refund', 'chargeback'] as const).flatMap((kind) =>
        (kind === 'refund' ? s.refunds : s.chargebacks).map((id) => {
          const x = m[kind].find((y) => y.id === id)!;
          return { settlement_type: kind, transaction_id: id, transaction_amount: rupees(x.amount), merchant_service_fee: 0, merchant_service_tax: 0, merchant_net_amount: rupees(-x.amount) };
        }),
      ),
    ];
    const got = (d.transactions as any[]).map((t) => ({
      settlement_type: t.settlement_type,
      transaction_id: t.transaction_id,
      transaction_amount: t.transaction_amount,
      merchant_service_fee: t.merchant_service_fee,
      merchant_service_tax: t.merchant_service_tax,
      merchant_net_amount: t.merchant_net_amount,
    }));
    const byId = (a: { transaction_id: string }, b: { transaction_id: string }) => a.transaction_id.localeCompare(b.transaction_id);
    expect(got.sort(byId)).toEqual(expected.sort(byId));
  }
  toString = () => `GetSettlement(#${this.n})`;
}

class GetMissing implements Cmd {
  constructor(readonly what: 'payment' | 'settlement') {}
  check = () => true;
  async run(_m: Model, r: Real): Promise<void> {
    count(r, 'get missing');
    if (this.what === 'payment') expectError(await r.h.call('GET', '/pg/payments/PR0000000000/'), 404, 'ERR_PAYMENT_005', 'unknown payment');
    else expectError(await r.h.call('GET', '/pg/settlements/ST0000000000/'), 404, 'ERR_SETTLEMENT_002', 'unknown settlement');
  }
  toString = () => `GetMissing(${this.what})`;
}

// ---- arbitraries -----------------------------------------------------------------------------

/** Paise: small amounts (rounding edges: every 20th paisa value is a half-paisa fee) and large ones up to the 10,000,000.00 cap. */
const amount = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 1_000_000_000 }), fc.constant(1_000_000_000));
const n = fc.nat({ max: 1_000 });

const createOrder = amount.map((a) => new CreateOrder(a));
const payOrder = fc
  .tuple(n, fc.constantFrom<'success' | 'fail'>('success', 'success', 'success', 'fail'), fc.constantFrom(SIMULATOR, SIMULATOR, SIMULATOR, SIMULATOR, 'acquirer_x'))
  .map(([i, outcome, gateway]) => new PayOrder(i, outcome, gateway));
const addDebit = fc.tuple(fc.constantFrom<DebitKind>('refund', 'chargeback'), n, fc.integer({ min: 1, max: 1_200 })).map(([k, i, pm]) => new AddDebit(k, i, pm));
const markSettled = (eligibleOnly: boolean) =>
  fc
    .tuple(
      fc.array(n, { minLength: 1, maxLength: eligibleOnly ? 5 : 3 }),
      fc.array(n, { maxLength: eligibleOnly ? 2 : 1 }),
      fc.array(n, { maxLength: eligibleOnly ? 2 : 1 }),
      eligibleOnly ? fc.constantFrom<Inject>('none') : fc.constantFrom<Inject>('none', 'none', 'none', 'payment', 'refund', 'chargeback'),
      n,
    )
    .map(([p, rf, cb, inject, at]) => new MarkSettled(p, rf, cb, inject, at, eligibleOnly));

/** fc.commands picks uniformly among these: repeats weigh the mix towards money moving. */
export const commandArbs: fc.Arbitrary<Cmd>[] = [
  createOrder,
  createOrder,
  createOrder,
  payOrder,
  payOrder,
  payOrder,
  addDebit,
  addDebit,
  markSettled(true),
  markSettled(true),
  markSettled(false),
  markSettled(false),
  n.map((i) => new GetPayment(i)),
  n.map((i) => new GetSettlement(i)),
  fc.constantFrom<'payment' | 'settlement'>('payment', 'settlement').map((w) => new GetMissing(w)),
];
