// Every operation of spec part 4 at its path, those of gateway-api-beyond.md 1-5, and the sandbox
// helpers (docs/sandbox.md).
import { Router } from './router.js';

// Each handler module is imported when its first request arrives (router.ts); only the modules
// of routes that validate a body load the zod schemas.
const orders = () => import('./handlers/orders.js');
const reads = () => import('./handlers/reads.js');
const simulations = () => import('./handlers/simulations.js');
const merchants = () => import('./handlers/merchants.js');
const helpers = () => import('./handlers/helpers.js');
const beyondReads = () => import('./handlers/beyond-reads.js');
const beyondWrites = () => import('./handlers/beyond-writes.js');
const snapshots = () => import('./handlers/snapshots.js');
const faults = () => import('./handlers/faults.js');
const health = () => import('./handlers/health.js');
const refundsSim = () => import('./handlers/refunds.js');
const events = () => import('./handlers/events.js');
const vbaReads = () => import('./handlers/vba-reads.js');
const vbaWrites = () => import('./handlers/vba-writes.js');
const verification = () => import('./handlers/verification.js');
const documents = () => import('./handlers/documents.js');
const lrs = () => import('./handlers/lrs.js');

/** vendor 4.4: a 2 MB file, its form fields and boundaries; a larger body is 413 before any part is read. */
const UPLOAD_BODY_BYTES = 3 * 1024 * 1024;
/** vendor 11.2.3: a 10 MB file and its form fields. */
const VERIFICATION_UPLOAD_BYTES = 11 * 1024 * 1024;

export function buildRouter(opts: { production: boolean }): Router {
  const r = new Router()
    .add('POST', '/pg/orders/', 'pg', async () => (await orders()).createOrder)
    .add('PATCH', '/pg/orders/:order_id/', 'pg', async () => (await orders()).updateOrder)
    .add('GET', '/pg/payments/', 'pg', async () => (await beyondReads()).listPayments)
    .add('GET', '/pg/payments/:payment_id/', 'pg', async () => (await reads()).getPayment)
    .add('GET', '/pg/payment-links/:link_id/', 'pg', async () => (await reads()).getLink)
    .add('POST', '/pg/settlements/mark-settled/', 'pg', async () => (await simulations()).markSettled)
    .add('GET', '/pg/settlements/:settlement_id/', 'pg', async () => (await reads()).getSettlement)
    .add('GET', '/pg/settlements/:settlement_id/recon/', 'pg', async () => (await beyondReads()).getRecon)
    .add('POST', '/pg/subscriptions/:subscription_id/simulate_payment/', 'pg', async () => (await simulations()).simulatePayment)
    .add('GET', '/partners/merchants/', 'partner', async () => (await merchants()).listMerchants)
    .add('POST', '/partners/merchants/', 'partner', async () => (await merchants()).createMerchant)
    .add('PATCH', '/partners/merchants/:merchant_id/', 'partner', async () => (await merchants()).updateMerchant)
    // Beyond the spec: the operations the vendor's client uses (gateway-api-beyond.md 1-5).
    .add('GET', '/pg/orders/:order_id/', 'pg', async () => (await beyondReads()).getOrder)
    .add('GET', '/pg/orders/:order_id/status/', 'pg', async () => (await beyondReads()).getOrderStatus)
    .add('POST', '/pg/refunds/', 'pg', async () => (await beyondWrites()).createRefund)
    .add('GET', '/pg/refunds/', 'pg', async () => (await beyondReads()).listRefunds)
    .add('GET', '/pg/refunds/:refund_id/', 'pg', async () => (await beyondReads()).getRefund)
    // vendor 2.4: sandbox only, and in production it answers 400 itself (as mark-settled).
    .add('POST', '/pg/refunds/:refund_id/simulate-status/', 'pg', async () => (await refundsSim()).simulateRefundStatus)
    .add('GET', '/pg/refunds/:refund_id/settlement/', 'pg', async () => (await beyondReads()).getRefundSettlement)
    .add('GET', '/pg/payments/:payment_id/settlement/', 'pg', async () => (await beyondReads()).getPaymentSettlement)
    .add('POST', '/pg/payment-links/', 'pg', async () => (await beyondWrites()).createPaymentLink)
    .add('GET', '/pg/payment-links/', 'pg', async () => (await beyondReads()).listLinks)
    .add('POST', '/pg/payment-links/:link_id/deactivate/', 'pg', async () => (await beyondWrites()).deactivatePaymentLink)
    .add('POST', '/pg/payment-links/:link_id/extend_expiry/', 'pg', async () => (await beyondWrites()).extendPaymentLink)
    .add('POST', '/pg/payment-links/:link_id/share/', 'pg', async () => (await beyondWrites()).sharePaymentLink)
    .add('GET', '/pg/settlements/', 'pg', async () => (await beyondReads()).listSettlements)
    .add('GET', '/partners/merchants/:merchant_id/', 'partner', async () => (await beyondReads()).getMerchant)
    // vendor 11.7: virtual bank accounts. simulate-transfer is sandbox only and answers 403 itself in production.
    .add('POST', '/pg/vba/', 'pg', async () => (await vbaWrites()).createVba)
    .add('GET', '/pg/vba/', 'pg', async () => (await vbaReads()).listVbas)
    .add('POST', '/pg/vba/simulate-transfer/', 'pg', async () => (await vbaWrites()).simulateTransfer)
    .add('GET', '/pg/vba/:virtual_account_id/', 'pg', async () => (await vbaReads()).getVba)
    .add('PUT', '/pg/vba/:virtual_account_id/', 'pg', async () => (await vbaWrites()).editVba)
    .add('PATCH', '/pg/vba/:virtual_account_id/', 'pg', async () => (await vbaWrites()).setVbaStatus)
    .add('GET', '/pg/vba/:virtual_account_id/payments/', 'pg', async () => (await vbaReads()).listVbaPayments)
    .add('GET', '/pg/vba/:virtual_account_id/payment-by-utr/', 'pg', async () => (await vbaReads()).getVbaPaymentByUtr)
    // vendor 11.2: payment verification; /pg/lrs/payments/ is the older path of the same pair (11.2.1).
    .add('GET', '/pg/payments/:payment_id/verification/', 'pg', async () => (await verification()).getVerification)
    .add('POST', '/pg/payments/:payment_id/verification/', 'pg', async () => (await verification()).submitVerification)
    .add('GET', '/pg/lrs/payments/:payment_id/verification/', 'pg', async () => (await verification()).getVerification)
    .add('POST', '/pg/lrs/payments/:payment_id/verification/', 'pg', async () => (await verification()).submitVerification)
    // vendor 11.2.5: deprecated by the vendor, kept working (11.10 P8).
    .add('POST', '/pg/payments/:payment_id/upload-verification-details/', 'pg', async () => (await verification()).uploadVerificationDetails)
    // vendor 11.5: B2B services post-settlement documents (upload is the documents/ route with type delivery_proof).
    .add('GET', '/pg/payments/:payment_id/settlement-documents/', 'pg', async () => (await verification()).getSettlementDocuments)
    .add('POST', '/pg/payments/:payment_id/settlement/submit/', 'pg', async () => (await verification()).submitSettlementDocuments)
    .add('POST', '/pg/payments/:payment_id/documents/', 'pg', async () => (await verification()).uploadDocument, { maxBodyBytes: VERIFICATION_UPLOAD_BYTES })
    // 11.10 P2: sandbox only, and in production it answers 400 itself (as mark-settled).
    .add('POST', '/pg/payments/:payment_id/simulate-verification/', 'pg', async () => (await verification()).simulateVerification)
    // vendor 11.1 and 11.6 (issue 36): order documents, PAN verify, LRS quote.
    .add('POST', '/pg/orders/:order_id/documents/', 'pg', async () => (await documents()).uploadOrderDocument, { maxBodyBytes: UPLOAD_BODY_BYTES })
    .add('POST', '/pg/pan/verify/', 'pg', async () => (await lrs()).verifyPan)
    .add('POST', '/pg/lrs/quote/', 'pg', async () => (await lrs()).quoteLrs);
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
    .add('POST', '/sandbox/merchants/:merchant_id/kyc/', 'sandbox', async () => (await helpers()).setKyc)
    .add('POST', '/sandbox/seed/', 'sandbox', async () => (await helpers()).seed)
    .add('GET', '/sandbox/reset/', 'sandbox', async () => (await helpers()).resetPreview)
    .add('POST', '/sandbox/reset/', 'sandbox', async () => (await helpers()).reset)
    .add('GET', '/sandbox/snapshots/', 'sandbox', async () => (await snapshots()).list)
    .add('POST', '/sandbox/snapshots/', 'sandbox', async () => (await snapshots()).save)
    .add('POST', '/sandbox/snapshots/:name/restore/', 'sandbox', async () => (await snapshots()).restore)
    .add('DELETE', '/sandbox/snapshots/:name/', 'sandbox', async () => (await snapshots()).remove)
    .add('GET', '/sandbox/health/', 'public', async () => (await health()).health)
    .add('GET', '/sandbox/faults/', 'sandbox', async () => (await faults()).list)
    .add('POST', '/sandbox/faults/', 'sandbox', async () => (await faults()).add)
    .add('DELETE', '/sandbox/faults/', 'sandbox', async () => (await faults()).clear)
    .add('DELETE', '/sandbox/faults/:fault_id/', 'sandbox', async () => (await faults()).remove)
    .add('POST', '/sandbox/compat/', 'sandbox', async () => (await verification()).setCompat)
    .add('GET', '/sandbox/purpose-codes/', 'sandbox', async () => (await verification()).getPurposeCodes)
    .add('POST', '/sandbox/purpose-codes/', 'sandbox', async () => (await verification()).setPurposeCodes)
    .add('GET', '/sandbox/encryption-key/', 'sandbox', async () => (await events()).getEncryptionKey)
    .add('GET', '/sandbox/clock/', 'sandbox', async () => (await events()).getClock)
    .add('POST', '/sandbox/clock/', 'sandbox', async () => (await events()).moveClock)
    .add('GET', '/sandbox/events/', 'sandbox', async () => (await events()).listEvents)
    .add('GET', '/sandbox/events/:event_id/', 'sandbox', async () => (await events()).getEvent)
    .add('POST', '/sandbox/events/:event_id/resend/', 'sandbox', async () => (await events()).resendEvent);
}

export type PageKind = 'checkout' | '3ds' | 'link' | 'return';

/** A stored order document at its signed address (store/documents.ts): GET only, no credentials. */
const DOCUMENT_ROUTE = /^\/documents\/(DOC[0-9]{10})\/$/;

export function matchDocument(method: string, path: string): string | undefined {
  return method === 'GET' ? DOCUMENT_ROUTE.exec(path)?.[1] : undefined;
}

const PAGE_ROUTES: { kind: PageKind; regex: RegExp; methods: string[] }[] = [
  { kind: 'checkout', regex: /^\/checkout\/([A-Za-z0-9_-]+)\/$/, methods: ['GET', 'POST'] },
  { kind: '3ds', regex: /^\/3ds\/([A-Za-z0-9_-]+)\/$/, methods: ['GET', 'POST'] },
  { kind: 'link', regex: /^\/p\/([A-Za-z0-9_-]+)\/$/, methods: ['GET', 'POST'] },
  // The sandbox's stand-in for a merchant's return page (issue 33 item 12): no token, GET only.
  { kind: 'return', regex: /^\/return\/()$/, methods: ['GET'] },
];

export function matchPage(method: string, path: string): { kind: PageKind; token: string } | undefined {
  for (const p of PAGE_ROUTES) {
    const m = p.regex.exec(path);
    if (m && p.methods.includes(method)) return { kind: p.kind, token: m[1]! };
  }
  return undefined;
}
