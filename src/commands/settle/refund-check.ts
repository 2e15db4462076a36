// What settle mark --dry-run learns of each --refund before predicting mark-settled (issue 13 item
// 7): GET /pg/refunds/{id}/ and GET /pg/refunds/{id}/settlement/ (gateway-api-beyond.md 2.2, 2.3).
// A refund that does not exist (or is another merchant's) or is already settled is refused as the
// real call refuses it; its amount comes from the gateway's record when none is given.
import type { ApiClient } from '../../api/types.js';
import { NotFoundError } from '../../errors.js';
import { formatAmount, isAmountString } from '../../money.js';
import { fetchAll } from '../lookup.js';
import { refundIsDebited, refundNotDebited } from '../../settlement.js';
import type { Debit } from './args.js';

interface RefundFacts {
  refund_amount?: string | number | null;
  refund_status?: string | null;
  settlement_id?: string | null;
}

interface RefundSettlementFacts {
  settlement_status?: string | null;
  settlement_details?: { settlement_id?: string | null } | null;
}

export interface RefundCheck {
  /** Refunds that pass, each with the amount the breakdown uses. */
  accepted: { id: string; amount: string }[];
  refusals: string[];
  warnings: string[];
}

/** A route the gateway does not have (pgw's sandbox answers ERR_NOT_FOUND_000 for unknown paths). */
const noSuchOperation = (err: unknown): boolean => err instanceof NotFoundError && err.code === 'ERR_NOT_FOUND_000';

function settledIn(refund: RefundFacts, settlement: RefundSettlementFacts): string | undefined {
  const id = settlement.settlement_details?.settlement_id ?? refund.settlement_id ?? undefined;
  if (settlement.settlement_status?.toUpperCase() === 'SETTLED') return id ?? 'a settlement';
  return id ?? undefined;
}

function recordedAmount(refund: RefundFacts): string | undefined {
  const raw = refund.refund_amount;
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return isAmountString(text) ? formatAmount(text) : undefined;
}

/** `repeated`: indexes of refunds given more than once (already refused by the caller). */
export async function checkRefunds(api: ApiClient, refunds: Debit[], repeated: Set<number>, concurrency: number): Promise<RefundCheck> {
  const check: RefundCheck = { accepted: [], refusals: [], warnings: [] };
  const unique = [...new Set(refunds.map((r) => r.id))];
  const outcomes = await fetchAll(unique, concurrency, async (id) => {
    const [refund, settlement] = await Promise.all([
      api.request<RefundFacts>({ method: 'GET', path: `/pg/refunds/${id}/` }),
      api.request<RefundSettlementFacts>({ method: 'GET', path: `/pg/refunds/${id}/settlement/` }),
    ]);
    return { refund: refund ?? {}, settlement: settlement ?? {} };
  });
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  refunds.forEach((given, i) => {
    if (repeated.has(i)) return;
    const outcome = byId.get(given.id)!;
    if (!outcome.ok) {
      if (noSuchOperation(outcome.error)) {
        // A gateway without the refund look-up: the given amount is all there is to go on.
        if (given.amount === undefined) check.refusals.push(`${given.id}: this gateway has no refund look-up; give its amount: --refund ${given.id}=<amount>`);
        else {
          check.warnings.push(`${given.id}: this gateway has no refund look-up; whether it exists or is settled is not checked`);
          check.accepted.push({ id: given.id, amount: given.amount });
        }
        return;
      }
      // spec 4.6 rule 2: another merchant's refund reads as nonexistent, like a missing one.
      if (outcome.error instanceof NotFoundError) return void check.refusals.push(`${given.id} not found`);
      throw outcome.error; // auth, network: the dry run cannot predict anything
    }
    const { refund, settlement } = outcome.value;
    const settled = settledIn(refund, settlement);
    if (settled !== undefined) return void check.refusals.push(`${given.id} is already settled (in ${settled})`);
    // docs/sandbox.md: a failed, reversed or bank-rejected refund is never debited.
    if (typeof refund.refund_status === 'string' && !refundIsDebited(refund.refund_status)) return void check.refusals.push(refundNotDebited(given.id, refund.refund_status));
    // I1 (issue 42): nothing will settle it (a refund of a payment rejected or expired in verification).
    if (settlement.settlement_status?.toUpperCase() === 'NOT_APPLICABLE') return void check.refusals.push(`${given.id}: its settlement is NOT_APPLICABLE: no settlement debits it`);
    const recorded = recordedAmount(refund);
    if (given.amount !== undefined) {
      if (recorded !== undefined && recorded !== given.amount) {
        check.warnings.push(`${given.id}: given as ${given.amount}, the gateway records ${recorded}; the dry run uses ${given.amount}`);
      }
      check.accepted.push({ id: given.id, amount: given.amount });
    } else if (recorded !== undefined) {
      check.accepted.push({ id: given.id, amount: recorded });
    } else {
      check.refusals.push(`${given.id}: the gateway returned no readable refund_amount (${JSON.stringify(refund.refund_amount ?? null)}); give it: --refund ${given.id}=<amount>`);
    }
  });
  return check;
}
