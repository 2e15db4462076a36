// Payment verification, the merchant's side (vendor 11.2.2; 11.10 P3, P4): a send is checked
// against the payment's checklist all or nothing, then staged or filed; the LRS gateway's own
// checks refuse with a reason. Where a payment stands is verification.ts.
import { Money, formatAmount } from '../../money.js';
import { SandboxError } from '../errors.js';
import { BUSINESS_MODELS, checkFieldValue, checklistFor, type Checklist } from './checklists.js';
import { nowStamp, parseJson, type Core, type Scope } from './core.js';
import type { OrderRow } from './orders.js';
import { paymentById } from './payments.js';
import { ACCEPTING_STATES, codes, ensureVerification, eventPayment, invalid, noChecklist, outstandingItems, purposeCodesOf, row, standing, type DocSlot, type Held, type Standing } from './verification.js';
import { ACTION_REQUIRED_MESSAGE, LRS_REFUSED_MESSAGE, LRS_REQUIREMENTS_MESSAGE, lrsVerificationNeeded, paymentUnderReview, verificationNeeded } from './verification-events.js';

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
    ACCEPTING_STATES.has(state)
      ? `${id}: Payment not found.`
      : wasFiled
        ? `${id} is ${state}: the verification has been filed and can no longer be changed.`
        : `${id} is ${state}: it takes no verification details (nothing was filed; only ACTION_REQUIRED and INFO_PENDING do).`,
  );

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
    if (!ACCEPTING_STATES.has(s.state)) throw filed(paymentId, s.state, s.v?.filed_at != null || s.state === 'UNDER_REVIEW');
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
