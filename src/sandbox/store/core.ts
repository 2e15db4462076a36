// What every store module works with: the connection, the clock and the event outbox.
import type { Db } from '../db.js';
import { stamp } from '../db.js';
import type { EventType } from '../../events.js';

export type { EventType } from '../../events.js';

/** A webhook event, queued inside a write and delivered only after it commits (webhooks.ts). */
export interface SandboxEvent {
  type: EventType;
  /** The merchant the event is about; its PSP (if any) receives it too. */
  merchant_id: string;
  created_at: string;
  data: Record<string, unknown>;
}

export interface Core {
  readonly db: Db;
  /**
   * Sandbox time, in epoch microseconds, on the clock of the account tree `merchantId` belongs to
   * (store/clock.ts; I2: each tree has its own). null: the database's default clock, for what
   * belongs to no account (the seeded accounts themselves).
   */
  micros(merchantId: string | null): number;
  /** Queue an event for delivery after the current write commits. */
  emit(event: SandboxEvent): void;
}

/** Merchant ids whose resources the caller may see (spec part 5 rule 3). */
export type Scope = readonly string[];

/** Now, as a timestamp, on `merchantId`'s clock: what a row of that merchant is stamped with. */
export const nowStamp = (core: Core, merchantId: string | null): string => stamp(core.micros(merchantId));

export function parseJson<T>(text: string | null | undefined): T | null {
  return text === null || text === undefined ? null : (JSON.parse(text) as T);
}

export const inScope = (scope: Scope | undefined, merchantId: string): boolean =>
  scope === undefined || scope.includes(merchantId);
