// pgw settle mark --dry-run: look the payments up (GET /pg/payments/{id}/, 8 at a time) and the
// refunds (refund-check.ts), compute
// the breakdown mark-settled would produce with src/settlement.ts (the sandbox's own arithmetic),
// and flag what the gateway would refuse (spec 4.6 rule 1, part 7 messages). Nothing is marked.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { GatewayError, NotFoundError } from '../../errors.js';
import { DEFAULT_CONCURRENCY, fetchAll } from '../lookup.js';
import { computeSettlement, negativeSettlement } from '../../settlement.js';
import { isAmountString } from '../../money.js';
import { emit } from '../../output/render.js';
import { startProgress } from '../../output/progress.js';
import { renderBreakdown } from './breakdown.js';
import { checkRefunds } from './refund-check.js';
import type { Debit } from './args.js';

/** The fields of Get Payment (spec 2.7) the dry run reads. */
interface PaymentFacts {
  payment_id: string;
  status?: string;
  order?: { amount?: string };
  settlement?: { id?: string; settlement_id?: string } | null;
  settlement_status?: string | null;
}

export interface DryRunInput {
  paymentIds: string[];
  refunds: Debit[];
  chargebacks: Debit[];
  concurrency?: number;
}

type Refusals = { payment_uids: string[]; refund_uids: string[]; chargeback_uids: string[] };

function settledIn(p: PaymentFacts): string | undefined {
  if (p.settlement && (p.settlement.id || p.settlement.settlement_id)) return p.settlement.id ?? p.settlement.settlement_id;
  if (p.settlement_status?.toUpperCase() === 'SETTLED') return 'a settlement';
  return undefined;
}

/** spec 4.6 rule 1 and part 7's messages; the simulator-gateway rule cannot be seen from Get Payment. */
function paymentRefusal(id: string, p: PaymentFacts): string | undefined {
  if (p.status?.toLowerCase() !== 'captured') return `${id} is not captured (status ${p.status ?? 'unknown'})`;
  const settlement = settledIn(p);
  if (settlement !== undefined) return `${id} is already settled (in ${settlement})`;
  if (!p.order?.amount || !isAmountString(p.order.amount)) return `${id}: the gateway returned no readable order amount (${JSON.stringify(p.order?.amount ?? null)})`;
  return undefined;
}

function duplicates(ids: string[]): Set<number> {
  const seen = new Set<string>();
  const repeated = new Set<number>();
  ids.forEach((id, i) => (seen.has(id) ? repeated.add(i) : seen.add(id)));
  return repeated;
}

export async function runMarkDryRun(ctx: Context, api: ApiClient, input: DryRunInput): Promise<void> {
  const refusals: Refusals = { payment_uids: [], refund_uids: [], chargeback_uids: [] };
  const unique = [...new Set(input.paymentIds)];
  const progress = startProgress(ctx.io, unique.length, `looking up ${unique.length} payments`);
  const outcomes = await fetchAll(unique, input.concurrency ?? DEFAULT_CONCURRENCY, (id) => api.request<PaymentFacts>({ method: 'GET', path: `/pg/payments/${id}/` }), () => progress.tick());
  progress.done();
  const byId = new Map(outcomes.map((o) => [o.id, o]));

  const settle: { payment_id: string; amount: string }[] = [];
  const repeated = duplicates(input.paymentIds);
  input.paymentIds.forEach((id, i) => {
    if (repeated.has(i)) return void refusals.payment_uids.push(`${id} appears more than once`);
    const outcome = byId.get(id)!;
    if (!outcome.ok) {
      // spec 4.6 rule 2: another merchant's payment reads as nonexistent, so both are "not found".
      if (outcome.error instanceof NotFoundError) return void refusals.payment_uids.push(`${id} not found`);
      throw outcome.error; // auth, network: the dry run cannot predict anything
    }
    const refusal = paymentRefusal(id, outcome.value);
    if (refusal) refusals.payment_uids.push(refusal);
    else settle.push({ payment_id: id, amount: outcome.value.order!.amount! });
  });

  for (const [debits, key] of [[input.refunds, 'refund_uids'], [input.chargebacks, 'chargeback_uids']] as const) {
    const again = duplicates(debits.map((d) => d.id));
    debits.forEach((d, i) => again.has(i) && refusals[key].push(`${d.id} appears more than once`));
  }
  // Refunds are looked up (issue 13 item 7): missing or already settled ones are refused as the
  // real call refuses them. Chargebacks have no look-up: their given amounts are taken as they are.
  const refundCheck = await checkRefunds(api, input.refunds, duplicates(input.refunds.map((d) => d.id)), input.concurrency ?? DEFAULT_CONCURRENCY);
  refusals.refund_uids.push(...refundCheck.refusals);
  for (const warning of refundCheck.warnings) ctx.io.err(`warning: ${warning}\n`);

  const breakdown = computeSettlement({
    payments: settle,
    refunds: refundCheck.accepted.map((r) => r.amount),
    chargebacks: input.chargebacks.map((d) => d.amount!),
  });
  // Only a batch that passes every other check can be judged on its total (the real call's order).
  const negative = refusals.payment_uids.length + refusals.refund_uids.length + refusals.chargeback_uids.length === 0 ? negativeSettlement(breakdown) : undefined;
  if (negative) refusals[negative.key].push(negative.reason);
  const refused = refusals.payment_uids.length + refusals.refund_uids.length + refusals.chargeback_uids.length;
  await emit(ctx.io, ctx.output, breakdown, () => {
    ctx.io.out(renderBreakdown(breakdown, { refunds: refundCheck.accepted.map((r) => r.id), chargebacks: input.chargebacks.map((d) => d.id) }, ctx.io.colorOut));
    if (refused === 0) ctx.io.err('dry run: nothing was marked; run it again without --dry-run to settle\n');
  });
  if (refused > 0) {
    // Exit 1 like the 400 it predicts, so `pgw settle mark --dry-run ... && pgw settle mark ...` stops.
    throw new GatewayError(`dry run: mark-settled would refuse this batch (${refused} ${refused === 1 ? 'problem' : 'problems'}); nothing was marked`, {
      code: 'DRY_RUN_REFUSED',
      details: refusals,
      suggestion: 'the batch is all or nothing: drop or fix these; the breakdown above leaves the refused payments out',
    });
  }
}
