// pgw settle calc --from-settlement <ST...> (issue 41 item 4): check a settlement without retyping
// it. Its own rows are read (GET /pg/settlements/{id}/, spec 4.5: captures, refunds and
// chargebacks with their amounts), the breakdown is recomputed from their amounts with the one
// arithmetic mark-settled uses (src/settlement.ts, spec 4.6 rules 4-7), and every figure is set
// beside the gateway's: each capture's fee, gst and net, each debit's net, the settlement_amount.
// One request per settlement. The arithmetic is the simulator's fee schedule (5 %, GST 18 %): a
// production settlement priced otherwise differs, and the rows say where.
import type { Context } from '../../context.js';
import { GatewayError } from '../../errors.js';
import { computeSettlement, type SettlementBreakdown } from '../../settlement.js';
import { formatAmount } from '../../money.js';
import { DEFAULT_CONCURRENCY, collectIds, fetchAll } from '../lookup.js';
import { emit } from '../../output/emit.js';
import { amount } from './amounts.js';
import type { Settlement, SettlementTransaction } from './get.js';
import { differenceText, renderCheck } from './breakdown.js';

/** One figure the gateway states that the arithmetic does not give. */
export interface Difference {
  transaction_id: string;
  field: 'fee' | 'gst' | 'net' | 'settlement_amount' | 'amount';
  gateway: string | null;
  computed: string;
}

/** The calc JSON (contract: settle calc JSON) of the settlement's rows, and the comparison. */
export type SettlementCheck = SettlementBreakdown & {
  settlement_id: string;
  /** The IDs of `refunds` and `chargebacks`, in their order (the calc shape lists amounts only). */
  refund_ids: string[];
  chargeback_ids: string[];
  gateway_settlement_amount: string | null;
  agrees: boolean;
  differences: Difference[];
};

const typeOf = (t: SettlementTransaction) => (t.settlement_type ?? 'capture').toLowerCase();

export function checkSettlement(s: Settlement): SettlementCheck {
  const txs = s.transactions ?? [];
  const differences: Difference[] = [];
  const rows = txs.map((t) => ({ t, id: t.transaction_id ?? '?', amount: amount(t.transaction_amount) }));
  for (const r of rows.filter((r) => r.amount === undefined)) differences.push({ transaction_id: r.id, field: 'amount', gateway: null, computed: 'a readable amount' });
  const readable = rows.filter((r) => r.amount !== undefined && !r.amount.startsWith('-'));
  const captures = readable.filter((r) => typeOf(r.t) === 'capture');
  const refunds = readable.filter((r) => typeOf(r.t) === 'refund');
  const chargebacks = readable.filter((r) => typeOf(r.t) !== 'capture' && typeOf(r.t) !== 'refund');
  const breakdown = computeSettlement({
    payments: captures.map((r) => ({ payment_id: r.id, amount: r.amount! })),
    refunds: refunds.map((r) => r.amount!),
    chargebacks: chargebacks.map((r) => r.amount!),
  });
  const compare = (id: string, field: Difference['field'], gateway: number | string | undefined, computed: string) => {
    const stated = amount(gateway);
    if (stated !== computed) differences.push({ transaction_id: id, field, gateway: stated ?? null, computed });
  };
  captures.forEach((r, i) => {
    const p = breakdown.payments[i]!;
    compare(r.id, 'fee', r.t.merchant_service_fee, p.fee);
    compare(r.id, 'gst', r.t.merchant_service_tax, p.gst);
    compare(r.id, 'net', r.t.merchant_net_amount, p.net);
  });
  // spec 4.6 rule 6: a refund or chargeback has no fee and debits its full amount.
  for (const r of [...refunds, ...chargebacks]) compare(r.id, 'net', r.t.merchant_net_amount, formatAmount(`-${r.amount!}`));
  const stated = amount(s.settlement_amount);
  compare(s.settlement_id, 'settlement_amount', s.settlement_amount, breakdown.settlement_amount);
  return {
    settlement_id: s.settlement_id,
    ...breakdown,
    refund_ids: refunds.map((r) => r.id),
    chargeback_ids: chargebacks.map((r) => r.id),
    gateway_settlement_amount: stated ?? null,
    agrees: differences.length === 0,
    differences,
  };
}

export async function runCalcFromSettlement(ctx: Context, given: string[]): Promise<void> {
  const ids = await collectIds(ctx, { ids: given }, 'settlement_id');
  await ctx.profile();
  const api = await ctx.api();
  const outcomes = await fetchAll(ids, DEFAULT_CONCURRENCY, (id) => api.request<Settlement>({ method: 'GET', path: `/pg/settlements/${id}/` }));
  const failed = outcomes.find((o) => !o.ok);
  if (failed && !failed.ok) throw failed.error; // a settlement that cannot be read cannot be checked
  const checks = outcomes.map((o) => checkSettlement((o as { value: Settlement }).value));
  await emit(ctx.io, ctx.output, checks.length === 1 ? checks[0] : checks, () => {
    ctx.io.out(checks.map((c) => renderCheck(c, ctx.io.colorOut)).join('\n'));
  });
  const differing = checks.filter((c) => !c.agrees);
  if (differing.length > 0) {
    throw new GatewayError(`${differing.map((c) => c.settlement_id).join(', ')} ${differing.length === 1 ? 'does' : 'do'} not agree with spec 4.6's arithmetic on ${differing.length === 1 ? 'its' : 'their'} own rows`, {
      code: 'SETTLEMENT_DIFFERS',
      details: Object.fromEntries(differing.map((c) => [c.settlement_id, c.differences.map(differenceText)])),
      suggestion: "the simulator's fee schedule (5 %, GST 18 %, spec 4.6) is what is checked: a production settlement priced otherwise differs on fee and gst",
    });
  }
}
