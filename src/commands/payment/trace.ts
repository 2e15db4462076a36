// pgw payment trace <payment_id|order_id|reference>: what happened to this payment, in order, one
// line per step (issue 41 item 3). The reads are src/answers/trace/gather.ts (it says which, and
// what they cost), the steps src/answers/trace/steps.ts; `pgw mcp`'s payment_trace is the same.
import type { Context } from '../../context.js';
import { emit } from '../../output/emit.js';
import { fold, visibleWidth } from '../../output/fold.js';
import { getOutputWidth } from '../../output/width.js';
import { formatTime } from '../../output/time.js';
import { createTheme } from '../../output/theme.js';
import type { Step } from '../../answers/trace/steps.js';

export async function runPaymentTrace(ctx: Context, opts: { id: string }): Promise<void> {
  const output = ctx.output;
  const [{ gatherTrace, checkTraceArgument }, { traceSteps }] = await Promise.all([import('../../answers/trace/gather.js'), import('../../answers/trace/steps.js')]);
  const asked = checkTraceArgument(opts.id); // exit 2 before a profile or a request
  await ctx.profile();
  const api = await ctx.api();
  const facts = await gatherTrace(ctx, api, asked);
  const steps = traceSteps(facts);
  await emit(ctx.io, output, steps, () => {
    const theme = createTheme(ctx.io.colorOut);
    const orders = facts.orders.map((o) => o.order_id).join(', ');
    ctx.io.out(`${theme.bold(`${facts.paymentId ? `Payment ${facts.paymentId}` : facts.asked}${orders ? ` · order ${orders}` : ''}`)}\n${traceLines(steps, ctx.io.stdoutIsTTY)}`);
    ctx.log(`traced with ${facts.requests} requests`);
  });
  for (const what of facts.unseen) ctx.log(`not shown on this gateway: ${what}`);
}

/**
 * `2026-11-02 09:00  capture       PR1234567890 captured 2499.00 INR`: the time (short form on a
 * terminal), the kind, then the ID and what happened, folded under itself at the terminal's width.
 */
export function traceLines(steps: Step[], local: boolean): string {
  const at = steps.map((s) => (s.at === null ? 'now' : (formatTime(s.at, local) ?? s.at)));
  const atWidth = Math.max(0, ...at.map((a) => visibleWidth(a)));
  const kindWidth = Math.max(0, ...steps.map((s) => s.kind.length));
  const indent = atWidth + kindWidth + 4;
  const width = getOutputWidth();
  return steps
    .map((s, i) => `${at[i]!.padEnd(atWidth)}  ${s.kind.padEnd(kindWidth)}  ${fold(`${s.id} ${s.summary}`.trim(), width === undefined ? undefined : width - indent, ' '.repeat(indent))}`)
    .join('\n')
    .concat(steps.length ? '\n' : '');
}
