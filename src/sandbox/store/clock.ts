// The sandbox clocks (issue 19; per account tree since issue 31). Each account tree (a merchant;
// a PSP with its sub-merchants) has its own clock, as Stripe's test clocks scope time to the
// objects attached to them: one team moving time never expires another team's links or fires its
// events. A clock is an offset from the machine's time, kept in the database so every process
// sharing the file reads the same time: `account_clocks` holds the trees whose clock was moved on
// its own; every other tree reads the database's default clock (`sandbox_clock`), which `--all`
// moves with every tree's. Timestamps, event_time, link expiry and webhook retry due times all
// read the clock of the tree the object belongs to (core.micros(merchantId)).
import type { Db, MicroClock } from '../db.js';
import { stamp } from '../db.js';
import { ReadCache } from '../read-cache.js';
import { SandboxError } from '../errors.js';

export interface ClockView {
  /** Sandbox time now (of the caller's tree). */
  now: string;
  /** The machine's time now. */
  machine_now: string;
  /** How far the sandbox is ahead of the machine (negative: behind), in seconds. */
  offset_seconds: number;
  /** The account tree whose clock this is (a merchant, or a PSP); null: the database's default. */
  account: string | null;
}

/** I5: every timestamp the sandbox writes is a real date between 1970 and 9999. */
export const CLOCK_MIN_MICROS = 0;
export const CLOCK_MAX_MICROS = Date.UTC(9999, 11, 31, 23, 59, 59, 999) * 1000 + 999;

/**
 * Microseconds near the end of the calendar (9999: 2.5e17) are past JavaScript's exact integers
 * (2^53, the year 2255): node:sqlite refuses to read such an INTEGER as a number, so every
 * microsecond value is read as REAL (exact to 32 µs there, to the microsecond before 2255).
 */
export const MICROS = (column: string, as = column.replace(/^.*\./, '')) => `CAST(${column} AS REAL) AS ${as}`;

/** The account whose clock `merchantId` reads: itself, or a sub-merchant's PSP. */
export function clockRoot(db: Db, merchantId: string): string {
  return db.get<{ root: string }>('SELECT coalesce(parent_id, merchant_id) AS root FROM merchants WHERE merchant_id = ?', merchantId)?.root ?? merchantId;
}

function defaultOffset(db: Db): number {
  return Number(db.get<{ offset_micros: number }>(`SELECT ${MICROS('offset_micros')} FROM sandbox_clock WHERE id = 1`)?.offset_micros ?? 0);
}

/** The offset of `root`'s clock (null: the database's default). */
export function clockOffset(db: Db, root: string | null): number {
  const own = root === null ? undefined : db.get<{ offset_micros: number }>(`SELECT ${MICROS('offset_micros')} FROM account_clocks WHERE account_id = ?`, root);
  return own === undefined ? defaultOffset(db) : Number(own.offset_micros);
}

/** Every clock's offset: the default's and each tree's that has its own (the outbox reads many at once). */
export function clockOffsets(db: Db): { fallback: number; own: Map<string, number> } {
  const own = new Map(db.all<{ account_id: string; offset_micros: number }>(`SELECT account_id, ${MICROS('offset_micros')} FROM account_clocks`).map((r) => [r.account_id, Number(r.offset_micros)]));
  return { fallback: defaultOffset(db), own };
}

/**
 * The store's clocks: the base clock (the machine's, or a test's) plus the offset of the tree a
 * merchant belongs to. A read (every GET) takes both from caches that are exact across processes
 * (read-cache.ts); a write reads the rows, so a clock moved by another process is seen at once.
 */
export function sandboxClocks(db: Db, base: MicroClock): (merchantId: string | null) => number {
  const roots = new ReadCache<string>(db, ['merchants']);
  const offsets = new ReadCache<number>(db, ['sandbox_clock', 'account_clocks']);
  return (merchantId) => {
    const root = merchantId === null ? null : roots.get(merchantId, () => clockRoot(db, merchantId));
    return base() + offsets.get(root ?? '', () => clockOffset(db, root));
  };
}

export function clockView(db: Db, base: MicroClock, merchantId: string | null): ClockView {
  const machine = base();
  const root = merchantId === null ? null : clockRoot(db, merchantId);
  const offset = clockOffset(db, root);
  return { now: stamp(machine + offset), machine_now: stamp(machine), offset_seconds: offset / 1_000_000, account: root };
}

/** Every tree's clock and the default, for `pgw sandbox clock --all`. */
export function allClockViews(db: Db, base: MicroClock): ClockView[] {
  const machine = base();
  const { fallback, own } = clockOffsets(db);
  const view = (account: string | null, offset: number): ClockView => ({ now: stamp(machine + offset), machine_now: stamp(machine), offset_seconds: offset / 1_000_000, account });
  return [view(null, fallback), ...[...own.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([a, o]) => view(a, o))];
}

/** Which clocks a move is for: one tree's (named by any of its merchants), or every clock. */
export type ClockTarget = { merchantId: string } | { all: true };

function outOfCalendar(whenMicros: number): SandboxError {
  return new SandboxError(400, 'ERR_VALIDATION_000', 'Invalid request', {
    clock: `the sandbox clock would read ${whenMicros > CLOCK_MAX_MICROS ? 'after 9999-12-31T23:59:59Z' : 'before 1970-01-01T00:00:00Z'}: the sandbox's time stays between 1970 and 9999`,
  });
}

/**
 * The one way the sandbox's time moves: on by some microseconds, to a moment, or back to the
 * machine's time; for one tree (named by any of its merchants) or every clock. Refused whole, nothing moved, when a clock would leave the calendar (I5).
 * Webhook leases (outbox.ts claimDue) move with their tree's clock: a lease says "a process is
 * making this attempt for the next minute", and an advance of an hour must neither free an
 * attempt in flight for another process nor a set backwards pin it for hours.
 */
export function moveClock(db: Db, base: MicroClock, target: ClockTarget, change: { by: number } | { to: number } | { reset: true }): void {
  db.write(() => {
    const machine = base();
    const next = (offset: number): number => {
      const to = 'by' in change ? offset + Math.round(change.by) : 'to' in change ? Math.round(change.to) - machine : 0;
      const when = machine + to;
      if (when < CLOCK_MIN_MICROS || when > CLOCK_MAX_MICROS) throw outOfCalendar(when);
      return to;
    };
    if ('all' in target) {
      const { fallback, own } = clockOffsets(db);
      const moved = next(fallback);
      db.run('UPDATE sandbox_clock SET offset_micros = ? WHERE id = 1', moved);
      db.run('UPDATE deliveries SET lease_until = lease_until + ? WHERE lease_until IS NOT NULL AND (clock_id IS NULL OR clock_id NOT IN (SELECT account_id FROM account_clocks))', moved - fallback);
      for (const [account, offset] of own) {
        const mine = next(offset);
        db.run('UPDATE account_clocks SET offset_micros = ? WHERE account_id = ?', mine, account);
        db.run('UPDATE deliveries SET lease_until = lease_until + ? WHERE lease_until IS NOT NULL AND clock_id = ?', mine - offset, account);
      }
      return;
    }
    const root = clockRoot(db, target.merchantId);
    const offset = clockOffset(db, root);
    const moved = next(offset);
    db.run('INSERT INTO account_clocks (account_id, offset_micros) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET offset_micros = excluded.offset_micros', root, moved);
    db.run('UPDATE deliveries SET lease_until = lease_until + ? WHERE lease_until IS NOT NULL AND clock_id = ?', moved - offset, root);
  });
}
