// pgw settle report --from <day> --to <day>: the month-end report (issue 41 item 1), composed of
// documented reads in src/answers/month-end/ (gather.ts says which, and what a window costs).
// The same answer is `pgw mcp`'s settle_report tool.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { dayRange } from '../dates.js';
import { emit, wantsJson } from '../../output/emit.js';

export interface SettleReportOptions {
  from?: string;
  to?: string;
}

export async function runSettleReport(ctx: Context, opts: SettleReportOptions): Promise<void> {
  const output = ctx.output;
  const { from, to } = dayRange(opts.from, opts.to);
  if (!from || !to) throw new UsageError(`${!from ? '--from' : '--to'} is required: the report covers the days from --from to --to (e.g. --from 2026-11-01 --to 2026-11-30)`);
  await ctx.profile();
  const api = await ctx.api();
  const [{ gatherMonth }, { buildReport }] = await Promise.all([import('../../answers/month-end/gather.js'), import('../../answers/month-end/report.js')]);
  const report = buildReport(await gatherMonth(ctx, api, { from, to }));
  const view = wantsJson(output) ? undefined : await import('../../answers/month-end/render.js');
  const local = ctx.io.stdoutIsTTY;
  await emit(
    ctx.io,
    output,
    report,
    () => {
      if (report.rows.length === 0) ctx.log(`no payments, refunds or chargebacks from ${from} to ${to}`);
      else ctx.io.out(view!.rowsTable(report, ctx.io.colorOut, local));
      ctx.io.out(`\n${view!.summaryText(report, ctx.io.colorOut, local)}`);
      ctx.log(`read with ${report.requests} requests`);
    },
    (csv) => {
      // The rows are the document; the reconciliation is for the person running it.
      ctx.io.err(view!.summaryText(report, ctx.io.colorErr, ctx.io.stderrIsTTY));
      return view!.reportCsv(report, csv);
    },
  );
}
