// Money arriving on a virtual bank account (vendor 11.7.4-11.7.7, 11.10 P6): the sandbox's
// simulate-transfer, and the account's payments as 11.7.4/11.7.5 list them. A credit is always
// recorded (11.7.6: "never dropped"): as an order with a captured payment, or, when it breaks one
// of the account's rules, a failed one. Its time is the account's sandbox clock.
import type { VbaTransfer } from '../../api/schemas/vba.js';
import { VBA_TRANSFER_CAP } from '../../api/schemas/limits.js';
import { Money, amountAsJsonValue, formatAmount } from '../../money.js';
import { stamp } from '../db.js';
import { SandboxError, validationError, VBA_VALIDATION } from '../errors.js';
import { newBankRef, newOrderId, newPaymentId, newVbaReference } from '../ids.js';
import { parseJson, type Core, type Scope } from './core.js';
import { paymentEvent } from './event-data.js';
import { ORDER_FAILED, ORDER_PAID } from './orders.js';
import { SIMULATOR_GATEWAY } from './settlements.js';
import { creditNeedsVerification } from './verification-review.js';
import { collectionRefusal } from './kyc-gate.js';
import { vbaById, type AmountLock, type RemitterLock, type VbaRow } from './vba.js';

/**
 * How a VBA credit's order and payment are labelled (docs/sandbox.md; the vendor names neither):
 * collection_mode and mop_type `bank_transfer`. The order is unclassified: business_model and
 * purpose_code stay NULL (11.10 P1), for the verification step to ask for.
 */
export const VBA_MOP = 'bank_transfer';

/** vendor 11.3 values as vendor 11.7.6 writes them (lowercase in the answer, uppercase stored as 11.3's enum). */
export const CREDIT_CAPTURED_STATE = 'ACTION_REQUIRED';
export const CREDIT_FAILED_STATE = 'NOT_APPLICABLE';

/** vendor 11.7.6 status_message values, in the order the sandbox checks them. */
export const VBA_REFUSALS = {
  inactive: 'VBA is inactive',
  cap: 'Amount exceeds 25 lacs limit',
  remitter: 'Remitter not in allow-list',
  amount: 'Amount outside allowed range',
} as const;

/** vendor 11.7.1: account numbers match ignoring leading zeros and case. */
const sameAccount = (a: string, b: string) => a.trim().replace(/^0+/, '').toUpperCase() === b.trim().replace(/^0+/, '').toUpperCase();

/** Why this credit breaks the account's rules (vendor 11.7.6, 11.7.7), or null when it is accepted. */
export function creditRefusal(v: Pick<VbaRow, 'status' | 'remitter_lock' | 'amount_lock'>, amount: string, remitterAccount: string, remitterIfsc: string): string | null {
  if (v.status !== 'ACTIVE') return VBA_REFUSALS.inactive;
  const value = new Money(amount);
  if (value.gt(VBA_TRANSFER_CAP)) return VBA_REFUSALS.cap;
  const remitters = parseJson<RemitterLock>(v.remitter_lock);
  if (remitters) {
    const allowed = remitters.allowed_remitters.some(
      (r) => sameAccount(r.account_number, remitterAccount) && (r.ifsc === undefined || r.ifsc.trim().toUpperCase() === remitterIfsc.trim().toUpperCase()),
    );
    if (!allowed) return VBA_REFUSALS.remitter;
  }
  const lock = parseJson<AmountLock>(v.amount_lock);
  if (lock) {
    if (lock.min_amount != null && value.lt(String(lock.min_amount))) return VBA_REFUSALS.amount;
    if (lock.max_amount != null && value.gt(String(lock.max_amount))) return VBA_REFUSALS.amount;
  }
  return null;
}

/**
 * vendor 11.7.6 payment_date `DD/MM/YYYY` becomes the completion time: that day, at the sandbox
 * clock's time of day (so today's date is exactly now); anything unparseable is now.
 */
export function completionMicros(paymentDate: string | undefined, nowMicros: number): number {
  const m = paymentDate === undefined ? null : /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(paymentDate.trim());
  if (!m) return nowMicros;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = Date.UTC(y, mo - 1, d);
  const date = new Date(day);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || y < 1970) return nowMicros;
  const dayMicros = 86_400_000_000;
  return day * 1000 + (((nowMicros % dayMicros) + dayMicros) % dayMicros);
}

export interface TransferResult {
  payment_id: string;
  order_id: string;
  reference_id: string;
  status: 'captured' | 'failed';
  settlement_status: string;
  status_message: string | null;
}

/**
 * POST /pg/vba/simulate-transfer/ (vendor 11.7.6 shape a; 11.10 P6). A UTR already used on the
 * account tree's credits is 409 and nothing is written. Otherwise one order (reference `VBA-` + 12
 * digits) and one payment, captured (ACTION_REQUIRED) or failed (NOT_APPLICABLE) with the rule it
 * broke, and PAYMENT_SUCCESSFUL or PAYMENT_FAILED carrying utr and virtual_account_id.
 * A captured credit then sends VERIFICATION_NEEDED listing the classification (business_model, purpose_code).
 */
export function simulateTransfer(core: Core, scope: Scope, body: VbaTransfer, apiVersion: string): TransferResult {
  const { db } = core;
  return db.write(() => {
    const v = vbaById(core, scope, body.virtual_account_id);
    const sim = body.vba_simulation;
    const earlier = db.get<{ payment_id: string }>('SELECT payment_id FROM vba_credits WHERE merchant_id = ? AND utr = ?', v.merchant_id, sim.utr);
    if (earlier) throw new SandboxError(409, 'ERR_VBA_003', 'Duplicate UTR', { utr: `${sim.utr} was already credited (${earlier.payment_id})` });
    const amount = formatAmount(String(sim.amount));
    // Money that reaches the account of a sub-merchant no longer APPROVED is recorded, failed
    // (vendor 11.7.6: a credit that breaks a rule is never dropped), naming its kyc_status (kyc-gate.ts).
    const inactive = collectionRefusal(core, v.merchant_id);
    const refusal = inactive ? `Merchant account is not active (kyc_status ${inactive.kycStatus})` : creditRefusal(v, amount, sim.remitter_account, sim.remitter_ifsc);
    const captured = refusal === null;
    const micros = core.micros(v.merchant_id);
    const at = stamp(micros);
    const completedAt = captured ? stamp(completionMicros(sim.payment_date, micros)) : null;
    const orderId = newOrderId(db, micros);
    const referenceId = newVbaReference(db);
    const remarks = sim.remarks ?? sim.sender_remark ?? null;
    const buyer = { name: sim.remitter_name, email: null, phone: sim.phone ?? null, pan_number: null, dob: null };
    const product = { name: `Bank transfer to virtual account ${v.virtual_account_id}`, description: remarks };
    db.run(
      `INSERT INTO orders (order_id, merchant_id, reference_id, open, amount, currency, collection_mode, mop_type, buyer, product, status,
         status_message, api_version, created_at, updated_at, business_model, purpose_code)
       VALUES (?, ?, ?, 1, ?, 'INR', ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
      orderId,
      v.merchant_id,
      referenceId,
      amount,
      VBA_MOP,
      VBA_MOP,
      JSON.stringify(buyer),
      JSON.stringify(product),
      captured ? ORDER_PAID : ORDER_FAILED,
      captured ? 'Payment successful' : refusal,
      apiVersion,
      at,
      at,
    );
    const paymentId = newPaymentId(db);
    const mopDetail = { virtual_account_id: v.virtual_account_id, utr: sim.utr, remitter_name: sim.remitter_name, remitter_account: sim.remitter_account, remitter_ifsc: sim.remitter_ifsc };
    db.run(
      `INSERT INTO payments (payment_id, order_id, merchant_id, amount, currency, mop_type, mop_detail, gateway, status, status_message,
         bank_ref_num, created_at, completed_at, settlement_status)
       VALUES (?, ?, ?, ?, 'INR', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      paymentId,
      orderId,
      v.merchant_id,
      amount,
      VBA_MOP,
      JSON.stringify(mopDetail),
      SIMULATOR_GATEWAY,
      captured ? 'captured' : 'failed',
      refusal,
      captured ? (sim.bank_txn_number ?? newBankRef()) : null,
      at,
      completedAt,
      captured ? CREDIT_CAPTURED_STATE : CREDIT_FAILED_STATE,
    );
    db.run(
      `INSERT INTO vba_credits (payment_id, virtual_account_id, merchant_id, utr, remitter_name, remitter_account, remitter_ifsc, phone, remarks, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      paymentId,
      v.virtual_account_id,
      v.merchant_id,
      sim.utr,
      sim.remitter_name,
      sim.remitter_account,
      sim.remitter_ifsc,
      sim.phone ?? null,
      remarks,
      at,
      at,
    );
    core.emit(paymentEvent(core, paymentId));
    // vendor 11.7.7, 11.10 P6: after PAYMENT_SUCCESSFUL, VERIFICATION_NEEDED naming what is missing.
    if (captured) creditNeedsVerification(core, paymentId);
    return {
      payment_id: paymentId,
      order_id: orderId,
      reference_id: referenceId,
      status: captured ? 'captured' : 'failed',
      settlement_status: (captured ? CREDIT_CAPTURED_STATE : CREDIT_FAILED_STATE).toLowerCase(),
      status_message: refusal,
    };
  });
}

export interface VbaPaymentFilter {
  /** Stamps (store form), inclusive. */
  createdFrom?: string;
  createdTo?: string;
  updatedFrom?: string;
  updatedTo?: string;
  sinceId?: string;
}

interface CreditRow {
  payment_id: string;
  order_id: string;
  status: string;
  amount: string | null;
  utr: string | null;
  remitter_account: string | null;
  remitter_ifsc: string | null;
  created_at: string;
  rowid: number;
}

/** vendor 11.7.4 result: status uppercase, amount a number, created_at with microseconds and Z. */
function creditEntry(r: CreditRow): Record<string, unknown> {
  return {
    payment_id: r.payment_id,
    order_id: r.order_id,
    status: r.status.toUpperCase(),
    amount: r.amount === null ? null : amountAsJsonValue(r.amount),
    payment_utr: r.utr ?? '',
    buyer_account_number: r.remitter_account,
    buyer_ifsc: r.remitter_ifsc,
    created_at: r.created_at,
  };
}

const CREDITS = `SELECT p.payment_id, p.order_id, p.status, p.amount, c.utr, c.remitter_account, c.remitter_ifsc, p.created_at, c.rowid AS rowid
  FROM vba_credits c JOIN payments p ON p.payment_id = c.payment_id`;

/** GET /pg/vba/{id}/payments/ (vendor 11.7.4): newest first; since_id must be a payment of this account (400). */
export function vbaPayments(core: Core, scope: Scope, virtualAccountId: string, filter: VbaPaymentFilter, page: number, pageSize: number): { count: number; results: unknown[] } {
  return core.db.read(() => {
    const v = vbaById(core, scope, virtualAccountId);
    const where = ['c.virtual_account_id = ?'];
    const args: unknown[] = [v.virtual_account_id];
    const bound = (sql: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(sql);
      args.push(value);
    };
    bound('p.created_at >= ?', filter.createdFrom);
    bound('p.created_at <= ?', filter.createdTo);
    bound('c.updated_at >= ?', filter.updatedFrom);
    bound('c.updated_at <= ?', filter.updatedTo);
    if (filter.sinceId !== undefined) {
      const since = core.db.get<CreditRow>(`${CREDITS} WHERE c.payment_id = ? AND c.virtual_account_id = ?`, filter.sinceId, v.virtual_account_id);
      if (!since) throw validationError([{ path: 'since_id', message: `${filter.sinceId} is not a payment of virtual account ${v.virtual_account_id}` }], VBA_VALIDATION);
      where.push('(p.created_at > ? OR (p.created_at = ? AND c.rowid > ?))');
      args.push(since.created_at, since.created_at, since.rowid);
    }
    const clause = where.join(' AND ');
    const count = core.db.get<{ n: number }>(`SELECT count(*) AS n FROM vba_credits c JOIN payments p ON p.payment_id = c.payment_id WHERE ${clause}`, ...args)!.n;
    const rows = core.db.all<CreditRow>(`${CREDITS} WHERE ${clause} ORDER BY p.created_at DESC, c.rowid DESC LIMIT ? OFFSET ?`, ...args, pageSize, (page - 1) * pageSize);
    return { count, results: rows.map(creditEntry) };
  });
}

/** GET /pg/vba/{id}/payment-by-utr/ (vendor 11.7.5): 404 for an unknown account or a UTR not credited to it. */
export function vbaPaymentByUtr(core: Core, scope: Scope, virtualAccountId: string, utr: string): Record<string, unknown> {
  return core.db.read(() => {
    const v = vbaById(core, scope, virtualAccountId);
    const row = core.db.get<CreditRow>(`${CREDITS} WHERE c.virtual_account_id = ? AND c.utr = ?`, v.virtual_account_id, utr);
    // The documented not-found of a payment (vendor 9.2), its details naming the UTR asked for.
    if (!row) throw new SandboxError(404, 'ERR_PAYMENT_005', 'Payment not found', { utr: `no payment with UTR ${utr} on virtual account ${v.virtual_account_id}` });
    return creditEntry(row);
  });
}
