// pgw settle mark <payment_id...>: POST /pg/settlements/mark-settled/ (spec 4.6), sandbox only.
// --dry-run looks the payments up and computes the breakdown instead (mark-dry-run.ts).
import type { Context } from '../../context.js';
import { GatewayError, ValidationError } from '../../errors.js';
import { markSettledSchema, validate } from '../../api/schemas/index.js';
import { requireSandbox } from '../../rails.js';
import { collectIds, type LookupOptions } from '../lookup.js';
import { positiveIntOption } from '../parse.js';
import { emit, renderDetail } from '../../output/render.js';
import { formatTime } from '../../output/time.js';
import { forexEquivalent } from '../../settlement.js';
import { parseDebits, throwProblems, type Problem } from './args.js';

export interface SettleMarkOptions extends LookupOptions {
  refund: string[];
  chargeback: string[];
  dryRun?: boolean;
}

/** spec 2.9, mark-settled shape: amounts are 2-decimal strings. */
export interface MarkSettledResult {
  settlement_id: string;
  utr_number?: string;
  settlement_completed_at?: string;
  forex_rate?: string;
  settlement_amount?: string;
  settlement_charges?: string;
  settlement_gst?: string;
}

export const MARK_SETTLED_PATH = '/pg/settlements/mark-settled/';

export async function runSettleMark(ctx: Context, opts: SettleMarkOptions): Promise<void> {
  const dryRun = opts.dryRun === true;
  const concurrency = opts.concurrency === undefined ? undefined : positiveIntOption('--concurrency', opts.concurrency, 64);
  const paymentIds = await collectIds(ctx, opts, 'payment_id', 'send');
  const problems: Problem[] = [];
  // A dry run looks refunds up (their amount included); chargebacks have no look-up, so need theirs.
  const refunds = parseDebits('--refund', opts.refund, false, problems);
  const chargebacks = parseDebits('--chargeback', opts.chargeback, dryRun, problems);
  throwProblems(problems, 'invalid --refund/--chargeback');
  // The shared request schema (spec 4.6 body), so the CLI refuses exactly what the sandbox would.
  const checked = validate(markSettledSchema, {
    payment_uids: paymentIds,
    refund_uids: refunds.map((d) => d.id),
    chargeback_uids: chargebacks.map((d) => d.id),
  });
  if (!checked.ok) throw new ValidationError(checked.problems, 'invalid mark-settled request');

  const profile = await ctx.profile();
  requireSandbox(profile, dryRun ? 'settle mark --dry-run' : 'settle mark');
  const api = await ctx.api();

  if (dryRun) {
    const { runMarkDryRun } = await import('./mark-dry-run.js');
    await runMarkDryRun(ctx, api, { paymentIds, refunds, chargebacks, concurrency });
    return;
  }

  let result: MarkSettledResult;
  try {
    result = await api.request<MarkSettledResult>({ method: 'POST', path: MARK_SETTLED_PATH, body: checked.data });
  } catch (err) {
    throw withRefusalHint(err);
  }
  await emit(ctx.io, ctx.output, result, () => {
    ctx.io.out(markedDetail(result, ctx.io.stdoutIsTTY));
    ctx.io.err(`next: pgw settle get ${result.settlement_id}\n`);
  });
}

/**
 * spec part 7: a refused batch is 400 ERR_SERVICE_ERROR_000 with details per category, which run()
 * prints one line each (`payment_uids: PR... is not captured`). The hint says nothing was settled.
 */
function withRefusalHint(err: unknown): unknown {
  if (!(err instanceof GatewayError) || err.code !== 'ERR_SERVICE_ERROR_000') return err;
  return new GatewayError(err.message, {
    code: err.code,
    details: err.details,
    status: err.status,
    suggestion: 'the batch is all or nothing: nothing was settled; pgw settle mark --dry-run ... lists every problem at once',
  });
}

function markedDetail(r: MarkSettledResult, local: boolean): string {
  const usd = usdEquivalent(r.settlement_amount, r.forex_rate);
  return renderDetail([
    {
      rows: [
        ['settlement_id', r.settlement_id],
        ['settlement_amount', r.settlement_amount],
        ['settlement_charges', r.settlement_charges],
        ['settlement_gst', r.settlement_gst],
        ['forex_rate', r.forex_rate],
        ['USD equivalent', usd],
        ['utr_number', r.utr_number],
        ['completed', formatTime(r.settlement_completed_at, local)],
      ],
    },
  ]);
}

/** Shown only when both figures are plain positive numbers (the gateway's strings, not ours). */
function usdEquivalent(amount: string | undefined, rate: string | undefined): string | undefined {
  if (amount === undefined || rate === undefined || !/^-?[0-9]+(\.[0-9]+)?$/.test(amount) || !/^[0-9]+(\.[0-9]+)?$/.test(rate)) return undefined;
  if (/^0+(\.0+)?$/.test(rate)) return undefined;
  return forexEquivalent(amount, rate);
}
