// The buyer pages (sandbox.md "How money moves"): hosted checkout, 3-D Secure, the payment-link
// page, and the UPI intent simulator (vendor N7's test_simulator_url). Each ends in Pay or Fail,
// then the buyer returns to return_url (not from the simulator: an S2S intent never redirects).
import { detailList, escapeHtml, messagePage, page, payButtons } from './html.js';
import type { PageOrder } from '../store.js';

/** What a buyer page shows of an order: the store's page view, never card data beyond last 4. */
export type BuyerOrderView = Pick<PageOrder, 'order_id' | 'reference_id' | 'amount' | 'currency' | 'merchant_name' | 'buyer_name' | 'product_name' | 'mop_type'>;

const METHODS: [string, string][] = [
  ['upi', 'UPI'],
  ['credit_card', 'Credit card'],
  ['debit_card', 'Debit card'],
  ['net_banking', 'Net banking'],
  ['qr', 'QR'],
];

function summary(order: BuyerOrderView): string {
  return `<h1>${escapeHtml(order.merchant_name ?? 'Merchant')}</h1>
<div class="amount" data-testid="amount">${escapeHtml(order.currency)} ${escapeHtml(order.amount)}</div>
${detailList([
  ['Order', order.order_id],
  ['Reference', order.reference_id],
  ['Buyer', order.buyer_name],
  ['Product', order.product_name],
])}`;
}

export function renderCheckoutPage(order: BuyerOrderView, action: string): string {
  const chosen = order.mop_type ?? 'upi';
  const options = METHODS.map(([v, label]) => `<option value="${v}"${v === chosen ? ' selected' : ''}>${label}</option>`).join('');
  const form = payButtons(action).replace(
    '<div class="actions">',
    `<label>Method <select name="mop_type">${options}</select></label><div class="actions">`,
  );
  return page(`Checkout ${order.order_id}`, `${summary(order)}${form}<p class="note">Pay captures the payment; Fail records a failed one.</p>`);
}

/** vendor N7: what the buyer's UPI app would do with the intent, approve or decline, until expires_at. */
export function renderUpiSimulatorPage(order: BuyerOrderView, action: string, expiresAt: string): string {
  return page(
    'UPI intent simulator',
    `<h1>UPI intent simulator</h1>${summary(order)}${detailList([['Expires', expiresAt]])}${payButtons(action, {}, { pay: 'Approve', fail: 'Decline' })}
<p class="note">Stands in for the buyer's UPI app: Approve captures the payment, Decline fails it. The intent stops accepting payment at its expiry.</p>`,
  );
}

export function renderThreeDsPage(order: BuyerOrderView, action: string, cardLast4?: string): string {
  const card = cardLast4 ? `<p>Card ending ${escapeHtml(cardLast4)}</p>` : '';
  return page(
    '3-D Secure',
    `<h1>3-D Secure verification</h1>${card}${summary(order)}${payButtons(action, {}, { pay: 'Approve', fail: 'Decline' })}
<p class="note">The issuer's step of a card payment: Approve captures it, Decline fails it.</p>`,
  );
}

export interface BuyerLinkView extends BuyerOrderView {
  link_id: string;
  status: string;
}

export function renderLinkPage(link: BuyerLinkView, action: string): string {
  if (link.status === 'failed') {
    return messagePage('Payment link closed', 'This payment link is closed: its order has been paid. It cannot be paid.');
  }
  if (link.status !== 'active') {
    return messagePage(`Payment link ${link.status}`, `This payment link is ${link.status} and cannot be paid.`);
  }
  return page(`Pay ${link.link_id}`, `${summary(link)}${payButtons(action)}`);
}

/** Where the buyer lands after paying: return_url with the outcome appended as query parameters. */
export function returnAddress(returnUrl: string, params: Record<string, string>): string {
  try {
    const url = new URL(returnUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  } catch {
    return returnUrl;
  }
}
