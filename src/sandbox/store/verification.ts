// Payment verification (vendor 11.2, 11.3; 11.10 P1, P2, P5, P9): the checklist a payment owes
// and where a payment stands against it (the state, what is held, what is still owed). The
// merchant's sends are verification-submit.ts, uploads verification-documents.ts, the review's
// outcomes and deadlines verification-review.ts. Every rule once; the handlers only parse and
// answer. Time is the account's sandbox clock (nowStamp).
import { SandboxError, validationError } from '../errors.js';
import { ENABLED_PURPOSE_CODES, enabledPurposeCodes, checklistFor, invalidMessage, type Checklist, type ChecklistItem } from './checklists.js';
import { nowStamp, parseJson, type Core, type Scope } from './core.js';
import { orderById, type OrderRow } from './orders.js';
import { paymentById, type PaymentRow } from './payments.js';
import type { EventPayment } from './verification-events.js';
import { settlementState } from './settlement-state.js';

/** vendor 11.3's enum: the one list (src/settlement-states.ts). */
export { SETTLEMENT_STATES } from '../../settlement-states.js';


/** vendor 11.3 "Gating": only these accept sends. */
const ACCEPTING = new Set(['ACTION_REQUIRED', 'INFO_PENDING']);
export const ACCEPTING_STATES: ReadonlySet<string> = ACCEPTING;
/** 11.10 P9: a card/UPI payment's verification deadline, from its capture. */
export const VERIFICATION_WINDOW_MICROS = 7 * 86_400_000_000;

export interface VerificationRow {
  payment_id: string;
  merchant_id: string;
  fields: string;
  documents: string;
  filed_at: string | null;
  expires_at: string | null;
  expired_at: string | null;
  updated_at: string;
}

export type Held = Record<string, string | boolean>;
export type DocSlot = { ref: string } | { waiver_reason: string };

export { settlementGate, settlementState } from './settlement-state.js';

/** vendor 11.2.1: unknown or another merchant's payment. */
export const notFound = (id: string) => new SandboxError(400, 40360, 'Payment is not in a state that accepts verification details.', `${id}: Payment not found.`);
export const noChecklist = (bm: string | null, pc: string | null) =>
  new SandboxError(400, 40359, 'Invalid verification request.', `No verification checklist covers business model ${bm} with purpose code ${pc}.`);

export function row(core: Core, paymentId: string): VerificationRow | undefined {
  return core.db.get<VerificationRow>('SELECT * FROM verifications WHERE payment_id = ?', paymentId);
}

export function ensureVerification(core: Core, p: PaymentRow, at: string, expiresAt: string | null): VerificationRow {
  core.db.run('INSERT OR IGNORE INTO verifications (payment_id, merchant_id, expires_at, updated_at) VALUES (?, ?, ?, ?)', p.payment_id, p.merchant_id, expiresAt, at);
  return row(core, p.payment_id)!;
}

/** What the order already holds for a checklist code (vendor 11.2.1 `provided`: "already held"). */
function heldOnOrder(order: OrderRow): Held {
  const buyer = parseJson<Record<string, unknown>>(order.buyer) ?? {};
  const out: Held = {};
  const take = (code: string, v: unknown) => {
    if (typeof v === 'string' && v.trim() !== '') out[code] = v;
  };
  take('buyer_name', buyer.name);
  take('buyer_email', buyer.email);
  take('buyer_phone', buyer.phone);
  if (order.business_model) out.business_model = order.business_model;
  if (order.purpose_code) out.purpose_code = order.purpose_code;
  return out;
}

export interface Standing {
  p: PaymentRow;
  order: OrderRow;
  state: string;
  checklist: Checklist | null;
  v: VerificationRow | undefined;
  values: Held;
  docs: Record<string, DocSlot>;
}

export function standing(core: Core, scope: Scope, paymentId: string): Standing {
  const p = paymentById(core, paymentId, scope);
  if (!p) throw notFound(paymentId);
  const order = orderById(core, p.order_id)!;
  const v = row(core, paymentId);
  const values = { ...heldOnOrder(order), ...(parseJson<Held>(v?.fields) ?? {}) };
  return {
    p,
    order,
    state: settlementState(p),
    checklist: checklistFor(order.business_model ?? null, order.purpose_code ?? null),
    v,
    values,
    docs: parseJson<Record<string, DocSlot>>(v?.documents) ?? {},
  };
}

/** A conditional item applies when its condition holds (vendor 11.2.1). */
function applies(item: ChecklistItem, values: Held): boolean {
  if (item.condition === 'PAYING_FOR_SOMEONE_ELSE') return values.remitter_relation !== undefined && String(values.remitter_relation).toUpperCase() !== 'SELF';
  return item.condition === undefined;
}

function itemView(item: ChecklistItem, provided: boolean, values: Held): Record<string, unknown> {
  const needed = !item.optional && applies(item, values);
  return {
    code: item.code,
    message: item.message,
    satisfied: provided || !needed,
    provided,
    ...(item.optional ? { optional: true } : {}),
    ...(item.condition ? { condition: item.condition } : {}),
    ...(item.waivable ? { waivable: true } : {}),
  };
}

/** The codes still blocking completion, fields then documents (the GET's unsatisfied items). */
export function outstandingItems(c: Checklist, values: Held, docs: Record<string, DocSlot>): { fields: ChecklistItem[]; documents: ChecklistItem[] } {
  const open = (i: ChecklistItem, have: boolean) => !have && !i.optional && applies(i, values);
  return { fields: c.fields.filter((f) => open(f, values[f.code] !== undefined)), documents: c.documents.filter((d) => open(d, docs[d.code] !== undefined)) };
}

export const codes = (o: { fields: ChecklistItem[]; documents: ChecklistItem[] }) => [...o.fields, ...o.documents].map((i) => i.code);

function requirementsOf(s: Standing): Record<string, unknown> {
  if (!s.checklist) throw noChecklist(s.order.business_model ?? null, s.order.purpose_code ?? null);
  return {
    payment_id: s.p.payment_id,
    order_id: s.p.order_id,
    settlement_status: s.state,
    business_model: s.order.business_model ?? null,
    purpose_code: s.order.purpose_code ?? null,
    fields: s.checklist.fields.map((f) => itemView(f, s.values[f.code] !== undefined, s.values)),
    documents: s.checklist.documents.map((d) => itemView(d, s.docs[d.code] !== undefined, s.values)),
  };
}

/** GET /pg/payments/{id}/verification/ (vendor 11.2.1). */
export function requirements(core: Core, scope: Scope, paymentId: string): Record<string, unknown> {
  return core.db.read(() => requirementsOf(standing(core, scope, paymentId)));
}

/** What `payment get` adds (docs/cli.md): the state and the codes still owed, when a verification is open. */
export function outstandingCodes(core: Core, p: PaymentRow): string[] | null {
  if (!p.settlement_status || !ACCEPTING.has(p.settlement_status)) return null;
  const s = standing(core, [p.merchant_id], p.payment_id);
  return s.checklist ? codes(outstandingItems(s.checklist, s.values, s.docs)) : null;
}

export const eventPayment = (p: PaymentRow): EventPayment => ({ payment_id: p.payment_id, order_id: p.order_id, merchant_id: p.merchant_id });

/** 11.10 P4: the purpose codes the account may use now. */
export function purposeCodesOf(core: Core, merchantId: string): string[] {
  return enabledPurposeCodes(core.db.get<{ d: string | null }>('SELECT disabled_purpose_codes AS d FROM merchants WHERE merchant_id = ?', merchantId)?.d);
}

/** 11.10 P4: disable (or enable again) purpose codes for an account; the defaults are the only codes. */
export function setDisabledPurposeCodes(core: Core, merchantId: string, disabled: string[]): { merchant_id: string; enabled: string[]; disabled: string[] } {
  const off = [...new Set(disabled.map((c) => c.trim().toUpperCase()))];
  const unknown = off.filter((c) => !ENABLED_PURPOSE_CODES.includes(c));
  if (unknown.length) throw validationError([{ path: 'disabled', message: `not a sandbox purpose code: ${unknown.join(', ')} (they are ${ENABLED_PURPOSE_CODES.join(', ')})` }]);
  return core.db.write(() => {
    core.db.run('UPDATE merchants SET disabled_purpose_codes = ? WHERE merchant_id = ?', off.length ? JSON.stringify(off) : null, merchantId);
    return { merchant_id: merchantId, enabled: purposeCodesOf(core, merchantId), disabled: off };
  });
}

/** The refused items as vendor 11.2.2 gives them: 40359, details an object per code. */
export function invalid(flow: Checklist['flow'], problems: Record<string, string>): SandboxError {
  return new SandboxError(400, 40359, invalidMessage(flow), problems);
}

/** 11.10 P8: turn the account's compatibility flag for PAYMENT_DETAILS_MISSING on or off. */
export function setDetailsMissingEvents(core: Core, merchantId: string, on: boolean): { merchant_id: string; payment_details_missing: boolean } {
  return core.db.write(() => {
    core.db.run('UPDATE merchants SET details_missing_events = ? WHERE merchant_id = ?', on ? 1 : 0, merchantId);
    return { merchant_id: merchantId, payment_details_missing: on };
  });
}
