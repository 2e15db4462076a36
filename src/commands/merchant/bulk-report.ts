// The end of a bulk run: the summary (data, on stdout), what went wrong and how to finish (stderr),
// the exit code; and --dry-run's list of the requests that would be sent.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import { ExitCode, InterruptedError, ReportedError, type ExitCodeValue } from '../../errors.js';
import { printJson, wantsJson } from '../../output/render.js';
import type { MerchantInput } from './input.js';
import { MERCHANTS_PATH } from './partner.js';
import { batchTable, type BatchResult } from './view.js';
import { afterCreated } from './next-step.js';

type Batch = Extract<MerchantInput, { kind: 'batch' }>;

export type Outcome = { list: BatchResult[]; firstFailure?: ExitCodeValue; stop?: unknown };

/**
 * The summary is data: the table (or, in JSON mode, the array of results) on stdout. What went
 * wrong and how to finish goes to stderr: lines in table mode, one error object in JSON mode.
 */
export async function report(ctx: Context, input: Batch, r: Outcome, unit: string, resultsPath?: string, accountFlags: string[] = [], production = false): Promise<void> {
  const output = ctx.output;
  const json = wantsJson(output);
  const counts: Record<string, number> = {};
  for (const x of r.list) counts[x.status] = (counts[x.status] ?? 0) + 1;
  if (json) await printJson(ctx.io, output, r.list);
  else {
    ctx.io.out(batchTable(r.list, unit, ctx.io.colorOut));
    const parts = Object.entries(counts).map(([s, n]) => `${n} ${s.replace('_', ' ')}`);
    ctx.log(`${input.name}: ${parts.join(', ')} (${r.list.length} ${unit}s)`);
  }
  const interrupted = r.stop instanceof InterruptedError;
  if (r.firstFailure === undefined && !interrupted) {
    const next = json ? undefined : afterCreated(r.list.filter((x) => x.status === 'created' && x.id).map((x) => x.id!), production, accountFlags);
    if (next) ctx.log(next);
    return;
  }
  const why = r.stop instanceof Error ? r.stop.message : String(r.stop);
  const stopped = r.stop === undefined ? undefined : `${interrupted ? 'interrupted' : `stopped: ${why}`}; the ${unit}s after it were not attempted`;
  const file = input.name === 'stdin' ? '-' : input.name;
  const hint = resultsPath
    ? `to finish, fix what failed and run: pgw ${[...accountFlags, ''].join(' ')}merchant create --file ${file} --resume ${resultsPath}`
    : 'with --results <file.jsonl> each outcome is recorded, and --resume <file.jsonl> finishes a run without duplicates';
  if (json) {
    const missing = r.list.length - (counts.created ?? 0) - (counts.already_created ?? 0);
    const message = `${missing} of ${r.list.length} ${unit}s not created${stopped ? ` (${stopped})` : ''}`;
    ctx.io.err(`${JSON.stringify({ error: { code: interrupted ? 'INTERRUPTED' : 'BATCH_INCOMPLETE', message, details: counts, status: null } })}\n`);
  } else {
    if (stopped) ctx.log(stopped);
    ctx.log(`hint: ${hint}`);
  }
  throw new ReportedError(interrupted ? ExitCode.interrupted : r.firstFailure!, 'some merchants were not created');
}

export async function printBatchDryRun(ctx: Context, api: ApiClient, toSend: { n: number; body?: unknown }[], unit: string): Promise<void> {
  const previews = toSend.map((p) => ({ line: p.n, request: api.preview({ method: 'POST', path: MERCHANTS_PATH, body: p.body }) }));
  if (wantsJson(ctx.output)) await printJson(ctx.io, ctx.output, previews);
  else {
    for (const { line, request } of previews) {
      const headers = Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`);
      ctx.io.out(`# ${unit} ${line}\n${[`${request.method} ${request.url}`, ...headers].join('\n')}\n\n${JSON.stringify(request.body, null, 2)}\n\n`);
    }
  }
  ctx.log(`dry run: nothing was sent (${previews.length} request${previews.length === 1 ? '' : 's'})`);
}

