// Payment links (spec 2.8, 3.1, 4.4). Each try is a payment of its own (the second arrangement
// of spec 2.8): payments is empty until the buyer first tries, and paid_payment_id names the
// payment that paid, never the link itself, so the link's settlement field stays not_applicable
// ("the settlement field does not follow it; reconciliation is by paid_payment_id").
import { formatAmount, formatLinkAmount } from '../../money.js';
import { SandboxError, conflict, linkNotFound, orderNotFound } from '../errors.js';
import { newOrderId, newPaymentId, newToken } from '../ids.js';
import { stamp } from '../db.js';
import { inScope, nowStamp, parseJson, type Core, type Scope } from './core.js';
import { CLOCK_MAX_MICROS, clockOffsets } from './clock.js';
import { ORDER_CREATED, ORDER_PAID, assertReferenceFree, orderById } from './orders.js';
import type { LinkCreate } from '../../api/schemas/links.js';
import { linkClosedEvent } from './event-data.js';
import { assertMayCollect } from './kyc-gate.js';

export interface LinkRow {
  link_id: string;
  token: string;
  order_id: string;
  merchant_id: string;
  created_at: string;
  expires_at: string;
  deactivated_at: string | null;
  paid_payment_id: string | null;
  mop_type: string | null;
  /** Migration 8: share requests recorded (JSON array); nothing is sent offline. */
  shares?: string | null;
}

/** spec 2.8 / part 8: at most the 50 newest payments. */
export const LINK_PAYMENTS_LIMIT = 50;

export function linkById(core: Core, linkId: string, scope?: Scope): LinkRow | undefined {
  const row = core.db.get<LinkRow>('SELECT * FROM links WHERE link_id = ?', linkId);
  return row && inScope(scope, row.merchant_id) ? row : undefined;
}

export function linkByToken(core: Core, token: string): LinkRow | undefined {
  return core.db.get<LinkRow>('SELECT * FROM links WHERE token = ?', token);
}

/** The captured payment that paid a link's order some other way (another link, checkout, the pay helper). */
export interface PaidElsewhere {
  payment_id: string;
  completed_at: string | null;
}

/**
 * spec 3.1: paid outranks expiry; a deactivated link reads expired, with expiry_date the moment of
 * deactivation. A link whose order was paid some other way is closed without being paid: `failed`
 * (spec 3.1's "closed without being paid"), from the moment that payment completed, so it shows
 * no Pay button and cannot be extended (issue 21 item 5).
 */
export function linkState(l: LinkRow, at: string, paidElsewhere?: PaidElsewhere): { status: string; expiry_date: string; status_message: string | null } {
  if (l.paid_payment_id !== null) return { status: 'paid', expiry_date: l.deactivated_at ?? l.expires_at, status_message: null };
  if (l.deactivated_at !== null) return { status: 'expired', expiry_date: l.deactivated_at, status_message: 'Payment link was deactivated' };
  // Closed when the order was paid, unless it had expired by then (it stays expired). Either way
  // for good: a clock set back before the expiry never opens a link whose order is paid (the
  // model test's counterexample: expired, paid by the pay helper, clock set to 2020, read active).
  if (paidElsewhere) {
    const closedAt = paidElsewhere.completed_at ?? at;
    if (closedAt < l.expires_at) return { status: 'failed', expiry_date: closedAt, status_message: `The order was paid by payment ${paidElsewhere.payment_id}, not through this link` };
    return { status: 'expired', expiry_date: l.expires_at, status_message: 'Payment link expired' };
  }
  if (at >= l.expires_at) return { status: 'expired', expiry_date: l.expires_at, status_message: 'Payment link expired' };
  return { status: 'active', expiry_date: l.expires_at, status_message: null };
}

/** The payment that paid this link's order, when it did not come through this link. */
export function paidElsewhere(core: Core, l: LinkRow): PaidElsewhere | undefined {
  if (l.paid_payment_id !== null) return undefined;
  return core.db.get<PaidElsewhere>(
    `SELECT payment_id, completed_at FROM payments WHERE order_id = ? AND status = 'captured' ORDER BY completed_at, rowid LIMIT 1`,
    l.order_id,
  );
}

/** A link's state now, its order's other payments considered. */
export function linkStateNow(core: Core, l: LinkRow, at = nowStamp(core, l.merchant_id)): ReturnType<typeof linkState> {
  return linkState(l, at, paidElsewhere(core, l));
}

interface LinkPaymentRow {
  payment_id: string;
  status: string;
  mop_type: string | null;
  amount: string;
  created_at: string;
  completed_at: string | null;
}

export function linkView(core: Core, l: LinkRow, baseUrl: string): Record<string, unknown> {
  return core.db.read(() => {
    const order = orderById(core, l.order_id)!;
    const buyer = parseJson<Record<string, unknown>>(order.buyer) ?? {};
    const product = parseJson<Record<string, unknown>>(order.product) ?? {};
    const invoice = parseJson<Record<string, unknown>>(order.invoice);
    const state = linkStateNow(core, l);
    const payments = core.db.all<LinkPaymentRow>(
      'SELECT * FROM payments WHERE link_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
      l.link_id,
      LINK_PAYMENTS_LIMIT,
    );
    return {
      payment_id: l.link_id,
      link_id: l.link_id,
      // beyond 3.5: the vendor's client shows the amount and posts documents to the link's order.
      order_id: order.order_id,
      amount: order.amount,
      reference_id: order.reference_id,
      currency: order.currency,
      payment_link: `${baseUrl}/p/${l.token}/`,
      expiry_date: state.expiry_date,
      mop_type: l.mop_type,
      settlement: {
        status: 'not_applicable',
        message: l.paid_payment_id
          ? `Settlement is tracked on payment ${l.paid_payment_id} (paid_payment_id)`
          : 'The link has not been paid',
        settlement_details: null,
      },
      buyer: { ...buyer, pan_number: buyer.pan_number ?? null, dob: buyer.dob ?? null },
      // spec 2.8: hs_code and hs_code_description are not stored on links.
      product: { ...product, hs_code: null, hs_code_description: null },
      invoice: { number: invoice?.number ?? null, date: order.invoice_date_set, file: null },
      air_waybills: [],
      status: state.status,
      status_message: state.status_message,
      created_at: l.created_at,
      paid_payment_id: l.paid_payment_id,
      payments: payments.map((p) => ({
        payment_id: p.payment_id,
        status: p.status,
        mop_type: p.mop_type,
        amount: formatLinkAmount(p.amount),
        created_at: p.created_at,
        payment_completed_at: p.completed_at,
      })),
      // vendor 6 share: what was asked, recorded; the sandbox sends no email or SMS.
      shares: parseJson<unknown[]>(l.shares ?? null) ?? [],
    };
  });
}

export function getLink(core: Core, scope: Scope, linkId: string, baseUrl: string): Record<string, unknown> {
  const l = linkById(core, linkId, scope);
  if (!l) throw linkNotFound(linkId);
  return linkView(core, l, baseUrl);
}

/** A new link (its id in the PR namespace, spec 2.8) for an order; inside the caller's write. */
/**
 * I5: a link's expiry is a real date like every time the sandbox writes: one past the end of the
 * calendar (a link made or extended while its tree's clock reads late 9999) is refused, in the
 * validation error of the operation (`code`: ERR_ORDER_002 on /pg/payment-links/, the helpers'
 * ERR_VALIDATION_000), rather than written as `+010000-…`, which as text sorts before every date.
 */
function expiryStamp(expiresAtMicros: number, refuse: { code: string; message: string; field: string }): string {
  if (expiresAtMicros > CLOCK_MAX_MICROS) {
    throw new SandboxError(400, refuse.code, refuse.message, { [refuse.field]: `would end after 9999-12-31T23:59:59Z, the end of the sandbox's calendar: give an earlier expiry` });
  }
  return stamp(expiresAtMicros);
}
const PG_EXPIRY = { code: 'ERR_ORDER_002', message: 'Validation error', field: 'expiry_date' };
const HELPER_EXPIRY = { code: 'ERR_VALIDATION_000', message: 'Invalid request', field: 'expires_in_seconds' };

function insertLink(core: Core, orderId: string, merchantId: string, createdAt: string, expiresAt: string): LinkRow {
  const linkId = newPaymentId(core.db);
  core.db.run(
    'INSERT INTO links (link_id, token, order_id, merchant_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    linkId,
    newToken(16),
    orderId,
    merchantId,
    createdAt,
    expiresAt,
  );
  return linkById(core, linkId)!;
}

/** Sandbox helper: a link for an unpaid order, open for `expiresInSeconds`. */
export function createLink(core: Core, scope: Scope, orderId: string, expiresInSeconds: number): LinkRow {
  const { db } = core;
  return db.write(() => {
    const order = orderById(core, orderId, scope);
    if (!order) throw orderNotFound(orderId);
    if (order.status === ORDER_PAID) throw conflict('ERR_LINK_002', 'Order is already paid', 'order_id', `${orderId} is already paid`);
    assertMayCollect(core, order.merchant_id);
    const micros = core.micros(order.merchant_id);
    return insertLink(core, orderId, order.merchant_id, stamp(micros), expiryStamp(micros + expiresInSeconds * 1_000_000, HELPER_EXPIRY));
  });
}

/** Sandbox helper: close an unpaid link now. Deactivating an expired or deactivated link changes nothing. */
export function deactivateLink(core: Core, scope: Scope, linkId: string): LinkRow {
  const { db } = core;
  return db.write(() => {
    const l = linkById(core, linkId, scope);
    if (!l) throw linkNotFound(linkId);
    const state = linkStateNow(core, l);
    // vendor 6 / N10: a paid, expired, deactivated or failed link is refused, 400 ERR_ORDER_002 details.payment.
    if (state.status !== 'active') throw notActive(linkId, state.status, 'deactivated');
    const at = nowStamp(core, l.merchant_id);
    db.run('UPDATE links SET deactivated_at = ? WHERE link_id = ?', at, linkId);
    core.emit(linkClosedEvent(core, linkId, at, 'deactivated'));
    return linkById(core, linkId)!;
  });
}

/**
 * POST /pg/payment-links/ (beyond 3.1): the link and the order it collects, made together. The
 * order takes the link's reference_id under the same rule as create order (taken while payable),
 * and is paid only through the link's page.
 */
export function createPaymentLink(core: Core, merchantId: string, body: LinkCreate, expiresAtMicros: number, apiVersion: string): LinkRow {
  const { db } = core;
  return db.write(() => {
    assertMayCollect(core, merchantId);
    assertReferenceFree(core, merchantId, body.reference_id);
    const expires = expiryStamp(expiresAtMicros, PG_EXPIRY);
    const micros = core.micros(merchantId);
    const at = stamp(micros);
    const orderId = newOrderId(db, micros);
    const product = { ...body.product, description: body.product?.description?.trim() || body.description?.trim() };
    db.run(
      `INSERT INTO orders (order_id, merchant_id, reference_id, open, amount, currency, collection_mode, buyer, product, invoice, status, api_version, created_at)
       VALUES (?, ?, ?, 1, ?, ?, 'hosted_payment', ?, ?, ?, ?, ?, ?)`,
      orderId,
      merchantId,
      body.reference_id,
      formatAmount(body.amount),
      body.currency,
      JSON.stringify(body.buyer ?? {}),
      JSON.stringify(product),
      body.invoice?.number ? JSON.stringify({ number: body.invoice.number }) : null,
      ORDER_CREATED,
      apiVersion,
      at,
    );
    return insertLink(core, orderId, merchantId, at, expires);
  });
}

/** One entry of the link list (beyond 3.2). */
function listEntry(core: Core, l: LinkRow & { amount: string; currency: string; reference_id: string; buyer: string }, baseUrl: string, at: string) {
  const buyer = parseJson<{ name?: string; email?: string }>(l.buyer) ?? {};
  const state = linkStateNow(core, l, at);
  return {
    payment_id: l.link_id,
    link_id: l.link_id,
    order_id: l.order_id,
    status: state.status,
    reference_id: l.reference_id,
    buyer: { name: buyer.name ?? null, email: buyer.email ?? null },
    amount: l.amount,
    currency: l.currency,
    payment_link: `${baseUrl}/p/${l.token}/`,
    expiry_date: state.expiry_date,
    paid_payment_id: l.paid_payment_id,
    created_at: l.created_at,
  };
}

/** GET /pg/payment-links/ (beyond 3.2): the links in scope, newest first. */
export function listLinks(core: Core, scope: Scope, page: number, pageSize: number, baseUrl: string): { count: number; results: unknown[] } {
  return core.db.read(() => {
    if (scope.length === 0) return { count: 0, results: [] };
    const marks = scope.map(() => '?').join(', ');
    const count = core.db.get<{ n: number }>(`SELECT count(*) AS n FROM links WHERE merchant_id IN (${marks})`, ...scope)!.n;
    const rows = core.db.all<LinkRow & { amount: string; currency: string; reference_id: string; buyer: string }>(
      `SELECT l.*, o.amount, o.currency, o.reference_id, o.buyer FROM links l JOIN orders o USING (order_id)
       WHERE l.merchant_id IN (${marks}) ORDER BY l.created_at DESC, l.rowid DESC LIMIT ? OFFSET ?`,
      ...scope,
      pageSize,
      (page - 1) * pageSize,
    );
    return { count, results: rows.map((l) => listEntry(core, l, baseUrl, nowStamp(core, l.merchant_id))) };
  });
}

/**
 * POST /pg/payment-links/{id}/extend_expiry/ (beyond 3.4; its rules are not shown, docs/sandbox.md
 * says these): only an active link can be extended (vendor 6 / N10, as deactivate); the new expiry
 * must be later than the current one and than now.
 */
export function extendLink(core: Core, scope: Scope, linkId: string, expiresAtMicros: number): LinkRow {
  const { db } = core;
  return db.write(() => {
    const l = linkById(core, linkId, scope);
    if (!l) throw linkNotFound(linkId);
    // vendor 6: extending a link that is not active is not shown; refused like deactivate (400 ERR_ORDER_002).
    const state = linkStateNow(core, l);
    if (state.status !== 'active') throw notActive(linkId, state.status, 'extended');
    const next = expiryStamp(expiresAtMicros, PG_EXPIRY);
    const now = nowStamp(core, l.merchant_id);
    if (next <= now) throw new SandboxError(400, 'ERR_ORDER_002', 'Validation error', { expiry_date: 'must be in the future' });
    if (next <= l.expires_at) {
      throw new SandboxError(400, 'ERR_ORDER_002', 'Validation error', { expiry_date: `must be later than the current expiry ${l.expires_at}` });
    }
    db.run('UPDATE links SET expires_at = ? WHERE link_id = ?', next, linkId);
    return linkById(core, linkId)!;
  });
}

/**
 * N13 on the sandbox clock: every link that has expired unpaid (its order not paid some other
 * way) since it was last announced gets its PAYMENT_FAILED, dated when it expired. Run by the
 * process that delivers webhooks (webhooks.ts), each second and when the clock moves; a link
 * extended after expiring and expiring again is announced again. The check is a read; only a
 * link to announce takes the write lock, and is checked again under it.
 */
const EXPIRED_UNANNOUNCED = (clock: string) => `SELECT l.link_id, l.expires_at FROM links l JOIN merchants m ON m.merchant_id = l.merchant_id
  WHERE ${clock} AND l.paid_payment_id IS NULL AND l.deactivated_at IS NULL AND l.expires_at <= ?
    AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = l.order_id AND p.status = 'captured')
    AND NOT EXISTS (SELECT 1 FROM events e WHERE e.merchant_id = l.merchant_id AND e.event_type = 'PAYMENT_FAILED'
                      AND e.created_at >= l.expires_at AND instr(e.body, '"payment_id":"' || l.link_id || '"') > 0)
  ORDER BY l.expires_at LIMIT 100`;

/** Each clock and the links it rules (I2: a link expires on its own account tree's clock, never another's). */
function expiredByClock(core: Core): { link_id: string; expires_at: string }[] {
  const { db } = core;
  const { fallback, own } = clockOffsets(db);
  const machine = core.micros(null) - fallback;
  const root = 'coalesce(m.parent_id, m.merchant_id)';
  const due = db.all<{ link_id: string; expires_at: string }>(EXPIRED_UNANNOUNCED(`${root} NOT IN (SELECT account_id FROM account_clocks)`), stamp(machine + fallback));
  for (const [account, offset] of own) due.push(...db.all<{ link_id: string; expires_at: string }>(EXPIRED_UNANNOUNCED(`${root} = ?`), account, stamp(machine + offset)));
  return due;
}

export function announceExpiredLinks(core: Core): number {
  const { db } = core;
  if (expiredByClock(core).length === 0) return 0;
  return db.write(() => {
    const due = expiredByClock(core);
    for (const l of due) core.emit(linkClosedEvent(core, l.link_id, l.expires_at, 'expired'));
    return due.length;
  });
}

/** vendor 6 / N10: only an active link may be deactivated or extended. */
function notActive(linkId: string, status: string, verb: string): SandboxError {
  const why = status === 'failed' ? 'failed (closed unpaid or its order was paid another way)' : status;
  return new SandboxError(400, 'ERR_ORDER_002', 'Validation error', { payment: `${linkId} is ${why}: only an active link can be ${verb}` });
}

/**
 * POST /pg/payment-links/{id}/share/ (vendor 6, the v2 file): email and phone lists. The sandbox
 * records the request on the link (Get Payment Link's `shares`) and sends nothing.
 */
export function shareLink(core: Core, scope: Scope, linkId: string, to: { email: string[]; phone: string[] }): LinkRow {
  return core.db.write(() => {
    const l = linkById(core, linkId, scope);
    if (!l) throw linkNotFound(linkId);
    const shares = parseJson<unknown[]>(l.shares ?? null) ?? [];
    shares.push({ email: to.email, phone: to.phone, shared_at: nowStamp(core, l.merchant_id), sent: false });
    core.db.run('UPDATE links SET shares = ? WHERE link_id = ?', JSON.stringify(shares), linkId);
    return linkById(core, linkId)!;
  });
}
