// The webhook events the sandbox sends, named as the gateway names them (vendor 1.5). Shared by
// the sandbox (envelope), `pgw listen --events`, `pgw trigger` and `pgw events`; payloads in
// docs/sandbox.md "Webhooks". PAYMENT_CAPTURED (pgw's name before issue 19) is PAYMENT_SUCCESSFUL.
export const EVENT_TYPES = [
  'PAYMENT_SUCCESSFUL',
  'PAYMENT_FAILED',
  'PAYMENT_SETTLED',
  'PAYMENT_REFUNDED',
  'REFUND_FAILED',
  'REFUND_STATUS_UPDATE',
  'MERCHANT_APPROVED',
  // vendor 11.4: the compliance events.
  'VERIFICATION_NEEDED',
  'PAYMENT_UNDER_REVIEW',
  'LRS_VERIFICATION_NEEDED',
  'VERIFICATION_STATUS',
  'PAYMENT_DETAILS_MISSING',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * How each event page writes `event_time` (vendor 1.7: the pages disagree; the sandbox follows
 * each event's own page, always UTC):
 * - `iso`: `2026-11-21T10:00:00.123456Z` (ISO 8601, microseconds, Z)
 * - `space-z`: `2026-11-21 10:00:00Z`
 * - `space`: `2026-11-21 10:00:00`
 * - `naive`: `2026-11-21T10:00:00.123456` (no zone)
 */
export type EventTimeForm = 'iso' | 'space-z' | 'space' | 'naive';

/** The envelope's per-event `version` and `event_time` form (vendor 1.4, 1.7, N12). */
export const EVENT_FORMS: Record<EventType, { version: string; time: EventTimeForm }> = {
  PAYMENT_SUCCESSFUL: { version: '2.0.0', time: 'iso' },
  PAYMENT_FAILED: { version: '1.0', time: 'space-z' },
  PAYMENT_SETTLED: { version: '1.0', time: 'space' },
  PAYMENT_REFUNDED: { version: '1.0', time: 'space' },
  REFUND_FAILED: { version: '3.0.0', time: 'naive' },
  REFUND_STATUS_UPDATE: { version: '3.0.0', time: 'naive' },
  MERCHANT_APPROVED: { version: '1.0', time: 'space' },
  // vendor 11.4: version 3.0.0, UTC with microseconds and no offset (the newest pages).
  VERIFICATION_NEEDED: { version: '3.0.0', time: 'naive' },
  PAYMENT_UNDER_REVIEW: { version: '3.0.0', time: 'naive' },
  LRS_VERIFICATION_NEEDED: { version: '3.0.0', time: 'naive' },
  VERIFICATION_STATUS: { version: '3.0.0', time: 'naive' },
  PAYMENT_DETAILS_MISSING: { version: '3.0.0', time: 'naive' },
};

/** `2026-11-21T10:00:00.123456Z` (the sandbox's own stamps) in the event's form. */
export function formatEventTime(stamp: string, form: EventTimeForm): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(stamp);
  if (!m) return stamp;
  const [, date, time, frac = '.000000'] = m;
  switch (form) {
    case 'iso':
      return `${date}T${time}${frac}Z`;
    case 'space-z':
      return `${date} ${time}Z`;
    case 'space':
      return `${date} ${time}`;
    case 'naive':
      return `${date}T${time}${frac}`;
  }
}

/** What every delivery's body looks like (vendor 1.4). */
export interface EventEnvelope {
  event_type: string;
  event_time?: string;
  version?: string;
  sequence_number?: string;
  data?: Record<string, unknown>;
}

/** Names pgw used before the gateway's (docs/cli.md "Changes"): refused with the new name. */
export const RENAMED_EVENTS: Readonly<Record<string, EventType>> = { PAYMENT_CAPTURED: 'PAYMENT_SUCCESSFUL' };

/** Why `name` (already uppercased) is not an event the sandbox sends. */
export function notAnEvent(name: string): string {
  const renamed = RENAMED_EVENTS[name];
  if (renamed) return `"${name}" is now ${renamed}, the gateway's name for it`;
  return `"${name}" is not an event the sandbox sends: use ${EVENT_TYPES.join(', ')}`;
}

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

// ---- pgw's own headers on a delivery to a `pgw listen` receiver (issue 45) ----

/** Whether the listener forwards this event: `yes`, or `no; address=WH…` / `no; listener=WH…` (who brings it instead). */
export const FORWARD_HEADER = 'X-Pgw-Forward';
/** The event's ID in the delivery log (`pgw events get|resend EV…`). */
export const EVENT_ID_HEADER = 'X-Pgw-Event-Id';

/** A delivery's forwarding decision (store/forwarding.ts) as its header value. */
export function forwardHeaderValue(forward: string): string {
  if (forward === 'yes') return 'yes';
  const [kind, id] = forward.split(' ');
  return `no; ${kind}=${id}`;
}

/** The header read back: undefined when absent or not understood (then the listener forwards). */
export function parseForwardHeader(value: string | undefined): { forward: true } | { forward: false; kind: 'address' | 'listener'; by: string } | undefined {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'yes') return { forward: true };
  const m = /^no;\s*(address|listener)=(WH[0-9A-Za-z]+)$/.exec(value.trim());
  return m ? { forward: false, kind: m[1] as 'address' | 'listener', by: m[2]! } : undefined;
}

/**
 * The one ID an event is about (issue 42: `pgw events list`'s `about` column; `--about` filters by
 * any ID the body names): the refund of a refund event, the settlement of PAYMENT_SETTLED, the
 * sub-merchant of MERCHANT_APPROVED, the order of PAYMENT_DETAILS_MISSING, else the payment (a
 * link that closed unpaid: the link). null when the body names none of them.
 */
export function eventAbout(type: string, data: unknown): string | null {
  if (data === null || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  const first = (list: unknown, key: string) => (Array.isArray(list) && list[0] !== null && typeof list[0] === 'object' ? (list[0] as Record<string, unknown>)[key] : undefined);
  const pick = (...values: unknown[]) => (values.find((v) => typeof v === 'string' && v !== '') as string | undefined) ?? null;
  switch (type) {
    case 'PAYMENT_SETTLED':
      return pick(first(d.settlements, 'settlement_id'));
    case 'PAYMENT_REFUNDED':
    case 'REFUND_FAILED':
    case 'REFUND_STATUS_UPDATE':
      return pick(first(d.refunds, 'refund_id'));
    case 'MERCHANT_APPROVED':
      return pick(d.merchant_id);
    case 'SUBSCRIPTION_STATUS':
      return pick(first(d.subscriptions, 'subscription_id'));
    case 'DISPUTE_UPDATED':
      return pick(d.chargeback_id, d.payment_id);
    default:
      return pick(d.payment_id, d.order_id, d.order_uid, d.merchant_id);
  }
}
