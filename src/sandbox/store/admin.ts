// Webhook addresses, demo data and reset: the sandbox-only parts of the store.
import { formatAmount } from '../../money.js';
import { newWebhookId } from '../ids.js';
import { inScope, nowStamp, type Core, type Scope } from './core.js';
import { deleteData } from './data-scope.js';
import { webhookNotFound } from '../errors.js';
import { completeOrderPayment, createOrder } from './orders.js';
import { addDebit } from './payments.js';
import { createLink } from './links.js';
import { markSettled } from './settlements.js';
import type { OrderCreateV3 } from '../../api/schemas/index.js';

export interface WebhookView {
  id: string;
  merchant_id: string;
  url: string;
  /** Registered by `pgw listen`: dropped once its receiver is found gone (docs/sandbox.md). */
  listener: boolean;
  /** A listener's: the address it forwards to and the events it shows (issue 45); absent otherwise. */
  forward_to?: string;
  events?: string[];
  created_at: string;
}

interface WebhookRow {
  id: string;
  merchant_id: string;
  url: string;
  listener: number;
  forward_to: string | null;
  events: string | null;
  created_at: string;
}

const webhookView = (r: WebhookRow): WebhookView => ({
  id: r.id,
  merchant_id: r.merchant_id,
  url: r.url,
  listener: r.listener === 1,
  ...(r.forward_to !== null ? { forward_to: r.forward_to } : {}),
  ...(r.events !== null ? { events: r.events.split(',') } : {}),
  created_at: r.created_at,
});

export interface ListenerOptions {
  forwardTo?: string;
  events?: readonly string[];
}

export function addWebhook(core: Core, merchantId: string, url: string, listener = false, opts: ListenerOptions = {}): WebhookView {
  const { db } = core;
  return db.write(() => {
    const id = newWebhookId(db);
    const at = nowStamp(core, merchantId);
    const row: WebhookRow = { id, merchant_id: merchantId, url, listener: listener ? 1 : 0, forward_to: opts.forwardTo ?? null, events: opts.events?.join(',') ?? null, created_at: at };
    db.run(
      'INSERT INTO webhooks (id, merchant_id, url, listener, forward_to, events, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      row.id,
      row.merchant_id,
      row.url,
      row.listener,
      row.forward_to,
      row.events,
      row.created_at,
    );
    return webhookView(row);
  });
}

/** The registrations of the merchants in `scope`, oldest first. */
export function listWebhooks(core: Core, scope: Scope): WebhookView[] {
  if (scope.length === 0) return [];
  return core.db
    .all<WebhookRow>(
      `SELECT id, merchant_id, url, listener, forward_to, events, created_at FROM webhooks
        WHERE merchant_id IN (${scope.map(() => '?').join(', ')}) ORDER BY created_at, id`,
      ...scope,
    )
    .map(webhookView);
}

/** Remove one registration; one outside `scope` is as unknown as a nonexistent one (spec part 5 rule 3). */
export function deleteWebhook(core: Core, scope: Scope, id: string): WebhookView {
  const { db } = core;
  return db.write(() => {
    const row = db.get<WebhookRow>('SELECT id, merchant_id, url, listener, forward_to, events, created_at FROM webhooks WHERE id = ?', id);
    if (!row || !inScope(scope, row.merchant_id)) throw webhookNotFound(id);
    db.run('DELETE FROM webhooks WHERE id = ?', id);
    return webhookView(row);
  });
}

/**
 * Empty the data of `scope` (a PSP's includes its sub-merchants; undefined: every account's) but
 * keep the seeded accounts and their credentials (ids stay claimed), and the registrations of
 * running `pgw listen`s: they belong to live processes, not to the data (data-scope.ts).
 */
export function resetData(core: Core, scope?: Scope, caller?: string): void {
  const { db } = core;
  db.write(() => deleteData(db, scope, caller));
}

const DEMO_AMOUNTS = ['1000.00', '2500.50', '499.00', '10.10', '15000.00'];

function demoOrder(i: number, amount: string, micros: number): OrderCreateV3 {
  return {
    amount,
    currency: 'INR',
    reference_id: `demo-${micros.toString(36)}-${i}`,
    return_url: 'https://example.com/return',
    buyer: {
      name: 'Asha Verma',
      email: 'asha@example.com',
      phone: '+919876543210',
      address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' },
    },
    product: { name: 'Handloom scarf', type_of_goods: 'physical_goods', hs_code: '62141000' },
    invoice: { number: `INV-${i}` },
    collection_mode: 'hosted_payment',
    mop_type: 'upi',
  };
}

export interface SeedResult {
  orders: string[];
  payments: string[];
  refunds: string[];
  link_id: string | null;
  settlement_id: string | null;
}

/**
 * Demo data for `merchantId`, in one transaction. Default: four orders, three captured payments,
 * a refund on the second, the first settled, and an active link on the fourth order.
 * With `count`: that many orders, each with one captured payment, and nothing else.
 */
export function seedData(core: Core, merchantId: string, count?: number): SeedResult {
  const { db } = core;
  const scope = [merchantId];
  return db.write(() => {
    const n = count ?? 4;
    const orders: string[] = [];
    const payments: string[] = [];
    for (let i = 0; i < n; i++) {
      const order = createOrder(core, merchantId, demoOrder(i + 1, DEMO_AMOUNTS[i % DEMO_AMOUNTS.length]!, core.micros(merchantId)), '3.0.0');
      orders.push(order.order_id);
      if (count !== undefined || i < 3) payments.push(completeOrderPayment(core, { orderId: order.order_id, outcome: 'success', scope }));
    }
    if (count !== undefined) return { orders, payments, refunds: [], link_id: null, settlement_id: null };
    const refund = addDebit(core, 'refund', scope, payments[1]!, formatAmount('100'));
    const settled = markSettled(core, scope, { payment_uids: [payments[0]!], refund_uids: [], chargeback_uids: [] });
    const link = createLink(core, scope, orders[3]!, 7 * 24 * 3600);
    return { orders, payments, refunds: [refund.refund_id as string], link_id: link.link_id, settlement_id: settled.settlement_id };
  });
}
