// The scenario `pgw sandbox compare` runs on both sides (issue 46): only operations the docs say a
// test gateway offers and that are safe there (a UAT account's orders and links are test data),
// the sandbox-only ones only with what they need (`--payment`, `--subscription`), and a fixed set
// of bad requests whose refusals are compared. Pure: each step turns the IDs one side has gathered
// into that side's request.

export type StepGroup = 'flow' | 'sandbox-only' | 'bad';

/** What a step needs from the command line: a captured payment, a subscription, a PSP profile. */
export type Need = 'payment' | 'subscription' | 'psp';

/** What a side has gathered: the options' IDs and those earlier steps captured. */
export type Vars = Record<string, string | undefined>;

export interface StepRequest {
  method: 'GET' | 'POST';
  /** Relative to the side's base address, with its query (if any) already on it. */
  path: string;
  body?: unknown;
  /** X-API-Version other than the profile's (the bad version). */
  apiVersion?: string;
}

export interface Step {
  name: string;
  title: string;
  group: StepGroup;
  /** Where the docs describe it (spec, beyond, vendor). */
  doc: string;
  /** The request as `--steps` shows it, with the IDs it takes in braces. */
  shown: string;
  needs?: Need[];
  /** IDs an earlier step must have captured on both sides. */
  uses?: string[];
  request(v: Vars): StepRequest;
  /** IDs this step's answer gives later steps: name → where in the body (the first path that has one). */
  captures?: Record<string, string[][]>;
}

/** A reference no earlier run used: letters and digits (a link's invoice number allows no more, vendor 6). */
export function newReference(now: Date, random: () => number = Math.random): string {
  const stamp = now.toISOString().replace(/[^0-9]/g, '').slice(2, 14);
  return `PGWCMP${stamp}${Math.floor(random() * 36 ** 4).toString(36).toUpperCase().padStart(4, '0')}`;
}

const BUYER = {
  name: 'Compare Buyer',
  email: 'buyer@example.com',
  phone: '+919876543210',
  address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' },
};

/** A hosted order every documented version of create order takes (spec 2.1; vendor N6). */
export function orderBody(reference: string): Record<string, unknown> {
  return {
    amount: '10.00',
    currency: 'INR',
    reference_id: reference,
    return_url: 'https://example.com/pgw-compare/return',
    collection_mode: 'hosted_payment',
    buyer: BUYER,
    product: { name: 'pgw sandbox compare', description: 'A test order of pgw sandbox compare', type_of_goods: 'digital_goods' },
    invoice: { number: `INV${reference}` },
  };
}

/** The link as the vendor's client sends it (beyond 3.1), with the parts the newest docs require (vendor 6). */
function linkBody(reference: string): Record<string, unknown> {
  return {
    amount: '10.00',
    reference_id: `${reference}L`,
    buyer: BUYER,
    product: { name: 'pgw sandbox compare', description: 'A test link of pgw sandbox compare', type_of_goods: 'digital_goods' },
    invoice: { number: `INV${reference}L` },
  };
}

const page = (size: number) => `page=1&page_size=${size}`;
const need = (v: Vars, name: string): string => {
  const value = v[name];
  if (value === undefined) throw new Error(`scenario: ${name} is not known yet`);
  return encodeURIComponent(value);
};

/** Unknown IDs of the documented shapes (spec 2.6, 2.7): nothing any gateway holds. */
export const UNKNOWN_PAYMENT = 'PR0000000000';
export const UNKNOWN_ORDER = 'OD00000000000000';
export const BAD_API_VERSION = '9.9.9';

export const STEPS: readonly Step[] = [
  // First a read: a gateway that is down, refuses the credentials or answers HTML is found before anything is created.
  {
    name: 'payment.search',
    title: 'search payments',
    group: 'flow',
    doc: 'vendor 3.1',
    shown: `GET /pg/payments/?${page(5)}`,
    request: () => ({ method: 'GET', path: `/pg/payments/?${page(5)}` }),
  },
  {
    name: 'order.create',
    title: 'create an order (hosted checkout)',
    group: 'flow',
    doc: 'spec 4.1; vendor N1-N7',
    shown: 'POST /pg/orders/',
    request: (v) => ({ method: 'POST', path: '/pg/orders/', body: orderBody(v.reference!) }),
    captures: { order_id: [['data', 'order_id']] },
  },
  {
    name: 'order.get',
    title: 'read the order',
    group: 'flow',
    doc: 'beyond 1.1; vendor 4.1',
    shown: 'GET /pg/orders/{order_id}/',
    uses: ['order_id'],
    request: (v) => ({ method: 'GET', path: `/pg/orders/${need(v, 'order_id')}/` }),
  },
  {
    name: 'order.status',
    title: "read the order's status",
    group: 'flow',
    doc: 'beyond 1.2; vendor 4.2',
    shown: 'GET /pg/orders/{order_id}/status/',
    uses: ['order_id'],
    request: (v) => ({ method: 'GET', path: `/pg/orders/${need(v, 'order_id')}/status/` }),
  },
  {
    name: 'link.create',
    title: 'create a payment link',
    group: 'flow',
    doc: 'beyond 3.1; vendor 6, N9',
    shown: 'POST /pg/payment-links/',
    request: (v) => ({ method: 'POST', path: '/pg/payment-links/', body: linkBody(v.reference!) }),
    // vendor N9: link_id; beyond 3.1's client takes the link's ID from payment_id (the same value).
    captures: { link_id: [['data', 'link_id'], ['data', 'payment_id']] },
  },
  {
    name: 'link.get',
    title: 'read the link',
    group: 'flow',
    doc: 'spec 4.4; beyond 3.5; vendor 6',
    shown: 'GET /pg/payment-links/{link_id}/',
    uses: ['link_id'],
    request: (v) => ({ method: 'GET', path: `/pg/payment-links/${need(v, 'link_id')}/` }),
  },
  {
    name: 'link.list',
    title: 'list payment links',
    group: 'flow',
    doc: 'beyond 3.2; vendor 6, C11',
    shown: `GET /pg/payment-links/?${page(5)}`,
    request: () => ({ method: 'GET', path: `/pg/payment-links/?${page(5)}` }),
  },
  {
    name: 'link.deactivate',
    title: 'deactivate the link',
    group: 'flow',
    doc: 'beyond 3.3; vendor 6, N10',
    shown: 'POST /pg/payment-links/{link_id}/deactivate/',
    uses: ['link_id'],
    request: (v) => ({ method: 'POST', path: `/pg/payment-links/${need(v, 'link_id')}/deactivate/` }),
  },
  {
    name: 'link.get-expired',
    title: 'read the link again (a deactivated link reads expired)',
    group: 'flow',
    doc: 'spec 3.1; vendor 6',
    shown: 'GET /pg/payment-links/{link_id}/',
    uses: ['link_id'],
    request: (v) => ({ method: 'GET', path: `/pg/payment-links/${need(v, 'link_id')}/` }),
  },
  {
    name: 'settle.list',
    title: 'list settlements',
    group: 'flow',
    doc: 'beyond 4.1; vendor 5.1',
    shown: 'GET /pg/settlements/?page=1',
    request: () => ({ method: 'GET', path: '/pg/settlements/?page=1' }),
  },
  {
    name: 'merchant.list',
    title: 'list sub-merchants (a PSP)',
    group: 'flow',
    doc: 'spec 4.8; vendor 7.2',
    shown: `GET /partners/merchants/?${page(5)}`,
    needs: ['psp'],
    request: () => ({ method: 'GET', path: `/partners/merchants/?${page(5)}` }),
  },
  {
    name: 'refund.create',
    title: 'refund 1.00 of the captured payment',
    group: 'flow',
    doc: 'beyond 2.1; vendor 2.1',
    shown: 'POST /pg/refunds/ {payment_id}',
    needs: ['payment'],
    request: (v) => ({ method: 'POST', path: '/pg/refunds/', body: { payment_id: v.payment_id, refund_amount: '1.00' } }),
    captures: { refund_id: [['data', 'refund_id']] },
  },
  {
    name: 'refund.get',
    title: 'read the refund',
    group: 'flow',
    doc: 'beyond 2.2; vendor 2.2, 2.5',
    shown: 'GET /pg/refunds/{refund_id}/',
    needs: ['payment'],
    uses: ['refund_id'],
    request: (v) => ({ method: 'GET', path: `/pg/refunds/${need(v, 'refund_id')}/` }),
  },
  {
    name: 'refund.simulate',
    title: 'move the refund to REFUNDED (sandbox only)',
    group: 'sandbox-only',
    doc: 'vendor 2.4',
    shown: 'POST /pg/refunds/{refund_id}/simulate-status/',
    needs: ['payment'],
    uses: ['refund_id'],
    request: (v) => ({ method: 'POST', path: `/pg/refunds/${need(v, 'refund_id')}/simulate-status/`, body: { status: 'REFUNDED' } }),
  },
  {
    name: 'settle.mark',
    title: 'mark the payment and its refund settled (sandbox only)',
    group: 'sandbox-only',
    doc: 'spec 4.6',
    shown: 'POST /pg/settlements/mark-settled/ {payment_id, refund_id}',
    needs: ['payment'],
    uses: ['refund_id'],
    request: (v) => ({ method: 'POST', path: '/pg/settlements/mark-settled/', body: { payment_uids: [v.payment_id], refund_uids: [v.refund_id], chargeback_uids: [] } }),
  },
  {
    name: 'sub.simulate',
    title: 'simulate a subscription payment (sandbox only)',
    group: 'sandbox-only',
    doc: 'spec 4.7; vendor 8',
    shown: 'POST /pg/subscriptions/{subscription}/simulate_payment/',
    needs: ['subscription'],
    request: (v) => ({ method: 'POST', path: `/pg/subscriptions/${need(v, 'subscription_id')}/simulate_payment/`, body: { payment_status: 'SUCCESS' } }),
  },
  {
    name: 'bad.missing-field',
    title: 'an order without its buyer',
    group: 'bad',
    doc: 'spec 2.1; vendor N2',
    shown: 'POST /pg/orders/ (no buyer)',
    request: (v) => {
      const { buyer: _buyer, ...rest } = orderBody(`${v.reference!}M`);
      return { method: 'POST', path: '/pg/orders/', body: rest };
    },
  },
  {
    name: 'bad.amount',
    title: 'an order for -1.00',
    group: 'bad',
    doc: 'spec 2.1, 8; vendor N2',
    shown: 'POST /pg/orders/ (amount -1.00)',
    request: (v) => ({ method: 'POST', path: '/pg/orders/', body: { ...orderBody(`${v.reference!}A`), amount: '-1.00' } }),
  },
  {
    name: 'bad.unknown-payment',
    title: 'a payment that does not exist',
    group: 'bad',
    doc: 'spec 4.3, 7; vendor 3.2',
    shown: `GET /pg/payments/${UNKNOWN_PAYMENT}/`,
    request: () => ({ method: 'GET', path: `/pg/payments/${UNKNOWN_PAYMENT}/` }),
  },
  {
    name: 'bad.unknown-order',
    title: 'an order that does not exist',
    group: 'bad',
    doc: 'vendor 4.1, 9.2',
    shown: `GET /pg/orders/${UNKNOWN_ORDER}/`,
    request: () => ({ method: 'GET', path: `/pg/orders/${UNKNOWN_ORDER}/` }),
  },
  {
    name: 'bad.api-version',
    title: `X-API-Version ${BAD_API_VERSION}`,
    group: 'bad',
    doc: 'spec 9; vendor C1, C2',
    shown: `GET /pg/payments/?${page(1)} (X-API-Version ${BAD_API_VERSION})`,
    request: () => ({ method: 'GET', path: `/pg/payments/?${page(1)}`, apiVersion: BAD_API_VERSION }),
  },
];
