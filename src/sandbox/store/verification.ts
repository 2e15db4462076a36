// Payment verification (vendor 11.2, 11.3; 11.10 P1, P2, P5, P9): the checklist a payment owes,
// what the merchant sent against it, and the settlement state it moves through. Every rule here,
// once; the handlers only parse and answer. Time is the account's sandbox clock (nowStamp).
import { Money, formatAmount } from '../../money.js';
import { VERIFICATION_DOCUMENT_TYPES, verificationFileProblem, type SimulatedState, type Verdict } from '../../api/schemas/verification.js';
import { stamp, stampMicros } from '../db.js';
import { CLOCK_MAX_MICROS } from './clock.js';
import { SandboxError, paymentNotFound, validationError } from '../errors.js';
import { newDocumentRef } from '../ids.js';
import {
  BUSINESS_MODELS,
  ENABLED_PURPOSE_CODES,
  checkFieldValue,
  checklistFor,
  enabledPurposeCodes,
  invalidMessage,
  type Checklist,
  type ChecklistItem,
} from './checklists.js';
import { nowStamp, parseJson, type Core, type Scope } from './core.js';
import { orderById, type OrderRow } from './orders.js';
import { addDebit, debitRoom, paymentById, type PaymentRow } from './payments.js';
import {
  ACTION_REQUIRED_MESSAGE,
  LRS_REFUSED_MESSAGE,
  LRS_REQUIREMENTS_MESSAGE,
  ON_HOLD_MESSAGE,
  lrsVerificationNeeded,
  paymentDetailsMissing,
  paymentUnderReview,
  verificationNeeded,
  verificationStatus,
  type EventPayment,
} from './verification-events.js';

/** vendor 11.3's enum: the one list (src/settlement-states.ts). */
export { SETTLEMENT_STATES } from '../../settlement-states.js';


/** vendor 11.3 "Gating": only these accept sends. */
const ACCEPTING = new Set(['ACTION_REQUIRED', 'INFO_PENDING']);
export const ACCEPTING_STATES: ReadonlySet<string> = ACCEPTING;
/** Terminal for the simulator: refunded, settled, or never captured. */
const TERMINAL = new Set(['SETTLED', 'EXPIRED', 'REJECTED', 'NOT_APPLICABLE', 'PAYMENT_FAILED', 'PAYMENT_PENDING']);
/** 11.10 P9: a card/UPI payment's verification deadline, from its capture. */
export const VERIFICATION_WINDOW_MICROS = 7 * 86_400_000_000;

interface VerificationRow {
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
type DocSlot = { ref: string } | { waiver_reason: string };

import { settlementState } from './settlement-state.js';
export { settlementGate, settlementState } from './settlement-state.js';

/** vendor 11.2.1: unknown or another merchant's payment. */
const notFound = (id: string) => new SandboxError(400, 40360, 'Payment is not in a state that accepts verification details.', `${id}: Payment not found.`);
/**
 * vendor 11.2.2 rule 3: staging closes once filed. A payment that never had a verification filed
 * (a card payment READY_FOR_SETTLEMENT, a failed credit NOT_APPLICABLE) says so, not "filed"
 * (issue 42: that read as if something had been sent).
 */
const filed = (id: string, state: string, wasFiled: boolean) =>
  new SandboxError(
    400,
    40360,
    'Payment is not in a state that accepts verification details.',
    ACCEPTING.has(state)
      ? `${id}: Payment not found.`
      : wasFiled
        ? `${id} is ${state}: the verification has been filed and can no longer be changed.`
        : `${id} is ${state}: it takes no verification details (nothing was filed; only ACTION_REQUIRED and INFO_PENDING do).`,
  );
const noChecklist = (bm: string | null, pc: string | null) =>
  new SandboxError(400, 40359, 'Invalid verification request.', `No verification checklist covers business model ${bm} with purpose code ${pc}.`);

function row(core: Core, paymentId: string): VerificationRow | undefined {
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
function outstandingItems(c: Checklist, values: Held, docs: Record<string, DocSlot>): { fields: ChecklistItem[]; documents: ChecklistItem[] } {
  const open = (i: ChecklistItem, have: boolean) => !have && !i.optional && applies(i, values);
  return { fields: c.fields.filter((f) => open(f, values[f.code] !== undefined)), documents: c.documents.filter((d) => open(d, docs[d.code] !== undefined)) };
}

const codes = (o: { fields: ChecklistItem[]; documents: ChecklistItem[] }) => [...o.fields, ...o.documents].map((i) => i.code);

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

const eventPayment = (p: PaymentRow): EventPayment => ({ payment_id: p.payment_id, order_id: p.order_id, merchant_id: p.merchant_id });

export interface SubmitBody {
  fields?: Record<string, unknown>;
  documents?: { code?: unknown; ref?: unknown; waiver_reason?: unknown }[];
  finalize?: boolean;
}

export interface SubmitResult {
  payment_id: string;
  status: 'incomplete' | 'complete' | 'in_review' | 'action_required';
  outstanding: string[];
  /** vendor 11.2.2 (476eba94): only with action_required, LRS only. */
  refusal?: LrsRefusal;
}

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

export interface LrsRefusal {
  reason: 'PURPOSE_CODE_NOT_ALLOWED' | 'PAN_NOT_VERIFIED' | 'SENDER_NAME_MISMATCH' | null;
  missing: string[];
  outstanding_cents: number;
}

const paise = (v: string) => new Money(v).times(100).round().toNumber();

/**
 * 11.10 P3: the LRS gateway in the sandbox, driven by the PANs the account verified (POST
 * /pg/pan/verify/): an unverified remitter_pan is PAN_NOT_VERIFIED; a bank transfer whose sender
 * name is not the PAN's name is SENDER_NAME_MISMATCH (the money must come from the remitter's own
 * account: outstanding_cents is all of it); less received than amount_to_be_settled is reason
 * null with missing [outstanding] and the shortfall in paise (principal only: docs/sandbox.md).
 */
function lrsGateway(core: Core, s: Standing, values: Held): LrsRefusal | null {
  // P4: a code disabled since it was declared.
  if (!purposeCodesOf(core, s.p.merchant_id).includes(String(s.order.purpose_code ?? values.purpose_code))) return { reason: 'PURPOSE_CODE_NOT_ALLOWED', missing: ['purpose_code'], outstanding_cents: 0 };
  const pan = core.db.get<{ name: string; verified: number }>('SELECT name, verified FROM pan_verifications WHERE merchant_id = ? AND pan = ?', s.p.merchant_id, String(values.remitter_pan));
  if (pan?.verified !== 1) return { reason: 'PAN_NOT_VERIFIED', missing: ['remitter.pan'], outstanding_cents: 0 };
  const sender = core.db.get<{ remitter_name: string }>('SELECT remitter_name FROM vba_credits WHERE payment_id = ?', s.p.payment_id);
  const same = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toUpperCase() === b.trim().replace(/\s+/g, ' ').toUpperCase();
  if (sender && !same(sender.remitter_name, pan.name)) return { reason: 'SENDER_NAME_MISMATCH', missing: [], outstanding_cents: paise(s.p.amount) };
  const owed = new Money(String(values.amount_to_be_settled));
  if (owed.gt(s.p.amount)) return { reason: null, missing: ['outstanding'], outstanding_cents: paise(formatAmount(owed.minus(s.p.amount))) };
  return null;
}

class Refusal {
  constructor(
    readonly error: SandboxError,
    /** Checklist codes the refusal is tied to (vendor 11.4.2: VERIFICATION_NEEDED names them). */
    readonly items: string[],
  ) {}
}

/** The refused items as vendor 11.2.2 gives them: 40359, details an object per code. */
function invalid(flow: Checklist['flow'], problems: Record<string, string>): SandboxError {
  return new SandboxError(400, 40359, invalidMessage(flow), problems);
}

/** Check a submit against the checklist; nothing is written (vendor 11.2.2 rule 1: all or nothing). */
function plan(core: Core, s: Standing, body: SubmitBody): { checklist: Checklist; classify?: { bm: string; pc: string }; values: Held; docs: Record<string, DocSlot> } | Refusal {
  const flow = s.checklist?.flow ?? 'unclassified';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return new Refusal(invalid(flow, { body: 'Must be a JSON object.' }), []);
  const shape: Record<string, string> = {};
  if (body.fields !== undefined && (typeof body.fields !== 'object' || body.fields === null || Array.isArray(body.fields))) shape.fields = 'Must be an object of code to value.';
  if (body.documents !== undefined && !Array.isArray(body.documents)) shape.documents = 'Must be an array of {code, ref | waiver_reason}.';
  if (body.finalize !== undefined && typeof body.finalize !== 'boolean') shape.finalize = 'Must be a boolean.';
  if (Object.keys(shape).length) return new Refusal(invalid(flow, shape), []);
  const fields = body.fields ?? {};
  const problems: Record<string, string> = {};
  let checklist = s.checklist;
  let classify: { bm: string; pc: string } | undefined;
  const unclassified = s.order.business_model == null || s.order.purpose_code == null;
  const hasBm = 'business_model' in fields;
  const hasPc = 'purpose_code' in fields;
  if (unclassified) {
    if (hasBm !== hasPc) {
      problems[hasBm ? 'purpose_code' : 'business_model'] = `Required together with ${hasBm ? 'business_model' : 'purpose_code'}.`;
    } else if (hasBm) {
      const bm = typeof fields.business_model === 'string' ? fields.business_model.trim().toUpperCase() : '';
      const pc = typeof fields.purpose_code === 'string' ? fields.purpose_code.trim().toUpperCase() : '';
      if (!(BUSINESS_MODELS as readonly string[]).includes(bm)) problems.business_model = 'Must be B2B or B2C.';
      // 11.10 P4: codes are enabled per account; the sandbox's accounts start with these.
      else if (!purposeCodesOf(core, s.p.merchant_id).includes(pc)) problems.purpose_code = `Purpose code ${pc || '(blank)'} is not enabled for this merchant.`;
      else {
        checklist = checklistFor(bm, pc);
        if (!checklist) return new Refusal(noChecklist(bm, pc), []);
        classify = { bm, pc };
      }
    }
  } else {
    for (const k of ['business_model', 'purpose_code']) if (k in fields) problems[k] = 'Already set on the order; it cannot be changed here.';
  }
  const c = checklist ?? s.checklist!;
  const fieldCodes = new Set(c.fields.map((f) => f.code));
  const docCodes = new Map(c.documents.map((d) => [d.code, d]));
  const values: Held = { ...s.values };
  for (const [code, value] of Object.entries(fields)) {
    if (code === 'business_model' || code === 'purpose_code') continue;
    if (classify === undefined && unclassified) {
      problems[code] = 'Not a requirement of this payment\'s checklist.';
      continue;
    }
    if (docCodes.has(code)) problems[code] = "This is a document code; send it under 'documents'.";
    else if (!fieldCodes.has(code)) problems[code] = "Not a requirement of this payment's checklist.";
    else {
      const r = checkFieldValue(code, value);
      if (!r.ok) problems[code] = r.reason;
      // vendor 11.2.1 (476eba94) cross-checks the invoice amount against the credit: equal (docs/sandbox.md).
      else if (code === 'invoice_amount' && !new Money(String(r.value)).eq(s.p.amount)) problems[code] = `Does not match the amount received (${formatAmount(s.p.amount)}).`;
      else values[code] = r.value;
    }
  }
  if (classify) {
    values.business_model = classify.bm;
    values.purpose_code = classify.pc;
  }
  const docs: Record<string, DocSlot> = { ...s.docs };
  const seen = new Set<string>();
  for (const [i, entry] of (body.documents ?? []).entries()) {
    const code = entry && typeof entry === 'object' && typeof entry.code === 'string' ? entry.code : undefined;
    if (code === undefined) {
      problems[`documents.${i}`] = 'Each entry needs a code.';
      continue;
    }
    if (seen.has(code)) {
      problems[code] = 'Sent more than once in this call.';
      continue;
    }
    seen.add(code);
    const item = docCodes.get(code);
    const ref = entry.ref;
    const waiver = entry.waiver_reason;
    if (fieldCodes.has(code) || code === 'business_model' || code === 'purpose_code') problems[code] = "This is a field code; send it under 'fields'.";
    else if (!item) problems[code] = "Not a requirement of this payment's checklist.";
    else if ((ref == null) === (waiver == null)) problems[code] = 'Send exactly one of ref and waiver_reason.';
    else if (waiver != null) {
      if (!item.waivable) problems[code] = 'This document cannot be waived.';
      else if (typeof waiver !== 'string' || waiver.trim() === '') problems[code] = 'Blank value; omit the key instead.';
      else docs[code] = { waiver_reason: waiver.trim() };
    } else {
      const doc = typeof ref === 'string' ? core.db.get<{ type: string }>('SELECT type FROM verification_documents WHERE ref = ? AND merchant_id = ?', ref, s.p.merchant_id) : undefined;
      if (!doc) problems[code] = 'Unknown document ref.';
      else if (doc.type !== code) problems[code] = `The document ${String(ref)} was uploaded as ${doc.type}, not ${code}.`;
      else docs[code] = { ref: ref as string };
    }
  }
  if (Object.keys(problems).length) {
    const tied = Object.keys(problems).filter((k) => fieldCodes.has(k) || docCodes.has(k) || k === 'business_model' || k === 'purpose_code');
    return new Refusal(invalid(c.flow, problems), tied);
  }
  return { checklist: c, classify, values, docs };
}

/**
 * POST /pg/payments/{id}/verification/ (vendor 11.2.2): merge, all or nothing, classification
 * first, finalize (default true) files a complete set: the payment moves to UNDER_REVIEW and the
 * call answers `in_review` (B2B services as the guide and VERIFICATION_NEEDED d9bfbf64 have it;
 * docs/sandbox.md). A refusal tied to checklist items sends VERIFICATION_NEEDED naming them
 * (non-LRS, 11.4.2), written in its own transaction since the refused call writes nothing.
 */
export function submit(core: Core, scope: Scope, paymentId: string, body: SubmitBody): SubmitResult {
  const outcome = core.db.write((): SubmitResult | Refusal => {
    const s = standing(core, scope, paymentId);
    if (!ACCEPTING.has(s.state)) throw filed(paymentId, s.state, s.v?.filed_at != null || s.state === 'UNDER_REVIEW');
    if (!s.checklist) throw noChecklist(s.order.business_model ?? null, s.order.purpose_code ?? null);
    const planned = plan(core, s, body);
    if (planned instanceof Refusal) return planned;
    const { checklist, values, docs } = planned;
    const left = outstandingItems(checklist, values, docs);
    const outstanding = codes(left);
    const finalize = body.finalize ?? true;
    const at = nowStamp(core, s.p.merchant_id);
    const filing = outstanding.length === 0 && finalize && checklist.flow !== 'unclassified';
    if (filing && checklist.flow === 'b2b_services') {
      // vendor 11.2.2: an invoice number already used by another filed verification of the merchant.
      const clash = core.db.get<{ payment_id: string }>(
        `SELECT payment_id FROM verifications WHERE merchant_id = ? AND payment_id <> ? AND filed_at IS NOT NULL AND json_extract(fields, '$.invoice_number') = ?`,
        s.p.merchant_id,
        paymentId,
        values.invoice_number,
      );
      if (clash) return new Refusal(new SandboxError(400, 'ERR_IMPORT_VERIFICATION_001', 'Invoice number already exists.', 'Invoice number already exists.'), ['invoice_number']);
    }
    ensureVerification(core, s.p, at, null);
    const staged = Object.fromEntries(Object.entries(values).filter(([k]) => k !== 'business_model' && k !== 'purpose_code'));
    core.db.run('UPDATE verifications SET fields = ?, documents = ?, updated_at = ? WHERE payment_id = ?', JSON.stringify(staged), JSON.stringify(docs), at, paymentId);
    if (planned.classify) {
      core.db.run('UPDATE orders SET business_model = ?, purpose_code = ?, updated_at = ? WHERE order_id = ?', planned.classify.bm, planned.classify.pc, at, s.order.order_id);
      // vendor 11.4.4: declaring an LRS purpose code raises the requirement list (non-LRS: no fresh event, 11.4.2).
      if (checklist.flow === 'lrs' && outstanding.length > 0) {
        core.emit(lrsVerificationNeeded(eventPayment(s.p), at, s.state, LRS_REQUIREMENTS_MESSAGE, left.fields, left.documents));
      }
    }
    if (!filing) return { payment_id: paymentId, status: outstanding.length ? 'incomplete' : 'complete', outstanding };
    if (checklist.flow === 'lrs') {
      // vendor 11.2.2 rule 5, 11.10 P3: the LRS gateway's checks; a refusal files nothing and says why.
      const refusal = lrsGateway(core, s, values);
      if (refusal) {
        const items = refusal.reason === 'PAN_NOT_VERIFIED' ? checklist.fields.filter((f) => f.code === 'remitter_pan') : [];
        core.emit(lrsVerificationNeeded(eventPayment(s.p), at, 'ACTION_REQUIRED', LRS_REFUSED_MESSAGE, items, []));
        return { payment_id: paymentId, status: 'action_required', outstanding: [], refusal };
      }
    }
    fileOnOrder(core, s.order, values, at);
    core.db.run('UPDATE verifications SET filed_at = ? WHERE payment_id = ?', at, paymentId);
    core.db.run("UPDATE payments SET settlement_status = 'UNDER_REVIEW' WHERE payment_id = ?", paymentId);
    core.emit(checklist.flow === 'lrs' ? paymentUnderReview(eventPayment(s.p), at) : verificationNeeded(eventPayment(s.p), at, 'IN_REVIEW', [], ACTION_REQUIRED_MESSAGE, null));
    return { payment_id: paymentId, status: 'in_review', outstanding: [] };
  });
  if (!(outcome instanceof Refusal)) return outcome;
  const flow = outcome.error.message === 'Invalid LRS request.' ? 'lrs' : 'other';
  if (outcome.items.length && flow !== 'lrs') {
    core.db.write(() => {
      const p = paymentById(core, paymentId, scope)!;
      const v = row(core, paymentId);
      core.emit(verificationNeeded(eventPayment(p), nowStamp(core, p.merchant_id), 'ACTION_REQUIRED', outcome.items, ACTION_REQUIRED_MESSAGE, v?.expires_at ?? null));
    });
  }
  throw outcome.error;
}

/** vendor 11.2.2 rule 4: filing writes the values onto the order (the buyer's name, email and phone). */
function fileOnOrder(core: Core, order: OrderRow, values: Held, at: string): void {
  const buyer = parseJson<Record<string, unknown>>(order.buyer) ?? {};
  const set = (key: string, code: string) => {
    if (typeof values[code] === 'string') buyer[key] = values[code];
  };
  set('name', 'buyer_name');
  set('email', 'buyer_email');
  set('phone', 'buyer_phone');
  core.db.run('UPDATE orders SET buyer = ?, updated_at = ? WHERE order_id = ?', JSON.stringify(buyer), at, order.order_id);
}


/** POST /pg/payments/{id}/documents/ (vendor 11.2.3): 201 {ref, type}; uploads are immutable and scoped to the merchant. */
export function uploadDocument(core: Core, scope: Scope, paymentId: string, upload: { type: unknown; fileName: string | undefined; bytes: Buffer | undefined }): { ref: string; type: string } {
  return core.db.write(() => {
    const p = paymentById(core, paymentId, scope);
    if (!p) throw notFound(paymentId);
    const order = orderById(core, p.order_id)!;
    const flow = checklistFor(order.business_model ?? null, order.purpose_code ?? null)?.flow ?? 'unclassified';
    const type = typeof upload.type === 'string' ? upload.type.trim().toLowerCase() : '';
    if (!(VERIFICATION_DOCUMENT_TYPES as readonly string[]).includes(type)) throw invalid(flow, { type: 'Unknown document type.' });
    if (!upload.bytes || upload.fileName === undefined) throw invalid(flow, { file: 'This field is required.' });
    const why = verificationFileProblem({ filename: upload.fileName, size: upload.bytes.length, content: upload.bytes });
    // vendor 11.2.3: a bad file is 40359 with details.type `Unknown document type.`; details.file says why.
    if (why !== undefined) throw invalid(flow, { type: 'Unknown document type.', file: why });
    const ref = newDocumentRef(core.db);
    core.db.run(
      'INSERT INTO verification_documents (ref, merchant_id, payment_id, type, file_name, size, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ref,
      p.merchant_id,
      paymentId,
      type,
      upload.fileName,
      upload.bytes.length,
      upload.bytes,
      nowStamp(core, p.merchant_id),
    );
    return { ref, type };
  });
}

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

/** 11.10 P8: turn the account's compatibility flag for PAYMENT_DETAILS_MISSING on or off. */
export function setDetailsMissingEvents(core: Core, merchantId: string, on: boolean): { merchant_id: string; payment_details_missing: boolean } {
  return core.db.write(() => {
    core.db.run('UPDATE merchants SET details_missing_events = ? WHERE merchant_id = ?', on ? 1 : 0, merchantId);
    return { merchant_id: merchantId, payment_details_missing: on };
  });
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
