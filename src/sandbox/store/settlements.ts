// Settlements: mark-settled (spec 3.4, 4.6, part 7) and Get Settlement (spec 2.9, 4.5).
import type { MarkSettled } from '../../api/schemas/index.js';
import { Money, amountAsJsonValue, formatAmount } from '../../money.js';
import { NEVER_SETTLED_STATES, computeSettlement, negativeSettlement, refundIsDebited, refundNotDebited, refundOfUnsettledPayment } from '../../settlement.js';
import { settlementGate } from './settlement-state.js';
import { SandboxError, settlementNotFound } from '../errors.js';
import { newSettlementId, newUtr, newUuid } from '../ids.js';
import { nowStamp, type Core, type Scope } from './core.js';
import { debitById, paymentById, type DebitRow, type PaymentRow, type SettlementRow } from './payments.js';
import { settledEvent } from './event-data.js';

export const SIMULATOR_GATEWAY = 'simulator';
/** Amounts stay in rupees and forex is reported, not applied (docs/sandbox.md), so they are INR. */
export const SETTLEMENT_CURRENCY = 'INR';

export interface MarkSettledResult {
  settlement_id: string;
  utr_number: string;
  settlement_completed_at: string;
  forex_rate: string;
  settlement_amount: string;
  settlement_charges: string;
  settlement_gst: string;
}

type Category = 'payment_uids' | 'refund_uids' | 'chargeback_uids';

/** spec 4.6 / part 7: 400 ERR_SERVICE_ERROR_000, first failure per category, [] elsewhere. */
export function markSettledError(first: Partial<Record<Category, string>>): SandboxError {
  return new SandboxError(400, 'ERR_SERVICE_ERROR_000', 'Payment gateway error', {
    payment_uids: first.payment_uids ? [first.payment_uids] : [],
    refund_uids: first.refund_uids ? [first.refund_uids] : [],
    chargeback_uids: first.chargeback_uids ? [first.chargeback_uids] : [],
  });
}

/** Why a payment cannot be settled (spec 4.6 rule 1, part 7 messages), or null. */
function paymentProblem(uid: string, p: PaymentRow | undefined): string | null {
  if (!p) return `${uid} not found`; // rule 2: another merchant's UID reads as nonexistent
  if (p.gateway !== SIMULATOR_GATEWAY) return `${uid} is not on the simulator gateway`;
  if (p.status !== 'captured') return `${uid} is not captured`;
  if (p.settlement_id !== null) return `${uid} is already settled`;
  // 11.10 P5: a payment under verification settles only once verified (card/UPI: as before).
  return settlementGate(uid, p);
}

function debitProblem(uid: string, d: DebitRow | undefined): string | null {
  if (!d) return `${uid} not found`;
  if (d.settlement_id !== null) return `${uid} is already settled`;
  return null;
}

/**
 * A refund is debited only in the statuses of settlement.ts (docs/sandbox.md): a failed one never
 * reduces a payout; nor does one of a payment rejected or expired in verification (I1).
 */
function refundProblem(core: Core, uid: string, d: DebitRow | undefined): string | null {
  const why = debitProblem(uid, d);
  if (why !== null || !d) return why;
  if (!refundIsDebited(d.status)) return refundNotDebited(uid, d.status);
  const state = paymentById(core, d.payment_id)?.settlement_status;
  return state && NEVER_SETTLED_STATES.includes(state) ? refundOfUnsettledPayment(uid, d.payment_id, state) : null;
}

function firstProblem<T>(uids: string[], lookup: (uid: string) => T | undefined, problem: (uid: string, row: T | undefined) => string | null): { rows: T[]; problem?: string } {
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const uid of uids) {
    if (seen.has(uid)) return { rows, problem: `${uid} appears more than once` };
    seen.add(uid);
    const row = lookup(uid);
    const why = problem(uid, row);
    if (why !== null) return { rows, problem: why };
    rows.push(row!);
  }
  return { rows };
}

/**
 * Settle payments visible in `scope` (the acting merchant, or a PSP and its sub-merchants): all
 * pass or nothing is written (spec 4.6 rule 3; the whole check-and-write runs in one IMMEDIATE
 * transaction, so a concurrent mark-settled cannot settle the same payment twice). A settlement
 * belongs to one merchant: the owner of the first payment; the rest of the batch must share it.
 * Sends PAYMENT_SETTLED after commit.
 */
export function markSettled(core: Core, scope: Scope, body: MarkSettled): MarkSettledResult {
  const { db } = core;
  return db.write(() => {
    let owner: string | undefined;
    const sameOwner = <T extends { merchant_id: string }>(uid: string, row: T | undefined, why: string | null): string | null => {
      if (why !== null || !row) return why;
      owner ??= row.merchant_id;
      return row.merchant_id === owner ? null : `${uid} belongs to another merchant than ${body.payment_uids[0]}`;
    };
    const payments = firstProblem(body.payment_uids, (u) => paymentById(core, u, scope), (u, r) => sameOwner(u, r, paymentProblem(u, r)));
    const refunds = firstProblem(body.refund_uids, (u) => debitById(core, 'refund', u, scope), (u, r) => sameOwner(u, r, refundProblem(core, u, r)));
    const chargebacks = firstProblem(body.chargeback_uids, (u) => debitById(core, 'chargeback', u, scope), (u, r) => sameOwner(u, r, debitProblem(u, r)));
    if (payments.problem || refunds.problem || chargebacks.problem) {
      throw markSettledError({ payment_uids: payments.problem, refund_uids: refunds.problem, chargeback_uids: chargebacks.problem });
    }
    const merchantId = owner!;
    const b = computeSettlement({
      payments: payments.rows.map((p) => ({ payment_id: p.payment_id, amount: p.amount })),
      refunds: refunds.rows.map((r) => r.amount),
      chargebacks: chargebacks.rows.map((c) => c.amount),
    });
    const negative = negativeSettlement(b);
    if (negative) throw markSettledError({ [negative.key]: negative.reason });
    const id = newSettlementId(db);
    const at = nowStamp(core, merchantId);
    const utr = newUtr();
    db.run(
      `INSERT INTO settlements (id, uuid, merchant_id, utr_number, settlement_amount, settlement_charges, settlement_gst, forex_rate,
         settlement_currency, number_of_transactions, completed_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      newUuid(),
      merchantId,
      utr,
      b.settlement_amount,
      b.settlement_charges,
      b.settlement_gst,
      b.forex_rate,
      SETTLEMENT_CURRENCY,
      payments.rows.length,
      at,
      at,
    );
    for (const p of b.payments) {
      db.run('UPDATE payments SET settlement_id = ?, fee = ?, gst = ?, net = ? WHERE payment_id = ?', id, p.fee, p.gst, p.net, p.payment_id);
      // vendor 11.3: a payment under verification is SETTLED now (opens 11.5); others stay NULL (derived).
      db.run("UPDATE payments SET settlement_status = 'SETTLED' WHERE payment_id = ? AND settlement_status IS NOT NULL", p.payment_id);
    }
    for (const r of refunds.rows) db.run('UPDATE refunds SET settlement_id = ? WHERE refund_id = ?', id, r.id);
    for (const c of chargebacks.rows) db.run('UPDATE chargebacks SET settlement_id = ? WHERE chargeback_id = ?', id, c.id);
    const result: MarkSettledResult = {
      settlement_id: id,
      utr_number: utr,
      settlement_completed_at: at,
      forex_rate: b.forex_rate,
      settlement_amount: b.settlement_amount,
      settlement_charges: b.settlement_charges,
      settlement_gst: b.settlement_gst,
    };
    core.emit(settledEvent({ merchantId, settlementId: id, utr, completedAt: at, forexRate: b.forex_rate, settlementAmount: b.settlement_amount }));
    return result;
  });
}

export function settlementById(core: Core, id: string, scope?: Scope): SettlementRow | undefined {
  const row = core.db.get<SettlementRow>('SELECT * FROM settlements WHERE id = ? OR uuid = ?', id, id);
  return row && (scope === undefined || scope.includes(row.merchant_id)) ? row : undefined;
}

/**
 * spec 2.9 Get Settlement: amounts as JSON numbers with the same rupee values. Refunds and
 * chargebacks appear as their own transactions (settlement_type refund / chargeback, no fee,
 * negative net) so the transactions add up to settlement_amount.
 */
export function getSettlement(core: Core, scope: Scope, id: string): Record<string, unknown> {
  return core.db.read(() => {
    const s = settlementById(core, id, scope);
    if (!s) throw settlementNotFound(id);
    const forex = amountAsJsonValue(s.forex_rate);
    const payments = core.db.all<PaymentRow>('SELECT * FROM payments WHERE settlement_id = ? ORDER BY created_at, rowid', s.id);
    const debits = (table: 'refunds' | 'chargebacks', key: string, type: string) =>
      core.db
        .all<DebitRow & { mop_type: string | null; currency: string }>(
          `SELECT d.${key} AS id, d.amount, p.mop_type, p.currency FROM ${table} d JOIN payments p USING (payment_id)
           WHERE d.settlement_id = ? ORDER BY d.created_at, d.rowid`,
          s.id,
        )
        .map((d) => ({
          settlement_type: type,
          transaction_id: d.id,
          transaction_amount: amountAsJsonValue(d.amount),
          merchant_service_fee: 0,
          merchant_service_tax: 0,
          merchant_net_amount: amountAsJsonValue(new Money(d.amount).neg()),
          mop_type: d.mop_type,
          transaction_currency: d.currency,
          forex_rate: forex,
        }));
    return {
      settlement_id: s.id,
      utr_number: s.utr_number,
      settlement_completed_date: s.completed_at,
      forex_rate: forex,
      settlement_amount: amountAsJsonValue(s.settlement_amount),
      settlement_currency: s.settlement_currency,
      transactions: [
        ...payments.map((p) => ({
          settlement_type: 'capture',
          transaction_id: p.payment_id,
          transaction_amount: amountAsJsonValue(p.amount),
          merchant_service_fee: amountAsJsonValue(p.fee!),
          merchant_service_tax: amountAsJsonValue(p.gst!),
          merchant_net_amount: amountAsJsonValue(p.net!),
          mop_type: p.mop_type,
          transaction_currency: p.currency,
          forex_rate: forex,
        })),
        ...debits('refunds', 'refund_id', 'refund'),
        ...debits('chargebacks', 'chargeback_id', 'chargeback'),
      ],
    };
  });
}

export interface SettlementFilter {
  /** settlement_completed_date__gte / __lte: whole UTC days, both ends included (beyond 4.1). */
  fromDay?: string;
  toDay?: string;
}

/** GET /pg/settlements/ (beyond 4.1): the settlements in scope, newest completed first. */
export function listSettlements(core: Core, scope: Scope, filter: SettlementFilter, page: number, pageSize: number): { count: number; results: unknown[] } {
  return core.db.read(() => {
    if (scope.length === 0) return { count: 0, results: [] };
    const where = [`merchant_id IN (${scope.map(() => '?').join(', ')})`];
    const args: unknown[] = [...scope];
    // Stamps are ISO text that sorts as time: a day's start and the next day's start bound it.
    if (filter.fromDay) {
      where.push('completed_at >= ?');
      args.push(`${filter.fromDay}T00:00:00`);
    }
    if (filter.toDay) {
      where.push('completed_at < ?');
      args.push(nextDay(filter.toDay));
    }
    const clause = where.join(' AND ');
    const count = core.db.get<{ n: number }>(`SELECT count(*) AS n FROM settlements WHERE ${clause}`, ...args)!.n;
    const rows = core.db.all<SettlementRow>(
      `SELECT * FROM settlements WHERE ${clause} ORDER BY completed_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ...args,
      pageSize,
      (page - 1) * pageSize,
    );
    return {
      count,
      results: rows.map((s) => ({
        settlement_id: s.id,
        utr_number: s.utr_number,
        settlement_completed_date: s.completed_at,
        // JSON numbers as Get Settlement (spec 2.9) gives them, the same rupee values.
        settlement_amount: amountAsJsonValue(s.settlement_amount),
        settlement_currency: s.settlement_currency,
        // vendor 5.1: a number
        forex_rate: amountAsJsonValue(s.forex_rate),
        number_of_transactions: s.number_of_transactions,
      })),
    };
  });
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 19);
}

/**
 * vendor 5.2 recon rows: captures, refunds and chargebacks of one settlement, newest created_at
 * first; amounts as decimal strings; merchant_net_amount negative for debits, fees `0.00` there;
 * mop_type uppercase; settlement_completed_at absent on refund rows (as documented). `reach` finds
 * the settlement (404 otherwise); `rows` is whose rows the caller sees (X-Merchant-ID narrows it).
 */
export function recon(core: Core, reach: Scope, rows: Scope, id: string, page: number, pageSize: number): { count: number; results: unknown[] } {
  return core.db.read(() => {
    const s = settlementById(core, id, reach);
    if (!s) throw settlementNotFound(id);
    if (!rows.includes(s.merchant_id)) return { count: 0, results: [] };
    const upper = (m: string | null) => (m === null ? null : m.toUpperCase());
    const payments = core.db.all<PaymentRow>('SELECT * FROM payments WHERE settlement_id = ?', s.id).map((p) => ({
      created_at: p.created_at,
      row: {
        settlement_type: 'capture',
        transaction_id: p.payment_id,
        settlement_id: s.id,
        settlement_completed_at: s.completed_at,
        settlement_currency: s.settlement_currency,
        transaction_currency: p.currency,
        transaction_amount: formatAmount(p.amount),
        merchant_net_amount: formatAmount(p.net!),
        total_processing_fee: formatAmount(p.fee!),
        total_service_tax: formatAmount(p.gst!),
        mop_type: upper(p.mop_type),
        created_at: p.created_at,
      } as Record<string, unknown>,
    }));
    const debits = (table: 'refunds' | 'chargebacks', key: string, type: string) =>
      core.db
        .all<{ id: string; amount: string; created_at: string; mop_type: string | null; currency: string }>(
          `SELECT d.${key} AS id, d.amount, d.created_at, p.mop_type, p.currency FROM ${table} d JOIN payments p USING (payment_id) WHERE d.settlement_id = ?`,
          s.id,
        )
        .map((d) => {
          const row: Record<string, unknown> = {
            settlement_type: type,
            transaction_id: d.id,
            settlement_id: s.id,
            ...(type === 'refund' ? {} : { settlement_completed_at: s.completed_at }),
            settlement_currency: s.settlement_currency,
            transaction_currency: d.currency,
            transaction_amount: formatAmount(d.amount),
            merchant_net_amount: formatAmount(new Money(d.amount).neg()),
            total_processing_fee: '0.00',
            total_service_tax: '0.00',
            mop_type: upper(d.mop_type),
            created_at: d.created_at,
          };
          return { created_at: d.created_at, row };
        });
    const all = [...payments, ...debits('refunds', 'refund_id', 'refund'), ...debits('chargebacks', 'chargeback_id', 'chargeback')];
    // Newest first; ties (one moment) by transaction ID, so pages are stable.
    all.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : String(a.row.transaction_id).localeCompare(String(b.row.transaction_id))));
    return { count: all.length, results: all.slice((page - 1) * pageSize, page * pageSize).map((r) => r.row) };
  });
}
