// Routes the buyer's pages (sandbox.md "How money moves"): GET shows the page, a POST carrying
// `outcome` moves the money and sends the buyer back to return_url (303, so a reload does not
// pay twice). The unguessable session, 3-D Secure and link tokens are the buyer's authority.
import type { SandboxResponse } from '../exchange.js';
import type { PageRequest, PagesHandler } from '../pages-hook.js';
import type { PageOrder, Store } from '../store.js';
import { SandboxError } from '../errors.js';
import { detailList, escapeHtml, messagePage, page as htmlPage } from './html.js';
import { renderCheckoutPage, renderLinkPage, renderThreeDsPage, renderUpiSimulatorPage, returnAddress } from './buyer.js';
import { intentExpired, intentExpiresAt, isUpiIntent, type OrderRow } from '../store/orders.js';

const PAYABLE_METHODS = new Set(['upi', 'credit_card', 'debit_card', 'net_banking', 'qr']);

function sendHtml(res: SandboxResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(html)),
    'cache-control': 'no-store',
  });
  res.end(html);
}

function redirect(res: SandboxResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': '0', 'cache-control': 'no-store' });
  res.end();
}

function form(body: Buffer): URLSearchParams {
  return new URLSearchParams(body.toString('utf8'));
}


/** Pay or fail, then back to return_url with the outcome (or a result page when there is none). */
function finish(res: SandboxResponse, store: Store, order: PageOrder, outcome: 'success' | 'fail', extra: { linkId?: string; mopType?: string; stay?: boolean }): void {
  let payment: Record<string, unknown>;
  try {
    payment = store.completeOrderPayment({ orderId: order.order_id, outcome, linkId: extra.linkId, mopType: extra.mopType });
  } catch (err) {
    // The KYC gate's refusal names the status that stops the payment (store/kyc-gate.ts).
    const kyc = err instanceof SandboxError && typeof err.details === 'object' && typeof err.details.kyc_status === 'string' ? ` (kyc_status ${err.details.kyc_status})` : '';
    const message = err instanceof SandboxError ? `${err.message}${kyc}` : 'The payment could not be completed.';
    sendHtml(res, err instanceof SandboxError ? err.status : 500, messagePage('Payment not completed', message));
    return;
  }
  const params = { order_id: order.order_id, payment_id: String(payment.payment_id), status: String(payment.status) };
  if (order.return_url && !extra.stay) {
    redirect(res, returnAddress(order.return_url, params));
    return;
  }
  sendHtml(res, 200, messagePage(`Payment ${params.status}`, `Payment ${params.payment_id} for order ${params.order_id} is ${params.status}.`));
}

function outcomeOf(fields: URLSearchParams): 'success' | 'fail' | undefined {
  const outcome = fields.get('outcome');
  return outcome === 'success' || outcome === 'fail' ? outcome : undefined;
}

function notFound(res: SandboxResponse, what: string): void {
  sendHtml(res, 404, messagePage('Not found', `This ${what} does not exist or has been paid already.`));
}

/**
 * vendor N7: an S2S UPI intent's test_simulator_url. It accepts payment until expires_at
 * (creation + 5 minutes; the vendor suggests refusing after it), then answers 410 like a closed
 * link. S2S UPI intent does not redirect the buyer, so the result shows here, not at return_url.
 */
function upiSimulator({ token, method, body, res, store }: PageRequest, row: OrderRow): void {
  const order = store.pageOrder(row);
  if (order.status === 'payment_successful') return sendHtml(res, 409, messagePage('Already paid', `Order ${order.order_id} is paid.`));
  const expiresAt = intentExpiresAt(row);
  if (intentExpired(row, store.nowMicros(row.merchant_id))) {
    return sendHtml(res, 410, messagePage('UPI intent expired', `The UPI intent of order ${order.order_id} expired at ${expiresAt} and cannot be paid.`));
  }
  const outcome = method === 'POST' ? outcomeOf(form(body)) : undefined;
  if (outcome) return finish(res, store, order, outcome, { mopType: 'upi', stay: true });
  sendHtml(res, 200, renderUpiSimulatorPage(order, `/checkout/${encodeURIComponent(token)}/`, expiresAt));
}

const checkout = (page: PageRequest): void => {
  const { token, method, body, res, store } = page;
  const row = store.orderBySession(token);
  if (!row) return notFound(res, 'checkout session');
  if (isUpiIntent(row)) return upiSimulator(page, row);
  const order = store.pageOrder(row);
  const fields = method === 'POST' ? form(body) : new URLSearchParams();
  const outcome = outcomeOf(fields);
  if (outcome) {
    const mop = fields.get('mop_type') ?? undefined;
    return finish(res, store, order, outcome, { mopType: mop && PAYABLE_METHODS.has(mop) ? mop : undefined });
  }
  if (order.status === 'payment_successful') return sendHtml(res, 409, messagePage('Already paid', `Order ${order.order_id} is paid.`));
  sendHtml(res, 200, renderCheckoutPage(order, `/checkout/${encodeURIComponent(token)}/`));
};

// The acs_template form POSTs here without an outcome: that shows the issuer's page.
const threeDs = ({ token, method, body, res, store }: PageRequest): void => {
  const row = store.orderByAcsToken(token);
  if (!row) return notFound(res, '3-D Secure session');
  const order = store.pageOrder(row);
  const outcome = method === 'POST' ? outcomeOf(form(body)) : undefined;
  if (outcome) return finish(res, store, order, outcome, {});
  if (order.status === 'payment_successful') return sendHtml(res, 409, messagePage('Already paid', `Order ${order.order_id} is paid.`));
  sendHtml(res, 200, renderThreeDsPage(order, `/3ds/${encodeURIComponent(token)}/`, order.card_last4 ?? undefined));
};

const link = ({ token, method, body, res, store }: PageRequest): void => {
  const row = store.linkByToken(token);
  if (!row) return notFound(res, 'payment link');
  const orderRow = store.order(row.order_id);
  if (!orderRow) return notFound(res, 'payment link');
  const order = store.pageOrder(orderRow);
  const status = store.linkStatus(row);
  const outcome = method === 'POST' ? outcomeOf(form(body)) : undefined;
  if (outcome && status === 'active') return finish(res, store, order, outcome, { linkId: row.link_id });
  sendHtml(res, status === 'active' ? 200 : 410, renderLinkPage({ ...order, link_id: row.link_id, status }, `/p/${encodeURIComponent(token)}/`));
};

/**
 * GET /return/: the sandbox's return page, the return_url `pgw order create` offers on a sandbox
 * (issue 33 item 12). It shows what the buyer's browser brought back (the parameters the
 * sandbox appends to any return_url: order_id, payment_id, status), as a merchant's page would
 * receive them. It reads no order: order IDs are not secret, and a page without credentials
 * must not tell anyone an order's state.
 */
const returnPage = ({ req, res }: PageRequest): void => {
  const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
  const status = query.get('status');
  const title = status ? `Back from the payment: ${status}` : 'Return page';
  const rows: [string, unknown][] = [
    ['order_id', query.get('order_id')],
    ['payment_id', query.get('payment_id')],
    ['status', status],
  ];
  const note = 'This is the sandbox\'s return page: the default return_url of pgw order create on a sandbox. Your own page gets the same query parameters; check the payment with pgw payment get before trusting them.';
  sendHtml(res, 200, htmlPage(title, `<h1>${escapeHtml(title)}</h1>${detailList(rows)}<p class="note">${escapeHtml(note)}</p>`));
};

export const buyerPages: PagesHandler = (page) => {
  if (page.method !== 'GET' && page.method !== 'POST') {
    sendHtml(page.res, 405, messagePage('Method not allowed', 'Use the buttons on the page.'));
    return;
  }
  if (page.kind === 'return') return returnPage(page);
  if (page.kind === 'checkout') return checkout(page);
  if (page.kind === '3ds') return threeDs(page);
  return link(page);
};
