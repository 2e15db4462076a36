// What a clock move caused (issue 42 item 5): the webhook attempts it made, the links and
// verifications that expired, the refunds those expiries issued. A move never moves money
// silently: POST /sandbox/clock/ answers with this as `caused`, as a database's RETURNING does.
// Read from the rows themselves, before and after the move, so it holds whoever did the work
// (this process, or another sharing the file: `sandbox serve`, a `pgw listen`).
import { Money, formatAmount } from '../../money.js';
import { stamp } from '../db.js';
import { clockOffsets } from './clock.js';
import type { Core, Scope } from './core.js';
import { eventAbout } from './outbox.js';

/** The rows as they stood before the move. */
export interface ClockMark {
  /** The merchants whose effects are reported (the moved tree); null: every one (`--all`). */
  scope: Scope | null;
  /** The newest webhook attempt, refund and event (ids only grow: AUTOINCREMENT, rowid). */
  attempt: number;
  refund: number;
  event: number;
  machine: number;
  offsets: ReturnType<typeof clockOffsets>;
  /** Verifications open with a deadline: those EXPIRED afterwards were expired by the move. */
  open: Set<string>;
}

export interface Caused {
  /** Webhook attempts made while the move was answered, by their answer. */
  deliveries: { attempted: number; delivered: number; failed: number };
  /** Events whose last attempt the move made and that are now failed (no attempt is left). */
  events_failed: { id: string; event_type: string; about: string | null; attempts: number; last_status: number | null; last_error: string | null }[];
  /** Events the move recorded (a link closing unpaid, a verification expiring). */
  events_sent: { id: string; event_type: string; about: string | null }[];
  links_expired: { link_id: string; order_id: string; amount: string; expired_at: string }[];
  verifications_expired: { payment_id: string; amount: string; refund_id: string | null; refund_amount: string | null }[];
  /** Refunds the sandbox issued by itself: money back to the buyer, never debited from a settlement (I1). */
  refunds: { refund_id: string; payment_id: string; amount: string; reason: string }[];
  refunded_total: string;
  /** The sandbox's subscriptions charge only through simulate_payment (spec 4.7): a move makes none. */
  subscription_payments: { payment_id: string; amount: string }[];
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function inScope(scope: Scope | null, column: string): { sql: string; params: string[] } {
  return scope === null ? { sql: '1 = 1', params: [] } : { sql: `${column} IN (${marks(scope.length)})`, params: [...scope] };
}

function maxId(core: Core, sql: string): number {
  return Number(core.db.get<{ n: number | null }>(sql)?.n ?? 0);
}

export function markClock(core: Core, scope: Scope | null, machine: number): ClockMark {
  return core.db.read(() => {
    const s = inScope(scope, 'v.merchant_id');
    const open = core.db.all<{ payment_id: string }>(
      `SELECT v.payment_id FROM verifications v JOIN payments p ON p.payment_id = v.payment_id
        WHERE ${s.sql} AND v.expires_at IS NOT NULL AND v.expired_at IS NULL AND p.settlement_status IN ('ACTION_REQUIRED', 'INFO_PENDING')`,
      ...s.params,
    );
    return {
      scope,
      attempt: maxId(core, 'SELECT max(id) AS n FROM attempts'),
      refund: maxId(core, 'SELECT max(rowid) AS n FROM refunds'),
      event: maxId(core, 'SELECT max(rowid) AS n FROM events'),
      machine,
      offsets: clockOffsets(core.db),
      open: new Set(open.map((r) => r.payment_id)),
    };
  });
}

function attemptsSince(core: Core, mark: ClockMark): Pick<Caused, 'deliveries' | 'events_failed'> {
  const s = inScope(mark.scope, 'e.merchant_id');
  const made = core.db.all<{ event_id: string; status: number | null }>(
    `SELECT d.event_id, a.status FROM attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id
      WHERE a.id > ? AND ${s.sql} ORDER BY a.id`,
    mark.attempt,
    ...s.params,
  );
  const delivered = made.filter((a) => a.status === 200).length;
  const touched = [...new Set(made.map((a) => a.event_id))];
  const failed: Caused['events_failed'] = [];
  for (const id of touched) {
    // Failed: no attempt is left to any address, and one address never got a 200 (I4).
    const ds = core.db.all<{ url: string; delivered: number; due: number }>(
      `SELECT d.url, max(d.state = 'delivered' OR EXISTS (SELECT 1 FROM attempts x WHERE x.delivery_id = d.id AND x.status = 200)) AS delivered,
              max(d.next_attempt_at IS NOT NULL) AS due
         FROM deliveries d WHERE d.event_id = ? GROUP BY d.url`,
      id,
    );
    if (ds.some((d) => d.due === 1) || ds.every((d) => d.delivered === 1)) continue;
    const e = core.db.get<{ event_type: string; body: string }>('SELECT event_type, body FROM events WHERE id = ?', id)!;
    const last = core.db.get<{ n: number; status: number | null; error: string | null }>(
      `SELECT (SELECT count(*) FROM attempts x JOIN deliveries y ON y.id = x.delivery_id WHERE y.event_id = ?) AS n, a.status, a.error
         FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = ? ORDER BY a.id DESC LIMIT 1`,
      id,
      id,
    )!;
    failed.push({ id, event_type: e.event_type, about: eventAbout(e.event_type, e.body), attempts: last.n, last_status: last.status, last_error: last.error });
  }
  return { deliveries: { attempted: made.length, delivered, failed: made.length - delivered }, events_failed: failed };
}

function linksExpired(core: Core, mark: ClockMark, machine: number): Caused['links_expired'] {
  const after = clockOffsets(core.db);
  const nowOf = (offsets: ClockMark['offsets'], at: number, root: string) => at + (offsets.own.get(root) ?? offsets.fallback);
  const s = inScope(mark.scope, 'l.merchant_id');
  const rows = core.db.all<{ link_id: string; order_id: string; amount: string; expires_at: string; root: string }>(
    `SELECT l.link_id, l.order_id, o.amount, l.expires_at, coalesce(m.parent_id, m.merchant_id) AS root
       FROM links l JOIN merchants m ON m.merchant_id = l.merchant_id JOIN orders o ON o.order_id = l.order_id
      WHERE ${s.sql} AND l.paid_payment_id IS NULL AND l.deactivated_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = l.order_id AND p.status = 'captured')
      ORDER BY l.expires_at, l.link_id`,
    ...s.params,
  );
  // Active before the move (its expiry after the tree's time then), expired after it.
  return rows
    .filter((l) => l.expires_at > stamp(nowOf(mark.offsets, mark.machine, l.root)) && l.expires_at <= stamp(nowOf(after, machine, l.root)))
    .map((l) => ({ link_id: l.link_id, order_id: l.order_id, amount: l.amount, expired_at: l.expires_at }));
}

function refundsSince(core: Core, mark: ClockMark): Caused['refunds'] {
  const s = inScope(mark.scope, 'r.merchant_id');
  return core.db
    .all<{ refund_id: string; payment_id: string; amount: string; state: string | null }>(
      `SELECT r.refund_id, r.payment_id, r.amount, p.settlement_status AS state FROM refunds r JOIN payments p ON p.payment_id = r.payment_id
        WHERE r.rowid > ? AND ${s.sql} AND p.settlement_status IN ('EXPIRED', 'REJECTED') ORDER BY r.rowid`,
      mark.refund,
      ...s.params,
    )
    .map((r) => ({ refund_id: r.refund_id, payment_id: r.payment_id, amount: r.amount, reason: r.state === 'EXPIRED' ? 'verification expired' : 'verification rejected' }));
}

/** What happened since `mark`, in its scope: read once the move's due work is done. */
export function causedSince(core: Core, mark: ClockMark, machine: number): Caused {
  return core.db.read(() => {
    const refunds = refundsSince(core, mark);
    const expired = [...mark.open].filter((id) => core.db.get<{ s: string }>('SELECT settlement_status AS s FROM payments WHERE payment_id = ?', id)?.s === 'EXPIRED');
    const s = inScope(mark.scope, 'merchant_id');
    const sent = core.db.all<{ id: string; event_type: string; body: string }>(`SELECT id, event_type, body FROM events WHERE rowid > ? AND ${s.sql} ORDER BY rowid`, mark.event, ...s.params);
    return {
      ...attemptsSince(core, mark),
      events_sent: sent.map((e) => ({ id: e.id, event_type: e.event_type, about: eventAbout(e.event_type, e.body) })),
      links_expired: linksExpired(core, mark, machine),
      verifications_expired: expired.map((id) => {
        const refund = refunds.find((r) => r.payment_id === id);
        const amount = core.db.get<{ amount: string }>('SELECT amount FROM payments WHERE payment_id = ?', id)!.amount;
        return { payment_id: id, amount, refund_id: refund?.refund_id ?? null, refund_amount: refund?.amount ?? null };
      }),
      refunds,
      refunded_total: formatAmount(refunds.reduce((sum, r) => sum.plus(r.amount), new Money(0))),
      subscription_payments: [],
    };
  });
}

/** Is an attempt due now in `clock`'s tree (null: any) leased to a process that is making it? */
export function dueInFlight(core: Core, clock: string | null): boolean {
  const { fallback } = clockOffsets(core.db);
  const machine = core.micros(null) - fallback;
  return (
    core.db.get(
      `SELECT 1 FROM deliveries d LEFT JOIN account_clocks c ON c.account_id = d.clock_id
        WHERE d.next_attempt_at IS NOT NULL AND d.lease_until IS NOT NULL ${clock === null ? '' : 'AND d.clock_id = ?'}
          AND d.next_attempt_at <= ? + coalesce(c.offset_micros, ?)
          AND d.lease_until >= ? + coalesce(c.offset_micros, ?) LIMIT 1`,
      ...(clock === null ? [] : [clock]),
      machine,
      fallback,
      machine,
      fallback,
    ) !== undefined
  );
}
