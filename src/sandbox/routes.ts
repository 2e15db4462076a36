// Every operation of spec part 4 at its path, and the sandbox helpers (docs/sandbox.md).
import { Router } from './router.js';

// Each handler module is imported when its first request arrives (router.ts); only the modules
// of routes that validate a body load the zod schemas.
const orders = () => import('./handlers/orders.js');
const reads = () => import('./handlers/reads.js');
const simulations = () => import('./handlers/simulations.js');
const merchants = () => import('./handlers/merchants.js');
const helpers = () => import('./handlers/helpers.js');

export function buildRouter(opts: { production: boolean }): Router {
  const r = new Router()
    .add('POST', '/pg/orders/', 'pg', async () => (await orders()).createOrder)
    .add('PATCH', '/pg/orders/:order_id/', 'pg', async () => (await orders()).updateOrder)
    .add('GET', '/pg/payments/:payment_id/', 'pg', async () => (await reads()).getPayment)
    .add('GET', '/pg/payment-links/:link_id/', 'pg', async () => (await reads()).getLink)
    .add('POST', '/pg/settlements/mark-settled/', 'pg', async () => (await simulations()).markSettled)
    .add('GET', '/pg/settlements/:settlement_id/', 'pg', async () => (await reads()).getSettlement)
    .add('POST', '/pg/subscriptions/:subscription_id/simulate_payment/', 'pg', async () => (await simulations()).simulatePayment)
    .add('GET', '/partners/merchants/', 'partner', async () => (await merchants()).listMerchants)
    .add('POST', '/partners/merchants/', 'partner', async () => (await merchants()).createMerchant)
    .add('PATCH', '/partners/merchants/:merchant_id/', 'partner', async () => (await merchants()).updateMerchant);
  if (opts.production) return r;
  return r
    .add('POST', '/sandbox/orders/:order_id/pay/', 'sandbox', async () => (await helpers()).pay)
    .add('POST', '/sandbox/payments/:payment_id/refunds/', 'sandbox', async () => (await helpers()).refund)
    .add('POST', '/sandbox/payments/:payment_id/chargebacks/', 'sandbox', async () => (await helpers()).chargeback)
    .add('POST', '/sandbox/payment-links/', 'sandbox', async () => (await helpers()).createLink)
    .add('POST', '/sandbox/payment-links/:link_id/deactivate/', 'sandbox', async () => (await helpers()).deactivateLink)
    .add('POST', '/sandbox/subscriptions/', 'sandbox', async () => (await helpers()).createSubscription)
    .add('POST', '/sandbox/webhooks/', 'sandbox', async () => (await helpers()).addWebhook)
    .add('GET', '/sandbox/webhooks/', 'sandbox', async () => (await helpers()).listWebhooks)
    .add('DELETE', '/sandbox/webhooks/:webhook_id/', 'sandbox', async () => (await helpers()).deleteWebhook)
    .add('POST', '/sandbox/seed/', 'sandbox', async () => (await helpers()).seed)
    .add('POST', '/sandbox/reset/', 'sandbox', async () => (await helpers()).reset);
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
