// vendor 11.3's state of a payment and 11.10 P5's settlement gate: what Get Payment and
// mark-settled read, with no import of the store modules that use it (no import circle).
/** What the state is read from (a payments row). */
interface PaymentState {
  settlement_id: string | null;
  status: string;
  settlement_status?: string | null;
}

/**
 * vendor 11.3 state of any payment (docs/sandbox.md "Payment verification"): the stored state of a
 * payment whose verification is open (VBA credits, or one opened by simulate-verification);
 * SETTLED once settled; otherwise derived, so card and UPI payments behave as before:
 * READY_FOR_SETTLEMENT when captured, PAYMENT_FAILED, or PAYMENT_PENDING.
 */
export function settlementState(p: PaymentState): string {
  if (p.settlement_id) return 'SETTLED';
  if (p.settlement_status) return p.settlement_status;
  if (p.status === 'captured') return 'READY_FOR_SETTLEMENT';
  if (p.status === 'failed') return 'PAYMENT_FAILED';
  return 'PAYMENT_PENDING';
}

/** 11.10 P5: why mark-settled refuses this payment, or null. Only a payment with a verification is gated. */
export function settlementGate(uid: string, p: PaymentState): string | null {
  if (!p.settlement_status) return null;
  return p.settlement_status === 'VERIFIED' || p.settlement_status === 'READY_FOR_SETTLEMENT' ? null : `${uid} is not verified`;
}
