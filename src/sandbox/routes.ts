// Every operation of spec part 4 at its path, and the sandbox helpers (docs/sandbox.md).
import { Router } from './router.js';
import { createOrder, updateOrder } from './handlers/orders.js';
import { getLink, getPayment, getSettlement } from './handlers/reads.js';
import { markSettled, simulatePayment } from './handlers/simulations.js';
import { createMerchant, listMerchants, updateMerchant } from './handlers/merchants.js';
import * as helpers from './handlers/helpers.js';

export function buildRouter(opts: { production: boolean }): Router {
  const r = new Router()
    .add('POST', '/pg/orders/', 'pg', createOrder)
    .add('PATCH', '/pg/orders/:order_id/', 'pg', updateOrder)
    .add('GET', '/pg/payments/:payment_id/', 'pg', getPayment)
    .add('GET', '/pg/payment-links/:link_id/', 'pg', getLink)
    .add('POST', '/pg/settlements/mark-settled/', 'pg', markSettled)
    .add('GET', '/pg/settlements/:settlement_id/', 'pg', getSettlement)
    .add('POST', '/pg/subscriptions/:subscription_id/simulate_payment/', 'pg', simulatePayment)
    .add('GET', '/partners/merchants/', 'partner', listMerchants)
    .add('POST', '/partners/merchants/', 'partner', createMerchant)
    .add('PATCH', '/partners/merchants/:merchant_id/', 'partner', updateMerchant);
  if (opts.production) return r;
  return r
    .add('POST', '/sandbox/orders/:order_id/pay/', 'sandbox', helpers.pay)
    .add('POST', '/sandbox/payments/:payment_id/refunds/', 'sandbox', helpers.refund)
    .add('POST', '/sandbox/payments/:payment_id/chargebacks/', 'sandbox', helpers.chargeback)
    .add('POST', '/sandbox/payment-links/', 'sandbox', helpers.createLink)
    .add('POST', '/sandbox/payment-links/:link_id/deactivate/', 'sandbox', helpers.deactivateLink)
    .add('POST', '/sandbox/subscriptions/', 'sandbox', helpers.createSubscription)
    .add('POST', '/sandbox/webhooks/', 'sandbox', helpers.addWebhook)
    .add('POST', '/sandbox/seed/', 'sandbox', helpers.seed)
    .add('POST', '/sandbox/reset/', 'sandbox', helpers.reset);
}

const PAGE_ROUTES: { kind: 'checkout' | '3ds' | 'link'; regex: RegExp; methods: string[] }[] = [
  { kind: 'checkout', regex: /^\/checkout\/([A-Za-z0-9_-]+)\/$/, methods: ['GET', 'POST'] },
  { kind: '3ds', regex: /^\/3ds\/([A-Za-z0-9_-]+)\/$/, methods: ['GET', 'POST'] },
  { kind: 'link', regex: /^\/p\/([A-Za-z0-9_-]+)\/$/, methods: ['GET', 'POST'] },
];

export function matchPage(method: string, path: string): { kind: 'checkout' | '3ds' | 'link'; token: string } | undefined {
  for (const p of PAGE_ROUTES) {
    const m = p.regex.exec(path);
    if (m && p.methods.includes(method)) return { kind: p.kind, token: m[1]! };
  }
  return undefined;
}
