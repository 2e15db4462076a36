// Orders (spec 2.1-2.6, 4.1, 4.2) and the one way money moves in the sandbox:
// completeOrderPayment, used by the pay helper, the checkout and 3-D Secure pages, payment links
// and subscription charges.
import { CLOCK_MAX_MICROS } from './clock.js';
import type { OrderCreate, OrderUpdate } from '../../api/schemas/index.js';
import { formatAmount } from '../../money.js';
import { SandboxError, conflict, orderNotFound } from '../errors.js';
import { newBankRef, newHex, newOrderId, newPaymentId, newSessionId } from '../ids.js';
import { stamp } from '../db.js';
import { inScope, nowStamp, parseJson, type Core, type Scope } from './core.js';
import { paymentEvent } from './event-data.js';
import { assertMayCollect } from './kyc-gate.js';

export interface OrderRow {
  order_id: string;
  merchant_id: string;
  reference_id: string;
  open: number;
  amount: string;
  currency: string;
  collection_mode: string;
  mop_type: string | null;
  upi_flow_type: string | null;
  vpa: string | null;
  upi_app_name: string | null;
  return_url: string | null;
  buyer: string;
  product: string;
  invoice: string | null;
  invoice_date_set: string | null;
  card: string | null;
  session_id: string | null;
  acs_token: string | null;
  status: string;
  status_message: string | null;
  api_version: string;
  created_at: string;
  /** Migration 5; null on rows written since, until their first change. */
  updated_at?: string | null;
  /** Migration 12 (vendor 11.10 P1): the classification payment verification asks for; null until declared. */
  business_model?: string | null;
  purpose_code?: string | null;
}

/** What the sandbox keeps of a card: never the number or CVV (spec 2.5). */
export interface StoredCard {
  last4: string | null;
  network: string;
  saved: boolean;
}

/** vendor 4.3 (C8): payment_pending, payment_successful, failed; never payment_failed (the client reads it as pending). */
export const ORDER_CREATED = 'payment_pending';
export const ORDER_PAID = 'payment_successful';
/** A failed try; the sandbox still lets the buyer try again (docs/sandbox.md), and a success moves it on. */
export const ORDER_FAILED = 'failed';

/** vendor N7: an S2S UPI intent accepts payment for 5 minutes after the order is created. */
export const INTENT_LIFETIME_SECONDS = 5 * 60;

export function isUpiIntent(o: Pick<OrderRow, 'collection_mode' | 'mop_type' | 'upi_flow_type'>): boolean {
  return o.collection_mode === 's2s' && o.mop_type === 'upi' && o.upi_flow_type === 'intent';
}

/**
 * vendor N7: `expires_at` of an S2S UPI intent, creation + 5 minutes in UTC, in whole seconds as
 * the vendor's example writes it (`2026-09-21T10:35:00Z`), rounded up so it is never earlier than
 * the 5 minutes. Derived from created_at (the sandbox clock), so it needs no column of its own.
 * I5: never past the end of the calendar (an order made in the last minutes of 9999).
 */
export function intentExpiresAt(order: Pick<OrderRow, 'created_at'>): string {
  // created_at is a stamp() with microseconds: `2026-11-21T10:00:00.123456Z`.
  const created = Date.parse(`${order.created_at.slice(0, 23)}Z`) * 1000 + Number(order.created_at.slice(23, 26));
  const seconds = Math.min(Math.ceil((created + INTENT_LIFETIME_SECONDS * 1_000_000) / 1_000_000), Math.floor(CLOCK_MAX_MICROS / 1_000_000));
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** True once the sandbox clock (epoch microseconds) has reached the intent's expires_at. */
export function intentExpired(order: Pick<OrderRow, 'created_at'>, nowMicros: number): boolean {
  return nowMicros >= Date.parse(intentExpiresAt(order)) * 1000;
}

export function orderById(core: Core, orderId: string, scope?: Scope): OrderRow | undefined {
  const row = core.db.get<OrderRow>('SELECT * FROM orders WHERE order_id = ?', orderId);
  return row && inScope(scope, row.merchant_id) ? row : undefined;
}

export function orderBySession(core: Core, sessionId: string): OrderRow | undefined {
  return core.db.get<OrderRow>('SELECT * FROM orders WHERE session_id = ?', sessionId);
}

export function orderByAcsToken(core: Core, token: string): OrderRow | undefined {
  return core.db.get<OrderRow>('SELECT * FROM orders WHERE acs_token = ?', token);
}

/**
 * reference_id must not be in use by an active order of the same merchant (spec 2.1). `open` is
 * "the reference is held": from creation, through failed tries and after payment, so a retry after
 * a timeout cannot create a second order for one merchant order (issue 13 item 20). Sandbox orders
 * never expire and a failed try does not end them, so nothing frees it today. Every way an order
 * is made (create order, create payment link) checks here, inside its write transaction.
 */
export function assertReferenceFree(core: Core, merchantId: string, referenceId: string): void {
  const holder = openOrderWithReference(core, merchantId, referenceId);
  if (holder) throw referenceTaken(referenceId, holder);
}

/** The open order that holds `referenceId` for the merchant (spec 2.1: one at a time), if any. */
function openOrderWithReference(core: Core, merchantId: string, referenceId: string): string | undefined {
  return core.db.get<{ order_id: string }>('SELECT order_id FROM orders WHERE merchant_id = ? AND reference_id = ? AND open = 1', merchantId, referenceId)?.order_id;
}

/** vendor N3: 400 ERR_ORDER_002, details.reference_id saying it already exists. */
function referenceTaken(referenceId: string, orderId: string): SandboxError {
  return conflict('ERR_ORDER_002', 'Validation error', 'reference_id', `an order with reference_id ${referenceId} already exists (${orderId})`);
}

/** What SQLite says (both engines, its own text) when orders_open_reference refuses a row. */
const REFERENCE_TAKEN = 'UNIQUE constraint failed: orders.merchant_id, orders.reference_id';

/** spec 4.1. */
export function createOrder(core: Core, merchantId: string, input: OrderCreate, apiVersion: string): OrderRow {
  const { db } = core;
  return db.write(() => {
    assertMayCollect(core, merchantId);
    // The open-reference index (spec 2.1) refuses a taken reference_id as the row goes in: no look
    // beforehand, one statement less a create in `sandbox serve` (issue 23). The clash is read only
    // when there is one; the id claimed for the refused row goes back with its savepoint or
    // transaction.
    // One reading of the sandbox clock for the row: created_at and the ids it leads (ids.ts).
    const micros = core.micros(merchantId);
    const orderId = newOrderId(db, micros);
    const mop = input.mop_type?.toLowerCase() ?? null;
    const hosted = input.collection_mode === 'hosted_payment';
    const card: StoredCard | null = input.card_details
      ? 'token' in input.card_details
        ? { last4: null, network: input.card_details.network, saved: true }
        : { last4: input.card_details.number.slice(-4), network: input.card_details.network, saved: false }
      : null;
    const cardS2s = !hosted && (mop === 'credit_card' || mop === 'debit_card');
    // vendor N7: an S2S UPI intent gets a session too: its test_simulator_url is the buyer page
    // at /checkout/<session_id>/, which then shows the UPI simulator instead of the checkout.
    const intent = isUpiIntent({ collection_mode: input.collection_mode, mop_type: mop, upi_flow_type: input.upi_flow_type ?? null });
    const legacy = 'vpa' in input || 'upi_app_name' in input;
    // The row as `SELECT *` reads it back (what was bound, and the columns' defaults): built
    // here rather than read again, one statement less on the hot path of `sandbox serve`.
    const row: OrderRow = {
      order_id: orderId,
      merchant_id: merchantId,
      reference_id: input.reference_id,
      open: 1,
      amount: formatAmount(input.amount),
      currency: input.currency,
      collection_mode: input.collection_mode,
      mop_type: mop,
      upi_flow_type: input.upi_flow_type ?? null,
      vpa: legacy ? ((input as { vpa?: string }).vpa ?? null) : null,
      upi_app_name: legacy ? ((input as { upi_app_name?: string }).upi_app_name ?? null) : null,
      return_url: input.return_url ?? null,
      buyer: JSON.stringify({ ...input.buyer, pan_number: input.buyer.pan_number ?? null, dob: input.buyer.dob ?? null }),
      product: JSON.stringify(input.product),
      invoice: input.invoice ? JSON.stringify(input.invoice) : null,
      invoice_date_set: null,
      card: card ? JSON.stringify(card) : null,
      session_id: hosted || intent ? newSessionId(micros) : null,
      acs_token: cardS2s ? newHex(16) : null,
      status: ORDER_CREATED,
      status_message: null,
      api_version: apiVersion,
      created_at: stamp(micros),
      updated_at: null,
      business_model: null,
      purpose_code: null,
    };
    insertOrRefuse(core, row, () =>
      db.run(
        `INSERT INTO orders (order_id, merchant_id, reference_id, open, amount, currency, collection_mode, mop_type, upi_flow_type,
           vpa, upi_app_name, return_url, buyer, product, invoice, card, session_id, acs_token, status, api_version, created_at)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.order_id,
        row.merchant_id,
        row.reference_id,
        row.amount,
        row.currency,
        row.collection_mode,
        row.mop_type,
        row.upi_flow_type,
        row.vpa,
        row.upi_app_name,
        row.return_url,
        row.buyer,
        row.product,
        row.invoice,
        row.card,
        row.session_id,
        row.acs_token,
        row.status,
        row.api_version,
        row.created_at,
      ),
    );
    return row;
  });
}

/** Runs the insert of `row`; a reference_id already open becomes ERR_ORDER_002 naming the order that has it. */
function insertOrRefuse(core: Core, row: OrderRow, insert: () => unknown): void {
  try {
    insert();
  } catch (err) {
    if ((err as Error)?.message !== REFERENCE_TAKEN) throw err;
    const holder = openOrderWithReference(core, row.merchant_id, row.reference_id);
    throw holder ? referenceTaken(row.reference_id, holder) : err;
  }
}

export interface OrderUpdateResult {
  order_id: string;
  buyer: { pan_number: string | null; dob: string | null };
  invoice: { number: string | null; date: string | null };
}

/** spec 4.2: set buyer.pan_number, buyer.dob, invoice.number, invoice.date. */
export function updateOrder(core: Core, scope: Scope, orderId: string, patch: OrderUpdate): OrderUpdateResult {
  const { db } = core;
  return db.write(() => {
    const order = orderById(core, orderId, scope);
    if (!order) throw orderNotFound(orderId);
    const buyer = { ...parseJson<Record<string, unknown>>(order.buyer), ...definedOnly(patch.buyer) };
    const invoice = { number: null, date: null, ...parseJson<Record<string, unknown>>(order.invoice), ...definedOnly(patch.invoice) };
    db.run(
      'UPDATE orders SET buyer = ?, invoice = ?, invoice_date_set = coalesce(?, invoice_date_set), updated_at = ? WHERE order_id = ?',
      JSON.stringify(buyer),
      JSON.stringify(invoice),
      patch.invoice?.date ?? null,
      nowStamp(core, order.merchant_id),
      orderId,
    );
    return {
      order_id: orderId,
      buyer: { pan_number: (buyer.pan_number as string | null) ?? null, dob: (buyer.dob as string | null) ?? null },
      invoice: { number: (invoice.number as string | null) ?? null, date: (invoice.date as string | null) ?? null },
    };
  });
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface PaymentAttempt {
  orderId: string;
  /** undefined: no ownership check (the buyer pages, which hold an unguessable token). */
  scope?: Scope;
  outcome: 'success' | 'fail';
  mopType?: string;
  vpa?: string;
  gateway?: string;
  /** Pay through this link; by default the order's newest active link, if it has one. */
  linkId?: string;
  subscriptionUid?: string;
}

interface LinkStateRow {
  link_id: string;
  expires_at: string;
  deactivated_at: string | null;
  paid_payment_id: string | null;
}

/** Test VPAs that fail a UPI payment: the older pages' and the v3 guide's (vendor 9.3). */
const FAIL_VPAS = new Set(['failure@upi', 'testfailure@gocash']);
const FAIL_CARD_SUFFIX = '0002';

/**
 * One try at paying an order: a new payment, `captured` or `failed`. Magic values fail it
 * whatever the outcome asked for (docs/sandbox.md): a card ending 0002, the VPAs failure@upi and
 * testfailure@gocash (vendor 9.3; testsuccess@gocash and success@upi pay as asked).
 * A captured payment pays the order (its reference_id stays taken) and the link it went through.
 */
export function completeOrderPayment(core: Core, attempt: PaymentAttempt): string {
  const { db } = core;
  return db.write(() => {
    const order = orderById(core, attempt.orderId, attempt.scope);
    if (!order) throw orderNotFound(attempt.orderId);
    // An order has one captured payment, whatever its status reads (issue 21 item 2).
    const paidBy = core.db.get<{ payment_id: string }>(`SELECT payment_id FROM payments WHERE order_id = ? AND status = 'captured' LIMIT 1`, order.order_id);
    if (order.status === ORDER_PAID || paidBy) {
      throw conflict('ERR_ORDER_003', 'Order is already paid', 'order_id', `${order.order_id} is already paid${paidBy ? ` by ${paidBy.payment_id}` : ''}`);
    }
    // An order made while its sub-merchant was APPROVED is not paid once it no longer is (kyc-gate.ts).
    assertMayCollect(core, order.merchant_id);
    const at = nowStamp(core, order.merchant_id);
    const link = pickLink(core, order.order_id, attempt.linkId, at);
    const mop = (attempt.mopType ?? order.mop_type ?? 'upi').toLowerCase();
    const card = parseJson<StoredCard>(order.card);
    const vpa = attempt.vpa ?? order.vpa ?? (mop === 'upi' ? 'buyer@upi' : null);
    let failure: string | null = attempt.outcome === 'fail' ? 'Payment declined by the simulator' : null;
    if (mop === 'upi' && vpa !== null && FAIL_VPAS.has(vpa.toLowerCase())) failure = `UPI payment declined for ${vpa}`;
    if ((mop === 'credit_card' || mop === 'debit_card') && card?.last4 === FAIL_CARD_SUFFIX) failure = 'Card declined (test card ending 0002)';
    const captured = failure === null;
    const mopDetail = mop === 'upi' ? { vpa } : card && (mop === 'credit_card' || mop === 'debit_card') ? { last4: card.last4, network: card.network } : {};
    const paymentId = newPaymentId(db);
    db.run(
      `INSERT INTO payments (payment_id, order_id, merchant_id, link_id, subscription_uid, amount, currency, mop_type, mop_detail,
         gateway, status, status_message, bank_ref_num, created_at, completed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      paymentId,
      order.order_id,
      order.merchant_id,
      link?.link_id ?? null,
      attempt.subscriptionUid ?? null,
      order.amount,
      order.currency,
      mop,
      JSON.stringify(mopDetail),
      attempt.gateway ?? 'simulator',
      captured ? 'captured' : 'failed',
      failure,
      captured ? newBankRef() : null,
      at,
      captured ? at : null,
    );
    // The order keeps its reference_id whatever the outcome: a failed one can still be paid and a
    // paid one must never be charged again under the same merchant reference (docs/sandbox.md).
    db.run('UPDATE orders SET status = ?, status_message = ?, updated_at = ? WHERE order_id = ?', captured ? ORDER_PAID : ORDER_FAILED, captured ? 'Payment successful' : failure, at, order.order_id);
    if (captured && link) {
      db.run('UPDATE links SET paid_payment_id = ?, mop_type = ? WHERE link_id = ?', paymentId, mop.toUpperCase(), link.link_id);
    }
    core.emit(paymentEvent(core, paymentId));
    return paymentId;
  });
}

function linkIsActive(l: LinkStateRow, at: string): boolean {
  return l.paid_payment_id === null && l.deactivated_at === null && at < l.expires_at;
}

function pickLink(core: Core, orderId: string, linkId: string | undefined, at: string): LinkStateRow | undefined {
  if (linkId !== undefined) {
    const l = core.db.get<LinkStateRow>('SELECT * FROM links WHERE link_id = ? AND order_id = ?', linkId, orderId);
    if (!l || !linkIsActive(l, at)) {
      throw new SandboxError(400, 'ERR_LINK_001', 'Payment link is not active', { link_id: `${linkId} is not open for payment` });
    }
    return l;
  }
  return core.db
    .all<LinkStateRow>('SELECT * FROM links WHERE order_id = ? ORDER BY created_at DESC, rowid DESC', orderId)
    .find((l) => linkIsActive(l, at));
}
