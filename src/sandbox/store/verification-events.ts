// The data of the compliance events (vendor 11.4), built in one place from what the store holds;
// the envelope and signature are outbox.ts's, as for every event.
import { formatEventTime } from '../../events.js';
import type { ChecklistItem } from './checklists.js';
import type { SandboxEvent } from './core.js';

export interface EventPayment {
  payment_id: string;
  order_id: string;
  merchant_id: string;
}

/** vendor 11.4.2: the usual message, even on IN_REVIEW; a send-back carries the reviewer's words. */
export const ACTION_REQUIRED_MESSAGE = 'Payment verification action required';
export const ON_HOLD_MESSAGE = 'Payment settlement is on hold';
export const UNDER_REVIEW_MESSAGE = 'Payment is under review';
export const LRS_REQUIREMENTS_MESSAGE = 'Payment verification details and documents are required';
export const LRS_REFUSED_MESSAGE = 'Payment verification did not pass';

/** vendor 11.4.2: the deadline in ISO 8601 without an offset (the sandbox's stamp, its Z dropped). */
const expiry = (stamp: string | null) => (stamp === null ? null : formatEventTime(stamp, 'naive'));

/** VERIFICATION_NEEDED (vendor 11.4.2): exactly six keys. IN_REVIEW carries no list and no deadline. */
export function verificationNeeded(p: EventPayment, at: string, status: 'ACTION_REQUIRED' | 'IN_REVIEW' | 'EXPIRED' | 'ON_HOLD', fields: string[], message: string, expiresAt: string | null): SandboxEvent {
  return {
    type: 'VERIFICATION_NEEDED',
    merchant_id: p.merchant_id,
    created_at: at,
    data: {
      payment_id: p.payment_id,
      order_id: p.order_id,
      verification_status: status,
      message,
      action_required_fields: status === 'IN_REVIEW' ? [] : fields,
      payment_verification_expiry: status === 'IN_REVIEW' ? null : expiry(expiresAt),
    },
  };
}

/** PAYMENT_UNDER_REVIEW (vendor 11.4.3): every value but the IDs is fixed. */
export function paymentUnderReview(p: EventPayment, at: string): SandboxEvent {
  return {
    type: 'PAYMENT_UNDER_REVIEW',
    merchant_id: p.merchant_id,
    created_at: at,
    data: {
      payment_id: p.payment_id,
      order_id: p.order_id,
      verification_status: 'UNDER_REVIEW',
      message: UNDER_REVIEW_MESSAGE,
      action_required_fields: [],
      payment_verification_expiry: null,
    },
  };
}

/** An entry of LRS_VERIFICATION_NEEDED's lists (vendor 11.4.4): code, message and the flags that apply. */
function lrsEntry(item: ChecklistItem, doc?: { ref?: string }): Record<string, unknown> {
  return {
    code: item.code,
    message: item.message,
    ...(item.waivable ? { waivable: true } : {}),
    ...(item.condition ? { condition: item.condition } : {}),
    ...(item.optional ? { optional: true } : {}),
    ...(doc?.ref ? { ref: doc.ref, doc_status: 'PENDING' } : {}),
  };
}

/** LRS_VERIFICATION_NEEDED (vendor 11.4.4): objects, not codes; the deadline always null on LRS. */
export function lrsVerificationNeeded(p: EventPayment, at: string, status: string, message: string, fields: ChecklistItem[], documents: ChecklistItem[]): SandboxEvent {
  return {
    type: 'LRS_VERIFICATION_NEEDED',
    merchant_id: p.merchant_id,
    created_at: at,
    data: {
      payment_id: p.payment_id,
      order_id: p.order_id,
      verification_status: status,
      message,
      action_required_fields: fields.map((f) => lrsEntry(f)),
      action_required_documents: documents.map((d) => lrsEntry(d)),
      payment_verification_expiry: null,
    },
  };
}

export interface DocumentSlot {
  code: string;
  message: string;
  ref?: string;
}

/** VERIFICATION_STATUS (vendor 11.4.5): exactly five keys; message "" on approval. */
export function verificationStatus(p: EventPayment, at: string, verdict: 'APPROVED' | 'REJECTED', comment: string, slots: DocumentSlot[]): SandboxEvent {
  const docStatus = verdict === 'APPROVED' ? 'VERIFIED' : 'REJECTED';
  return {
    type: 'VERIFICATION_STATUS',
    merchant_id: p.merchant_id,
    created_at: at,
    data: {
      payment_id: p.payment_id,
      order_id: p.order_id,
      verification_status: verdict,
      message: verdict === 'APPROVED' ? '' : comment,
      documents: slots.map((s) => ({
        code: s.code,
        message: s.message,
        ...(s.ref ? { ref: s.ref } : {}),
        doc_status: docStatus,
        ...(verdict === 'REJECTED' && comment ? { rejection_reason: comment } : {}),
      })),
    },
  };
}

/** PAYMENT_DETAILS_MISSING (vendor 11.4.1, being retired): sent only under the compatibility flag (11.10 P8). */
export function paymentDetailsMissing(p: EventPayment, at: string, missing: string[]): SandboxEvent {
  return {
    type: 'PAYMENT_DETAILS_MISSING',
    merchant_id: p.merchant_id,
    created_at: at,
    data: {
      order_uid: p.order_id,
      payment_id: p.payment_id,
      message: 'Payment details are missing',
      details_missing: missing,
    },
  };
}
