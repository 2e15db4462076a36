// The webhook events the sandbox sends, in the spec's naming style (part 6 names PAYMENT_SETTLED).
// Shared by the sandbox, `pgw listen --events` and `pgw trigger`; payloads in docs/sandbox.md.
export const EVENT_TYPES = [
  'PAYMENT_CAPTURED',
  'PAYMENT_FAILED',
  'PAYMENT_SETTLED',
  // vendor 1.5, 1.6, 2.4: a refund's transitions (issue 20)
  'PAYMENT_REFUNDED',
  'REFUND_FAILED',
  'REFUND_STATUS_UPDATE',
  // vendor 1.6, 7.4: a sub-merchant reaching APPROVED (issue 20)
  'MERCHANT_APPROVED',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What every delivery's body looks like: `{event, merchant_id, created_at, data}`. */
export interface EventEnvelope {
  event: string;
  merchant_id?: string;
  created_at?: string;
  data?: Record<string, unknown>;
}

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
