// pgw settle calc: the simulator's settlement arithmetic (spec 4.6 rules 4-7) offline, through the
// one implementation the sandbox uses (src/settlement.ts). No profile, no network: this file must
// not reach ctx.profile() or ctx.api(), so undici and conf are never loaded.
import type { Context } from '../../context.js';
import { computeSettlement } from '../../settlement.js';
import { UsageError } from '../../errors.js';
import { emit, wantsJson } from '../../output/emit.js';
import { MAX_PAYMENT_AMOUNT, parseAmounts, throwProblems, type Problem } from './args.js';

export interface SettleCalcOptions {
  payment: string[];
  refund: string[];
  chargeback: string[];
  /** Settlement IDs to read and recompute (calc-settlement.ts): the only path that sends anything. */
  fromSettlement?: string[];
}

export async function runSettleCalc(ctx: Context, opts: SettleCalcOptions): Promise<void> {
  if (opts.fromSettlement?.length) {
    const given = ['--payment', '--refund', '--chargeback'].filter((_, i) => [opts.payment, opts.refund, opts.chargeback][i]!.length > 0);
    if (given.length > 0) throw new UsageError(`--from-settlement reads the amounts from the settlement: drop ${given.join(', ')}`);
    const { runCalcFromSettlement } = await import('./calc-settlement.js');
    return runCalcFromSettlement(ctx, opts.fromSettlement);
  }
  const problems: Problem[] = [];
  const payments = parseAmounts('--payment', opts.payment, problems, MAX_PAYMENT_AMOUNT);
  const refunds = parseAmounts('--refund', opts.refund, problems);
  const chargebacks = parseAmounts('--chargeback', opts.chargeback, problems);
  if (opts.payment.length === 0) {
    // spec 4.6 / part 8: mark-settled settles at least 1 payment.
    problems.unshift({ path: '--payment', message: 'at least one payment amount is required (e.g. --payment 1000.00)' });
  }
  throwProblems(problems, 'invalid amounts');
  const breakdown = computeSettlement({ payments: payments.map((amount) => ({ amount })), refunds, chargebacks });
  // The table (cli-table3, string-width) is loaded only to be drawn: JSON, every run on a pipe, skips it.
  const table = wantsJson(ctx.output) ? undefined : await import('./breakdown.js');
  await emit(ctx.io, ctx.output, breakdown, () => ctx.io.out(table!.renderBreakdown(breakdown, {}, ctx.io.colorOut)));
}
