// Subscriptions: just enough to simulate their payments (spec 4.7). A subscription charge is an
// ordinary payment on an order of its own, so it can be read, refunded and settled like any other.
import type { SimulatePayment } from '../../api/schemas/index.js';
import { formatAmount } from '../../money.js';
import { SandboxError, subscriptionNotFound } from '../errors.js';
import { newUuid } from '../ids.js';
import { inScope, nowStamp, type Core, type Scope } from './core.js';
import { ORDER_FAILED, ORDER_PAID, completeOrderPayment, createOrder } from './orders.js';
import { paymentById } from './payments.js';
import { paymentEvent } from './event-data.js';
import { assertMayCollect } from './kyc-gate.js';

interface SubscriptionRow {
  uid: string;
  merchant_id: string;
  amount: string;
  currency: string;
  status: string;
  created_at: string;
}

export function createSubscription(core: Core, merchantId: string, amount: string): Record<string, unknown> {
  const { db } = core;
  return db.write(() => {
    assertMayCollect(core, merchantId);
    const uid = newUuid();
    const at = nowStamp(core, merchantId);
    db.run(
      `INSERT INTO subscriptions (uid, merchant_id, amount, currency, status, created_at) VALUES (?, ?, ?, 'INR', 'active', ?)`,
      uid,
      merchantId,
      formatAmount(amount),
      at,
    );
    return { uid, amount: formatAmount(amount), status: 'active', created_at: at };
  });
}

/** spec part 7: an upstream failure of simulate payment. */
const apiError = (detail: string) =>
  // vendor 8: 503.
  new SandboxError(503, 'PAYMENT_GATEWAY_API_ERROR', 'Payment gateway API error', { error: detail });

/**
 * spec 4.7. With payment_id: that payment of the subscription takes the new status. Its outcome is
 * frozen once money has moved after it (a refund, a chargeback or a settlement: a `failed` payment
 * must never keep a completed refund that settlement then debits), and an order never has two
 * captured payments (issue 21 items 1-2). Asking for the status it already has changes nothing.
 * Without payment_id: the gateway's choice is a new charge of the subscription amount.
 */
export function simulateSubscriptionPayment(core: Core, scope: Scope, uid: string, body: SimulatePayment): { payment_id: string; payment_status: string } {
  const { db } = core;
  return db.write(() => {
    const sub = db.get<SubscriptionRow>('SELECT * FROM subscriptions WHERE uid = ?', uid);
    if (!sub || !inScope(scope, sub.merchant_id)) throw subscriptionNotFound(uid);
    const success = body.payment_status === 'SUCCESS';
    if (body.payment_id !== undefined) {
      const p = paymentById(core, body.payment_id);
      if (!p || p.subscription_uid !== uid) throw apiError(`${body.payment_id} is not a payment of subscription ${uid}`);
      if (p.settlement_id !== null) throw apiError(`${body.payment_id} is already settled`);
      const status = success ? 'captured' : 'failed';
      if (p.status === status) return { payment_id: p.payment_id, payment_status: body.payment_status };
      // A charge becomes a payment taken: not for a sub-merchant that is not APPROVED (kyc-gate.ts).
      if (success) assertMayCollect(core, p.merchant_id);
      const debits = db.get<{ refunds: number; chargebacks: number }>(
        `SELECT (SELECT count(*) FROM refunds WHERE payment_id = ?) AS refunds, (SELECT count(*) FROM chargebacks WHERE payment_id = ?) AS chargebacks`,
        p.payment_id,
        p.payment_id,
      )!;
      if (debits.refunds > 0 || debits.chargebacks > 0) {
        const what = [debits.refunds > 0 ? 'refunds' : '', debits.chargebacks > 0 ? 'chargebacks' : ''].filter(Boolean).join(' and ');
        throw apiError(`${body.payment_id} has ${what}: its outcome can no longer change`);
      }
      if (success) {
        const other = db.get<{ payment_id: string }>(
          `SELECT payment_id FROM payments WHERE order_id = ? AND status = 'captured' AND payment_id <> ?`,
          p.order_id,
          p.payment_id,
        );
        if (other) throw apiError(`order ${p.order_id} is already paid by ${other.payment_id}: an order has one captured payment`);
      }
      const at = nowStamp(core, p.merchant_id);
      db.run(
        'UPDATE payments SET status = ?, status_message = ?, completed_at = ?, bank_ref_num = coalesce(bank_ref_num, ?) WHERE payment_id = ?',
        status,
        success ? null : 'Payment failed (simulated)',
        success ? at : null,
        success ? p.payment_id.slice(2) : null,
        p.payment_id,
      );
      // Each charge has an order of its own, which follows its payments: paid while one of them is
      // captured. Its reference_id stays taken, paid or not (see createOrder in orders.ts).
      const paid = success || db.get<{ n: number }>(`SELECT count(*) AS n FROM payments WHERE order_id = ? AND status = 'captured'`, p.order_id)!.n > 0;
      db.run(
        'UPDATE orders SET status = ?, status_message = ?, updated_at = ? WHERE order_id = ?',
        paid ? ORDER_PAID : ORDER_FAILED,
        paid ? 'Payment successful' : 'Payment failed (simulated)',
        at,
        p.order_id,
      );
      core.emit(paymentEvent(core, p.payment_id));
      return { payment_id: p.payment_id, payment_status: body.payment_status };
    }
    const n = db.get<{ n: number }>('SELECT count(*) AS n FROM payments WHERE subscription_uid = ?', uid)!.n;
    const order = createOrder(
      core,
      sub.merchant_id,
      {
        amount: sub.amount,
        currency: sub.currency,
        reference_id: `sub-${uid.slice(0, 8)}-${n + 1}-${core.micros(sub.merchant_id).toString(36)}`,
        return_url: 'https://example.com/return',
        buyer: {
          name: 'Subscription Buyer',
          email: 'subscriber@example.com',
          phone: '+919876543210',
          address: { line_1: '1 Demo Road', city: 'Mumbai', state: 'Maharashtra', postal_code: '400001' },
        },
        product: { name: 'Subscription', type_of_goods: 'service' },
        invoice: { number: `SUB-${n + 1}` },
        collection_mode: 'hosted_payment',
        mop_type: 'upi',
      },
      '3.0.0',
    );
    const paymentId = completeOrderPayment(core, {
      orderId: order.order_id,
      outcome: success ? 'success' : 'fail',
      subscriptionUid: uid,
    });
    return { payment_id: paymentId, payment_status: body.payment_status };
  });
}
