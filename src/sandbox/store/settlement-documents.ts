// B2B services post-settlement documents (vendor 11.5, newest shape): upload (11.2.3 with
// type=delivery_proof), list, submit. No attach, no delete. The set is kept on the payment's
// verification row (settlement_refs, settlement_submitted_at; NULL while FRESH).
import { formatEventTime } from '../../events.js';
import { SandboxError } from '../errors.js';
import { checklistFor } from './checklists.js';
import { nowStamp, parseJson, type Core, type Scope } from './core.js';
import { orderById } from './orders.js';
import { paymentById, type PaymentRow } from './payments.js';
import { ensureVerification } from './verification.js';

const notB2bServices = (id: string, why: string) => new SandboxError(400, 40360, 'Payment is not in a state that accepts verification details.', `${id}: ${why}`);
/** vendor 11.5: details repeat the message as a string. */
const refused = (code: string, message: string) => new SandboxError(400, code, message, message);

interface SetRow {
  settlement_refs: string | null;
  settlement_submitted_at: string | null;
}

function b2bPayment(core: Core, scope: Scope, paymentId: string): PaymentRow {
  const p = paymentById(core, paymentId, scope);
  if (!p) throw notB2bServices(paymentId, 'Payment not found.');
  const o = orderById(core, p.order_id)!;
  if (checklistFor(o.business_model ?? null, o.purpose_code ?? null)?.flow !== 'b2b_services') throw notB2bServices(paymentId, 'Not a B2B services payment.');
  return p;
}

/** GET /pg/payments/{id}/settlement-documents/ (vendor 11.5): answers before settlement too. */
export function settlementDocuments(core: Core, scope: Scope, paymentId: string): Record<string, unknown> {
  return core.db.read(() => {
    const p = b2bPayment(core, scope, paymentId);
    const set = core.db.get<SetRow>('SELECT settlement_refs, settlement_submitted_at FROM verifications WHERE payment_id = ?', paymentId);
    const submitted = parseJson<string[]>(set?.settlement_refs);
    const docs = core.db.all<{ ref: string; file_name: string }>(
      "SELECT ref, file_name FROM verification_documents WHERE payment_id = ? AND type = 'delivery_proof' ORDER BY created_at, rowid",
      paymentId,
    );
    // Submitted: exactly the set named (the rest were deactivated); FRESH: every upload so far.
    const shown = submitted ? docs.filter((d) => submitted.includes(d.ref)) : docs;
    return {
      state: submitted ? 'SUBMITTED' : 'FRESH',
      is_settled: p.settlement_id !== null,
      is_multi: true,
      required_doc_types: ['delivery_proof'],
      submitted_at: set?.settlement_submitted_at ? formatEventTime(set.settlement_submitted_at, 'naive') : null,
      // `file`: the sandbox serves no address for these yet (docs/sandbox.md).
      documents: shown.map((d) => ({ document_id: d.ref, doc_type: 'delivery_proof', file_name: d.file_name, file: null })),
    };
  });
}

/**
 * POST /pg/payments/{id}/settlement/submit/ (vendor 11.5): refs is the whole set, a repeated ref
 * files once, one transaction; refs are judged before the payment's state.
 */
export function submitSettlementDocuments(core: Core, scope: Scope, paymentId: string, body: unknown): Record<string, never> {
  return core.db.write(() => {
    const p = b2bPayment(core, scope, paymentId);
    const raw = body && typeof body === 'object' && !Array.isArray(body) ? (body as { refs?: unknown }).refs : undefined;
    const refs = Array.isArray(raw) ? [...new Set(raw)] : [];
    for (const ref of refs) {
      const doc = typeof ref === 'string' && ref.length <= 64 ? core.db.get<{ type: string }>('SELECT type FROM verification_documents WHERE ref = ? AND payment_id = ?', ref, paymentId) : undefined;
      if (!doc || doc.type !== 'delivery_proof') throw refused('ERR_B2B_SETTLEMENT_001', 'Document not found for this payment.');
    }
    const set = core.db.get<SetRow>('SELECT settlement_refs, settlement_submitted_at FROM verifications WHERE payment_id = ?', paymentId);
    if (set?.settlement_refs) throw refused('ERR_B2B_SETTLEMENT_002', 'Documents have already been submitted for this payment.');
    if (p.settlement_id === null) throw refused('ERR_B2B_SETTLEMENT_003', 'Payment is not settled.');
    if (refs.length === 0) throw refused('ERR_B2B_SETTLEMENT_004', 'At least one document ref is required.');
    const at = nowStamp(core, p.merchant_id);
    ensureVerification(core, p, at, null);
    core.db.run('UPDATE verifications SET settlement_refs = ?, settlement_submitted_at = ?, updated_at = ? WHERE payment_id = ?', JSON.stringify(refs), at, at, paymentId);
    return {};
  });
}
