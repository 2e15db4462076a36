// What each settlement/verification state of vendor 11.3 means for the person answering a
// checklist (issue 42 item 2): said in one line where a payment needs no verification, and in
// the refusal when details are sent to one that takes none. One table for `payment
// verification`, `payment verify` and `payment get`.

/** vendor 11.3 gating: only these accept details. */
export const ACCEPTING_STATES = ['ACTION_REQUIRED', 'INFO_PENDING'];

/** States of a payment that needs no verification: one line instead of a checklist. */
export const NO_VERIFICATION_STATES = ['NOT_APPLICABLE', 'READY_FOR_SETTLEMENT', 'SETTLED', 'PAYMENT_FAILED', 'PAYMENT_PENDING'];

const MEANING: Record<string, string> = {
  NOT_APPLICABLE: 'no verification applies to it, so nothing is owed',
  READY_FOR_SETTLEMENT: 'it needs no verification (none was opened, or it passed): nothing is owed, and it settles as it is',
  SETTLED: 'it is settled: nothing is owed',
  VERIFIED: 'its verification passed: nothing is owed',
  EXPIRED: 'its verification expired unanswered and the payment was refunded in full: nothing can be sent',
  REJECTED: 'its verification was rejected and the payment was refunded in full: nothing can be sent',
  PAYMENT_FAILED: 'the payment failed: there is nothing to verify',
  PAYMENT_PENDING: 'the payment is not captured yet: there is nothing to verify',
  UNDER_REVIEW: 'its details were filed and are in review: nothing can be sent until the reviewer answers',
  ON_HOLD: 'its settlement is on hold: nothing can be sent until the review moves it',
};

/** "PR1234567890 is READY_FOR_SETTLEMENT: it needs no verification ..." */
export function stateSentence(paymentId: string, state: string): string {
  return `${paymentId} is ${state}: ${MEANING[state] ?? 'it does not take verification details now'}`;
}

/** Where a person can go from a state that takes nothing: on pgw's sandbox, open a review. */
export function openReviewHint(paymentId: string, state: string, sandbox: boolean): string | undefined {
  if (state === 'UNDER_REVIEW' || state === 'ON_HOLD') {
    return sandbox ? `on pgw's sandbox, the reviewer's answer: pgw sandbox verification ${paymentId} VERIFIED (or ACTION_REQUIRED --message '<why>' to send it back)` : undefined;
  }
  if (state === 'EXPIRED' || state === 'REJECTED') return `the refund: pgw refund list --payment-id ${paymentId}`;
  if (state === 'PAYMENT_FAILED' || state === 'PAYMENT_PENDING') return undefined;
  return sandbox ? `to try the compliance flow on it, open a review on pgw's sandbox: pgw sandbox verification ${paymentId} ACTION_REQUIRED` : undefined;
}
