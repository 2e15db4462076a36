// Payment verification, the gateway's side on the sandbox (11.10 P2, P6, P8, P9; vendor 11.3):
// the review's outcomes a test drives (simulate-verification), the deadline that expires an open
// verification on the account's clock, and the refunds and events each outcome brings.
import type { SimulatedState, Verdict } from '../../api/schemas/verification.js';
import { stamp, stampMicros } from '../db.js';
import { CLOCK_MAX_MICROS } from './clock.js';
import { SandboxError, paymentNotFound } from '../errors.js';
import { nowStamp, parseJson, type Core, type Scope } from './core.js';
import { addDebit, debitRoom, paymentById, type PaymentRow } from './payments.js';
import { VERIFICATION_WINDOW_MICROS, codes, ensureVerification, eventPayment, outstandingItems, standing, type Standing } from './verification.js';
import {
  ACTION_REQUIRED_MESSAGE,
  LRS_REQUIREMENTS_MESSAGE,
  ON_HOLD_MESSAGE,
  lrsVerificationNeeded,
  paymentDetailsMissing,
  paymentUnderReview,
  verificationNeeded,
  verificationStatus,
} from './verification-events.js';

/** Terminal for the simulator: refunded, settled, or never captured. */
const TERMINAL = new Set(['SETTLED', 'EXPIRED', 'REJECTED', 'NOT_APPLICABLE', 'PAYMENT_FAILED', 'PAYMENT_PENDING']);

export interface SimulateVerification {
  status: SimulatedState;
  message?: string;
  verdict?: Verdict;
}

const transition = (detail: Record<string, string>) => new SandboxError(400, 'ERR_VERIFICATION_001', 'Invalid verification transition', detail);

/** A full refund of what is left (vendor 11.3: EXPIRED and a rejected payment are refunded); nothing when nothing is left. */
function refundInFull(core: Core, p: PaymentRow): void {
  if (debitRoom(core, p).remaining.lte(0)) return;
  addDebit(core, 'refund', [p.merchant_id], p.payment_id, undefined);
}

/**
 * Move to EXPIRED (vendor 11.3): a full refund and VERIFICATION_NEEDED EXPIRED, LRS payments
 * included: 11.3's row names no exception and no other event announces an expiry (11.4.2's "never
 * sent for an LRS payment" is about the asks, which LRS_VERIFICATION_NEEDED carries; issue 42:
 * an LRS payment refunded with no event was money moved silently). docs/sandbox.md.
 */
function expire(core: Core, s: Standing, at: string): void {
  core.db.run("UPDATE payments SET settlement_status = 'EXPIRED' WHERE payment_id = ?", s.p.payment_id);
  ensureVerification(core, s.p, at, null);
  core.db.run('UPDATE verifications SET expired_at = ?, updated_at = ? WHERE payment_id = ?', at, at, s.p.payment_id);
  refundInFull(core, s.p);
  const left = s.checklist ? codes(outstandingItems(s.checklist, s.values, s.docs)) : [];
  core.emit(verificationNeeded(eventPayment(s.p), at, 'EXPIRED', left, ACTION_REQUIRED_MESSAGE, s.v?.expires_at ?? null));
}

/**
 * POST /pg/payments/{id}/simulate-verification/ (11.10 P2; sandbox only): the review's outcomes.
 * The same status again answers 200 and sends nothing. On a card/UPI payment, ACTION_REQUIRED
 * opens a verification with the 7-day deadline of 11.10 P9 (docs/sandbox.md).
 */
export function simulateVerification(core: Core, scope: Scope, paymentId: string, body: SimulateVerification): Record<string, unknown> {
  return core.db.write(() => {
    const p = paymentById(core, paymentId, scope);
    if (!p) throw paymentNotFound(paymentId);
    const s = standing(core, scope, paymentId);
    const lrs = s.checklist?.flow === 'lrs';
    if (TERMINAL.has(s.state)) throw transition({ status: `${paymentId} is ${s.state}: its verification can no longer move` });
    if (body.verdict && !lrs) throw transition({ verdict: 'a verdict is given only on an LRS payment (VERIFICATION_STATUS)' });
    const at = nowStamp(core, p.merchant_id);
    const ep = eventPayment(p);
    if (body.verdict) core.emit(verificationStatus(ep, at, body.verdict, body.message ?? '', documentSlots(s)));
    if (body.status === s.state) return { payment_id: paymentId, settlement_status: s.state };
    const set = (state: string) => core.db.run('UPDATE payments SET settlement_status = ? WHERE payment_id = ?', state, paymentId);
    switch (body.status) {
      case 'ACTION_REQUIRED': {
        // P9: a card/UPI payment's deadline runs from its capture; VBA credits and LRS carry none.
        const isCredit = core.db.get('SELECT 1 FROM vba_credits WHERE payment_id = ?', paymentId) !== undefined;
        const from = p.completed_at ?? p.created_at;
        // To the microsecond: capture + 7 days exactly (the model test checks it, issue 42).
        // I5: never past the calendar's last moment, which a clock can still be set to (as webhook retries, outbox.ts).
        const deadline = isCredit || lrs ? null : stamp(Math.min(stampMicros(from) + VERIFICATION_WINDOW_MICROS, CLOCK_MAX_MICROS));
        const v = ensureVerification(core, p, at, deadline);
        core.db.run('UPDATE verifications SET filed_at = NULL, updated_at = ? WHERE payment_id = ?', at, paymentId);
        set('ACTION_REQUIRED');
        const now = standing(core, scope, paymentId);
        const left = now.checklist ? outstandingItems(now.checklist, now.values, now.docs) : { fields: [], documents: [] };
        if (lrs) core.emit(lrsVerificationNeeded(ep, at, 'ACTION_REQUIRED', body.message ?? LRS_REQUIREMENTS_MESSAGE, left.fields, left.documents));
        else core.emit(verificationNeeded(ep, at, 'ACTION_REQUIRED', codes(left), body.message ?? ACTION_REQUIRED_MESSAGE, v.expires_at));
        detailsMissing(core, now, at);
        break;
      }
      case 'UNDER_REVIEW':
        ensureVerification(core, p, at, null);
        core.db.run('UPDATE verifications SET filed_at = coalesce(filed_at, ?), updated_at = ? WHERE payment_id = ?', at, at, paymentId);
        set('UNDER_REVIEW');
        core.emit(lrs ? paymentUnderReview(ep, at) : verificationNeeded(ep, at, 'IN_REVIEW', [], body.message ?? ACTION_REQUIRED_MESSAGE, null));
        break;
      case 'ON_HOLD':
        ensureVerification(core, p, at, null);
        set('ON_HOLD');
        if (!lrs) core.emit(verificationNeeded(ep, at, 'ON_HOLD', [], body.message ?? ON_HOLD_MESSAGE, s.v?.expires_at ?? null));
        break;
      case 'EXPIRED':
        expire(core, s, at);
        break;
      case 'REJECTED':
        ensureVerification(core, p, at, null);
        set('REJECTED');
        refundInFull(core, p);
        break;
      case 'VERIFIED':
      case 'READY_FOR_SETTLEMENT':
        ensureVerification(core, p, at, null);
        core.db.run('UPDATE verifications SET filed_at = coalesce(filed_at, ?), updated_at = ? WHERE payment_id = ?', at, at, paymentId);
        set(body.status);
        break;
    }
    return { payment_id: paymentId, settlement_status: body.status };
  });
}

function documentSlots(s: Standing): { code: string; message: string; ref?: string }[] {
  return (s.checklist?.documents ?? [])
    .filter((d) => s.docs[d.code] !== undefined)
    .map((d) => {
      const slot = s.docs[d.code]!;
      return { code: d.code, message: d.message, ...('ref' in slot ? { ref: slot.ref } : {}) };
    });
}

/**
 * 11.10 P9 on the sandbox clock: every open verification whose deadline has passed on its
 * account's clock expires (refund and event). Run with the link expiry (webhooks.ts), each second
 * and when the clock moves; the check is a read, and only a due one takes the write lock.
 */
export function expireDue(core: Core): number {
  const due = () =>
    core.db
      .all<{ payment_id: string; merchant_id: string; expires_at: string }>(
        `SELECT v.payment_id, v.merchant_id, v.expires_at FROM verifications v JOIN payments p ON p.payment_id = v.payment_id
          WHERE v.expires_at IS NOT NULL AND v.expired_at IS NULL AND p.settlement_status IN ('ACTION_REQUIRED', 'INFO_PENDING') AND p.settlement_id IS NULL`,
      )
      .filter((r) => r.expires_at <= nowStamp(core, r.merchant_id));
  if (due().length === 0) return 0;
  return core.db.write(() => {
    const rows = due();
    for (const r of rows) expire(core, standing(core, [r.merchant_id], r.payment_id), r.expires_at);
    return rows.length;
  });
}

/**
 * 11.10 P8: the retired PAYMENT_DETAILS_MISSING, only to an account whose compatibility flag is on
 * (merchants.details_missing_events), never for LRS, and only when an order field is missing
 * (vendor 11.4.1: the classification codes ride along but never trigger it alone).
 */
function detailsMissing(core: Core, s: Standing, at: string): void {
  if (s.checklist?.flow === 'lrs') return;
  const on = core.db.get<{ on: number }>('SELECT details_missing_events AS "on" FROM merchants WHERE merchant_id = ?', s.p.merchant_id)?.on === 1;
  if (!on) return;
  const buyer = parseJson<{ name?: string; address?: { line_1?: string; postal_code?: string } }>(s.order.buyer) ?? {};
  const product = parseJson<{ description?: string; hs_code?: string }>(s.order.product) ?? {};
  const invoice = parseJson<{ number?: string }>(s.order.invoice) ?? {};
  const orderFields: [string, unknown][] = [
    ['buyer_name', s.values.buyer_name ?? buyer.name],
    ['product_description', product.description],
    ['buyer_address', s.values.buyer_address_line_1 ?? buyer.address?.line_1],
    ['invoice_number', s.values.invoice_number ?? invoice.number],
    ['buyer_postal_code', s.values.buyer_postal_code ?? buyer.address?.postal_code],
    ['hs_code', product.hs_code],
  ];
  const missing = orderFields.filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
  if (missing.length === 0) return;
  if (s.order.purpose_code == null) missing.push('purpose_code');
  if (s.order.business_model == null) missing.push('business_model');
  core.emit(paymentDetailsMissing(eventPayment(s.p), at, missing));
}

/** VERIFICATION_NEEDED after a VBA credit (vendor 11.7.7, 11.10 P6): the classification is what is missing. */
export function creditNeedsVerification(core: Core, paymentId: string): void {
  const p = paymentById(core, paymentId)!;
  const s = standing(core, [p.merchant_id], paymentId);
  if (!s.checklist) return;
  const left = codes(outstandingItems(s.checklist, s.values, s.docs));
  const at = nowStamp(core, p.merchant_id);
  if (left.length) core.emit(verificationNeeded(eventPayment(p), at, 'ACTION_REQUIRED', left, ACTION_REQUIRED_MESSAGE, null));
  detailsMissing(core, s, at);
}
