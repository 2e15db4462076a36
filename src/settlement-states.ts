// vendor 11.3: the settlement/verification states of a payment, one vocabulary for every view
// (issue 41 item 4). The gateway writes them uppercase on Get Payment and the verification read,
// lowercase on a payment link and in simulate-transfer (`action_required`), and one event says
// IN_REVIEW where the state is UNDER_REVIEW. JSON keeps each as the gateway wrote it; a table
// shows one form: capitals, IN_REVIEW read as UNDER_REVIEW. Plain constants, no zod: a look-up
// loads this.
import { UsageError } from './errors.js';

/** vendor 11.3's enum (openapi/v3-b2b.json). */
export const SETTLEMENT_STATES = [
  'NOT_APPLICABLE',
  'PAYMENT_PENDING',
  'PAYMENT_FAILED',
  'INFO_PENDING',
  'ACTION_REQUIRED',
  'UNDER_REVIEW',
  'VERIFIED',
  'READY_FOR_SETTLEMENT',
  'SETTLED',
  'SETTLEMENT_ERROR',
  'ON_HOLD',
  'EXPIRED',
  'REJECTED',
] as const;
export type SettlementState = (typeof SETTLEMENT_STATES)[number];

/** vendor 11.3: "Treat IN_REVIEW and UNDER_REVIEW as the same state." */
const SAME_STATE: Record<string, SettlementState> = { IN_REVIEW: 'UNDER_REVIEW' };

/**
 * A state as every table writes it: capitals, IN_REVIEW as UNDER_REVIEW. Any other text (a value
 * of beyond 2.3's refund settlement, PENDING, or one a gateway adds) is upper-cased and kept.
 */
export function stateLabel(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const upper = value.trim().toUpperCase();
  return SAME_STATE[upper] ?? upper;
}

/**
 * `--settlement-status ready_for_settlement,ACTION_REQUIRED`: any case, commas or spaces between,
 * IN_REVIEW taken for UNDER_REVIEW; an unknown state is exit 2 naming it and the 13.
 */
export function parseSettlementStates(flag: string, value: string): SettlementState[] {
  const names = value.split(/[\s,]+/).filter(Boolean);
  if (names.length === 0) throw new UsageError(`${flag}: give one or more of ${SETTLEMENT_STATES.join(', ')}`);
  const states = names.map((name) => {
    const state = stateLabel(name)!;
    if (!(SETTLEMENT_STATES as readonly string[]).includes(state)) {
      throw new UsageError(`${flag}: "${name}" is not a settlement state: one of ${SETTLEMENT_STATES.join(', ')} (any case)`, { code: 'UNKNOWN_STATE' });
    }
    return state as SettlementState;
  });
  return [...new Set(states)];
}
