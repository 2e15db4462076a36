// Payments (spec 2.7, 4.3) and the refunds and chargebacks the sandbox helpers add to them.
import { Money, amountAsJsonValue, formatAmount, type MoneyValue } from '../../money.js';
import { normalRefundStatus, refundIsDebited } from '../../settlement.js';
import { SandboxError, paymentNotFound } from '../errors.js';
import { newChargebackId, newRefundId } from '../ids.js';
import { inScope, nowStamp, parseJson, type Core, type Scope } from './core.js';
import { orderById, type OrderRow } from './orders.js';
import { settlementState } from './settlement-state.js';

export interface PaymentRow {
  payment_id: string;
  order_id: string;
  merchant_id: string;
  link_id: string | null;
  subscription_uid: string | null;
  amount: string;
  currency: string;
  mop_type: string | null;
  mop_detail: string | null;
  gateway: string;
  status: string;
  status_message: string | null;
  bank_ref_num: string | null;
  created_at: string;
  completed_at: string | null;
  settlement_id: string | null;
  fee: string | null;
  gst: string | null;
  net: string | null;
  /** vendor 11.3 state (migration 12): set on VBA credits; NULL on every other payment. */
  settlement_status?: string | null;
}

export interface SettlementRow {
  id: string;
  uuid: string;
  merchant_id: string;
  utr_number: string;
  settlement_amount: string;
  settlement_charges: string;
  settlement_gst: string;
  forex_rate: string;
  settlement_currency: string;
  number_of_transactions: number;
  completed_at: string;
  created_at: string;
}

interface DebitRow {
  id: string;
  payment_id: string;
  merchant_id: string;
  amount: string;
  status: string;
  created_at: string;
  settlement_id: string | null;
  /** Refunds only (migration 2). */
  callback_url?: string | null;
  bank_ref_num?: string | null;
  /** Refunds only (migration 4): the status note and when it was done (vendor 2.4). */
  message?: string | null;
  refunded_at?: string | null;
}

export function paymentById(core: Core, paymentId: string, scope?: Scope): PaymentRow | undefined {
  const row = core.db.get<PaymentRow>('SELECT * FROM payments WHERE payment_id = ?', paymentId);
  return row && inScope(scope, row.merchant_id) ? row : undefined;
}

export function orderView(order: OrderRow): Record<string, unknown> {
  return {
    order_id: order.order_id,
    reference_id: order.reference_id,
    amount: order.amount,
    currency: order.currency,
    // Optional, a string when present (vendor 3.2): left out while the order has no method.
    ...(order.mop_type === null ? {} : { opted_mop_type: order.mop_type }),
    buyer: parseJson(order.buyer),
    product: parseJson(order.product),
    status: order.status,
    status_message: order.status_message,
    created_at: order.created_at,
  };
}

/** spec 2.7; `settlement` is null until the payment is settled, then carries its breakdown (spec 2.9). */
export function paymentView(core: Core, p: PaymentRow): Record<string, unknown> {
  return core.db.read(() => {
    const order = orderById(core, p.order_id)!;
    const s = p.settlement_id ? core.db.get<SettlementRow>('SELECT * FROM settlements WHERE id = ?', p.settlement_id) : undefined;
    const { refund, chargeback } = debitObjects(core, p.payment_id);
    return {
      payment_id: p.payment_id,
      order: orderView(order),
      settlement: s
        ? {
            id: s.id,
            settlement_id: s.uuid,
            settlement_status: 'SETTLED',
            settlement_completed_at: s.completed_at,
            settlement_amount: s.settlement_amount,
            settlement_currency: s.settlement_currency,
            utr_number: s.utr_number,
            number_of_transactions: s.number_of_transactions,
            created_date: s.created_at,
            merchant_service_fee: p.fee,
            merchant_service_tax: p.gst,
            merchant_net_amount: p.net,
            forex_rate: s.forex_rate,
          }
        : null,
      // vendor 11.3 on every payment (store/settlement-state.ts settlementState): a verification's
      // stored state, SETTLED once settled, else derived from the payment's status.
      settlement_status: settlementState(p),
      refund,
      chargeback,
      collection_mode: order.collection_mode,
      mop_type: p.mop_type,
      bank_ref_num: p.bank_ref_num,
      mop_detail: parseJson(p.mop_detail) ?? {},
      payment_completed_at: p.completed_at,
      status: p.status,
      status_message: p.status_message,
      created_date: p.created_at,
    };
  });
}

export function getPayment(core: Core, scope: Scope, paymentId: string): Record<string, unknown> {
  const p = paymentById(core, paymentId, scope);
  if (!p) throw paymentNotFound(paymentId);
  return paymentView(core, p);
}

/**
 * What was taken back from a payment, as Get Payment and the order details' payment entries show
 * it. refund: vendor 2.6, each refund with the fields of vendor 2.5 (refund_amount a number).
 * chargeback: not shown by any spec (spec 2.7: "Fields of a chargeback record: not shown"); the
 * sandbox names them as DISPUTE_UPDATED does (vendor 1.6: chargeback_id, chargeback_amount a
 * number, chargeback_status) with payment_id and created_at (docs/sandbox.md).
 */
export function debitObjects(core: Core, paymentId: string): { refund: Record<string, unknown>[]; chargeback: Record<string, unknown>[] } {
  const refunds = core.db.all<DebitRow>('SELECT refund_id AS id, * FROM refunds WHERE payment_id = ? ORDER BY created_at, rowid', paymentId);
  const chargebacks = core.db.all<DebitRow>('SELECT chargeback_id AS id, * FROM chargebacks WHERE payment_id = ? ORDER BY created_at, rowid', paymentId);
  return {
    refund: refunds.map((r) => ({ ...refundObject(r), created_at: r.created_at })),
    chargeback: chargebacks.map((c) => ({
      chargeback_id: c.id,
      payment_id: c.payment_id,
      chargeback_amount: amountAsJsonValue(c.amount),
      chargeback_status: c.status,
      created_at: c.created_at,
    })),
  };
}

/** vendor 2.5: the refund object's documented fields, with C4's second name for the note. */
export function refundObject(r: DebitRow): Record<string, unknown> {
  const status = refundStatus(r.status);
  const message = r.message ?? (status === 'refunded' ? 'Refund completed' : null);
  return {
    refund_id: r.id,
    payment_id: r.payment_id,
    refund_amount: amountAsJsonValue(r.amount),
    refund_status: status,
    message,
    status_message: message,
    bank_ref_num: r.bank_ref_num ?? null,
    refunded_at: r.refunded_at ?? null,
  };
}

/** A new refund starts `initiated` (vendor 2.1, 2.5); the note the gateway gives it then. */
export const REFUND_INITIATED = 'initiated';
export const REFUND_QUEUED_MESSAGE = 'Refund Request Queued';
/** Stored status → the lowercase value of vendor 2.5 (databases from before issue 20 hold completed / processed). */
export const refundStatus = (stored: string): string => normalRefundStatus(stored);

type DebitKind = 'refund' | 'chargeback';
const DEBIT = {
  refund: { table: 'refunds', key: 'refund_id', newId: newRefundId, status: REFUND_INITIATED, code: 'ERR_REFUND_001' },
  chargeback: { table: 'chargebacks', key: 'chargeback_id', newId: newChargebackId, status: 'open', code: 'ERR_CHARGEBACK_001' },
} as const;

/**
 * I1 (docs/sandbox.md, "Invariants"): per payment, refunds in a counting status (settlement.ts
 * refundIsDebited: initiated, processing, on_hold, refunded) plus chargebacks never exceed what
 * was captured. The one place that says what is counted and what is left; every path that adds a
 * debit or moves a refund into a counting status asks it inside its write (addDebit here,
 * simulate-status in refunds.ts), so no order of moves can take back more than was paid.
 */
export function debitRoom(core: Core, p: PaymentRow, except?: string): { counted: MoneyValue; remaining: MoneyValue } {
  const counted = [
    ...core.db
      .all<{ id: string; amount: string; status: string }>('SELECT refund_id AS id, amount, status FROM refunds WHERE payment_id = ?', p.payment_id)
      .filter((r) => r.id !== except && refundIsDebited(r.status)),
    ...core.db.all<{ amount: string }>('SELECT amount FROM chargebacks WHERE payment_id = ?', p.payment_id),
  ].reduce((sum, r) => sum.plus(r.amount), new Money(0));
  return { counted, remaining: new Money(p.amount).minus(counted) };
}

/**
 * A refund or chargeback on a captured payment. Together they never exceed what was captured:
 * amount <= captured − refunds that count − chargebacks (debitRoom).
 */
export function addDebit(
  core: Core,
  kind: DebitKind,
  scope: Scope,
  paymentId: string,
  requested: string | undefined,
  extra: { callback_url?: string } = {},
): Record<string, unknown> {
  const { db } = core;
  const d = DEBIT[kind];
  return db.write(() => {
    const p = paymentById(core, paymentId, scope);
    if (!p) throw paymentNotFound(paymentId);
    if (p.status !== 'captured') {
      throw new SandboxError(400, d.code, `Payment is not captured`, { payment_id: `${paymentId} is not captured` });
    }
    // A failed, reversed or bank-rejected refund gave nothing back: it does not count (settlement.ts).
    const { counted: earlier, remaining } = debitRoom(core, p);
    // An omitted refund_amount refunds what is left (docs/sandbox.md: beyond 2.1 does not say).
    const amount = requested ?? formatAmount(remaining);
    if (requested === undefined && remaining.lte(0)) {
      throw new SandboxError(400, d.code.replace(/1$/, '4'), 'Nothing left to refund or charge back', {
        payment_id: `${paymentId} is already refunded or charged back in full (captured ${p.amount})`,
      });
    }
    if (new Money(amount).gt(remaining)) {
      throw new SandboxError(400, d.code.replace(/1$/, '2'), `Amount exceeds what is left of the payment`, {
        amount: `must be at most ${formatAmount(remaining)} (captured ${p.amount}, already refunded or charged back ${formatAmount(earlier)})`,
      });
    }
    const id = d.newId(db);
    const at = nowStamp(core, p.merchant_id);
    db.run(
      `INSERT INTO ${d.table} (${d.key}, payment_id, merchant_id, amount, status, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
      id,
      paymentId,
      p.merchant_id,
      formatAmount(amount),
      d.status,
      at,
    );
    if (kind === 'refund') {
      // vendor 2.1: no bank reference until the bank has it (simulate-status or REFUNDED stamps one).
      db.run('UPDATE refunds SET callback_url = ?, message = ? WHERE refund_id = ?', extra.callback_url ?? null, REFUND_QUEUED_MESSAGE, id);
      return { refund_id: id };
    }
    return { [d.key]: id, payment_id: paymentId, amount: formatAmount(amount), currency: p.currency, status: d.status, created_at: at };
  });
}

export function debitById(core: Core, kind: DebitKind, id: string, scope?: Scope): DebitRow | undefined {
  const d = DEBIT[kind];
  const row = core.db.get<DebitRow>(`SELECT ${d.key} AS id, * FROM ${d.table} WHERE ${d.key} = ?`, id);
  return row && inScope(scope, row.merchant_id) ? row : undefined;
}

export type { DebitRow };
