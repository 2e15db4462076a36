// The sandbox clock (issue 19): one per database, kept in it, so every process sharing the file
// (the embedded sandbox of each pgw run, `pgw sandbox serve`) reads the same time. It runs with the
// machine's clock, shifted by an offset that `clock advance` / `set` / `reset` change: timestamps,
// event_time, link expiry and webhook retry due times all read it (core.micros).
import type { Db, MicroClock } from '../db.js';
import { stamp } from '../db.js';
import { ReadCache } from '../read-cache.js';

export interface ClockView {
  /** Sandbox time now. */
  now: string;
  /** The machine's time now. */
  machine_now: string;
  /** How far the sandbox is ahead of the machine (negative: behind), in seconds. */
  offset_seconds: number;
}

export function clockOffset(db: Db): number {
  return db.get<{ offset_micros: number }>('SELECT offset_micros FROM sandbox_clock WHERE id = 1')?.offset_micros ?? 0;
}

/**
 * The store's clock: the base clock (the machine's, or a test's) plus the database's offset. A
 * read (every GET) takes the offset from a cache that is exact across processes (read-cache.ts);
 * a write reads the row, so a clock moved by another process is seen at once.
 */
export function sandboxMicros(db: Db, base: MicroClock): MicroClock {
  const cache = new ReadCache<number>(db, ['sandbox_clock']);
  return () => base() + cache.get('offset', () => Number(clockOffset(db)));
}

export function clockView(db: Db, base: MicroClock): ClockView {
  const machine = base();
  const offset = Number(clockOffset(db));
  return { now: stamp(machine + offset), machine_now: stamp(machine), offset_seconds: offset / 1_000_000 };
}

export function setOffset(db: Db, offsetMicros: number): void {
  db.write(() => moveClock(db, Math.round(offsetMicros) - Number(clockOffset(db))));
}

export function advanceClock(db: Db, seconds: number): void {
  db.write(() => moveClock(db, Math.round(seconds * 1_000_000)));
}

/**
 * The one way the sandbox's time moves. Webhook leases (outbox.ts claimDue) move with it: a lease
 * says "a process is making this attempt for the next minute", and an advance of an hour must
 * neither free an attempt in flight for another process nor a set backwards pin it for hours.
 */
function moveClock(db: Db, deltaMicros: number): void {
  db.run('UPDATE sandbox_clock SET offset_micros = offset_micros + ? WHERE id = 1', deltaMicros);
  db.run('UPDATE deliveries SET lease_until = lease_until + ? WHERE lease_until IS NOT NULL', deltaMicros);
}
