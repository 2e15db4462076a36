// The `data` of the payment and settlement events (vendor 1.6), built from what the database
// holds once the change is written, so every path that pays, fails or settles sends the same
// fields. The envelope around it is built in outbox.ts.
import type { Core, SandboxEvent } from './core.js';
import { nowStamp } from './core.js';
import { Money, amountAsJsonValue } from '../../money.js';

interface PaymentEventRow {
  payment_id: string;
  order_id: string;
  merchant_id: string;
  link_id: string | null;
  subscription_uid: string | null;
  amount: string;
  mop_type: string | null;
  status: string;
  status_message: string | null;
  bank_ref_num: string | null;
  created_at: string;
  completed_at: string | null;
  reference_id: string;
  /** A VBA credit's (vendor 11.7.7); null for every other payment. */
  utr: string | null;
  virtual_account_id: string | null;
  remarks: string | null;
}

/**
 * PAYMENT_FAILED's bank_ref_num is a required string (vendor docs, the payment-failed page; only
 * PAYMENT_SUCCESSFUL's newest page lets it be null, N12). A failed payment has no bank reference
 * of its own (Get Payment says null, which it allows), so the event gives the form the docs show
 * for one, `<order_id>-<payment_id>` (vendor 3.2).
 */
function failedBankRef(orderId: string, paymentId: string): string {
  return `${orderId}-${paymentId}`;
}

/**
 * PAYMENT_SUCCESSFUL or PAYMENT_FAILED for a payment as it now stands: the union of the older and
 * the newest pages' fields (N12, N13). `status` and `mop_type` lowercase as Get Payment (1.7);
 * `link_id` always present (null unless paid through a link, spec part 6); amounts are numbers.
 */
export function paymentEvent(core: Core, paymentId: string): SandboxEvent {
  const p = core.db.get<PaymentEventRow>(
    `SELECT p.payment_id, p.order_id, p.merchant_id, p.link_id, p.subscription_uid, p.amount, p.mop_type, p.status,
            p.status_message, p.bank_ref_num, p.created_at, p.completed_at, o.reference_id, c.utr, c.virtual_account_id, c.remarks
       FROM payments p JOIN orders o ON o.order_id = p.order_id LEFT JOIN vba_credits c ON c.payment_id = p.payment_id WHERE p.payment_id = ?`,
    paymentId,
  );
  if (!p) throw new Error(`paymentEvent: no payment ${paymentId}`);
  const captured = p.status === 'captured';
  const at = nowStamp(core, p.merchant_id);
  const message = captured ? 'Payment successful' : (p.status_message ?? 'Payment failed');
  return {
    type: captured ? 'PAYMENT_SUCCESSFUL' : 'PAYMENT_FAILED',
    merchant_id: p.merchant_id,
    created_at: at,
    data: {
      payment_id: p.payment_id,
      order_id: p.order_id,
      link_id: p.link_id,
      status: p.status,
      extended_status: captured ? 'SUCCESS' : 'FAILED',
      message,
      // vendor 11.7.6: a transfer's remarks are its payment_message.
      payment_message: p.remarks ?? message,
      mop_type: p.mop_type === null ? null : p.mop_type.toLowerCase(),
      amount: amountAsJsonValue(p.amount),
      merchant_reference_id: p.reference_id,
      bank_ref_num: p.bank_ref_num ?? (captured ? null : failedBankRef(p.order_id, p.payment_id)),
      // When the outcome was known: the capture, or the failure (which has no completion time).
      payment_completed_at: p.completed_at ?? at,
      // vendor 11.7.7: a VBA credit's event carries its UTR and account.
      utr: p.utr,
      virtual_account_id: p.virtual_account_id,
      subscription_id: p.subscription_uid,
    },
  };
}

export interface SettledEventInput {
  merchantId: string;
  settlementId: string;
  utr: string;
  completedAt: string;
  forexRate: string;
  settlementAmount: string;
}

/** PAYMENT_SETTLED (vendor 1.6): the new settlement in `settlements[]`, its UTR as settlement_utr. */
export function settledEvent(s: SettledEventInput): SandboxEvent {
  return {
    type: 'PAYMENT_SETTLED',
    merchant_id: s.merchantId,
    created_at: s.completedAt,
    data: {
      settlements: [
        {
          settlement_id: s.settlementId,
          settlement_utr: s.utr,
          settlement_done_at: s.completedAt,
          forex_rate: new Money(s.forexRate).toNumber(),
          settlement_amount: amountAsJsonValue(s.settlementAmount),
        },
      ],
    },
  };
}

/**
 * N13: a payment link that closes unpaid (deactivated, or expired on the sandbox clock) sends
 * PAYMENT_FAILED for the link itself, its payment_id being the link_id.
 */
export function linkClosedEvent(core: Core, linkId: string, at: string, why: 'expired' | 'deactivated'): SandboxEvent {
  const l = core.db.get<{ link_id: string; order_id: string; merchant_id: string; amount: string; reference_id: string }>(
    `SELECT l.link_id, l.order_id, l.merchant_id, o.amount, o.reference_id FROM links l JOIN orders o ON o.order_id = l.order_id WHERE l.link_id = ?`,
    linkId,
  );
  if (!l) throw new Error(`linkClosedEvent: no link ${linkId}`);
  const message = why === 'expired' ? 'Payment link expired unpaid' : 'Payment link deactivated unpaid';
  return {
    type: 'PAYMENT_FAILED',
    merchant_id: l.merchant_id,
    created_at: at,
    data: {
      payment_id: l.link_id,
      order_id: l.order_id,
      link_id: l.link_id,
      status: 'failed',
      extended_status: 'FAILED',
      message,
      payment_message: message,
      mop_type: null,
      amount: amountAsJsonValue(l.amount),
      merchant_reference_id: l.reference_id,
      bank_ref_num: failedBankRef(l.order_id, l.link_id),
      payment_completed_at: at,
      utr: null,
      virtual_account_id: null,
      subscription_id: null,
    },
  };
}
