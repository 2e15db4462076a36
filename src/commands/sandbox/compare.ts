// pgw sandbox compare --against <profile> (issue 46): one documented scenario against a test
// gateway and against pgw's own sandbox (in this process, on a temporary database), and every
// difference a client written from the docs could trip on. The work is src/compare/ (shared with
// the MCP tool sandbox_compare); this file checks the flags, applies the rails and prints.
import type { Context } from '../../context.js';
import { ReportedError, RefusedError, UsageError } from '../../errors.js';
import { isProduction } from '../../rails.js';
import { emit, renderTable } from '../../output/render.js';
import { redactHeaders } from '../../safety/redact.js';
import type { CompareReport } from '../../compare/run.js';
import { cleanId } from '../ids.js';

export interface CompareOptions {
  /** The profile whose gateway is compared (required on the command line). */
  against?: string;
  only?: string[];
  steps?: boolean;
  payment?: string;
  subscription?: string;
  psp?: boolean;
  readOnly?: boolean;
  record?: string;
  dryRun?: boolean;
  /**
   * The MCP tool: the run's own profile is compared, and the report is the result whether or not
   * something differs (the command line exits 1 then).
   */
  asTool?: boolean;
}

const PAYMENT_ID = /^PR\d{4,}$/;

export async function runSandboxCompare(ctx: Context, opts: CompareOptions): Promise<void> {
  const { selectSteps } = await import('../../compare/select.js');
  const only = opts.only?.flatMap((o) => o.split(',')).map((o) => o.trim()).filter(Boolean);
  const steps = selectSteps(only, opts.readOnly === true); // an unknown step: exit 2
  if (steps.length === 0) throw new UsageError('--only: none of these steps is read-only (--read-only keeps the steps that send nothing but GET)');
  if (opts.steps) {
    const { STEP_HEAD, stepRows } = await import('../../compare/report.js');
    await emit(ctx.io, ctx.output, steps.map((s) => ({ step: s.name, title: s.title, group: s.group, request: s.shown, needs: s.needs ?? [], documented_in: s.doc })), () =>
      ctx.io.out(renderTable(STEP_HEAD, stepRows(steps), ctx.io.colorOut, { columns: [{ keep: true }, { cut: 'wrap' }, { cut: 'wrap' }, { cut: 'wrap' }] })),
    );
    return;
  }
  if (opts.against === undefined && !opts.asTool) throw new UsageError('--against <profile> names the test gateway to compare with (pgw profile list)');
  const payment = opts.payment === undefined ? undefined : paymentId(opts.payment);
  const subscription = opts.subscription === undefined ? undefined : subscriptionId(opts.subscription);
  if (opts.record !== undefined) (await import('../../compare/record.js')).checkRecordDir(opts.record);

  // The profile compared is --against's, resolved as -p would be (flags and environment still win).
  if (opts.against !== undefined) ctx.setGlobals({ ...ctx.globals, profile: opts.against });
  const profile = await ctx.profile();
  if (isProduction(profile)) {
    throw new RefusedError(`sandbox compare sends test orders, links and bad requests: refused on production profile "${profile.name}"`, {
      code: 'SANDBOX_ONLY',
      suggestion: 'compare with a test (UAT) profile: pgw sandbox compare --against <profile>',
    });
  }
  const psp = opts.psp === true || profile.account === 'psp' || profile.merchantId !== undefined;
  const target = await ctx.target();
  const gatewaySide = {
    name: 'gateway' as const,
    baseUrl: target.baseUrl,
    dispatcher: await ctx.dispatcher({ embedded: target.embedded }),
    clientId: target.clientId,
    clientSecret: target.clientSecret,
    apiVersion: target.apiVersion,
    merchantId: target.merchantId,
    timeoutMs: target.timeoutMs,
    userAgent: `pgw/${ctx.version}`,
    log: ctx.requestLog && ((line: string) => ctx.requestLog!(`gateway ${line}`)),
  };

  if (opts.dryRun) {
    const { headersFor } = await import('../../compare/exchange.js');
    const placeholders = { reference: 'PGWCMP<generated>', payment_id: payment, subscription_id: subscription, order_id: '<order_id>', link_id: '<link_id>', refund_id: '<refund_id>' };
    const requests = steps.map((s) => {
      const req = s.request(placeholders);
      return { step: s.name, method: req.method, url: `${target.baseUrl.replace(/\/+$/, '')}${decodeURIComponent(req.path)}`, headers: redactHeaders(headersFor(gatewaySide, req), target.clientSecret), ...(req.body === undefined ? {} : { body: req.body }) };
    });
    await emit(ctx.io, ctx.output, requests, () => {
      ctx.io.out(requests.map((r) => `${r.step}: ${r.method} ${r.url}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}\n`).join(''));
      ctx.io.err(`dry run: nothing was sent (headers: --json; steps without what they need are skipped when run)\n`);
    });
    return;
  }

  const { runComparison } = await import('../../compare/run.js');
  const comparison = await runComparison(
    { profile: profile.name, side: gatewaySide },
    { only, readOnly: opts.readOnly, payment, subscription, psp },
    { now: ctx.clock(), userAgent: `pgw/${ctx.version}`, log: ctx.requestLog, signal: ctx.signal, addSecret: (s) => ctx.guard.addSecret(s) },
  );
  const { report } = comparison;
  if (opts.record !== undefined) {
    const { recordedExchange, writeRecording } = await import('../../compare/record.js');
    const written = writeRecording(
      opts.record,
      {
        'gateway.json': { profile: report.profile, base_url: report.base_url, api_version: report.api_version, exchanges: comparison.exchanges.gateway.map((e) => recordedExchange(e, target.clientSecret)) },
        'sandbox.json': { pgw: ctx.version, api_version: report.api_version, exchanges: comparison.exchanges.sandbox.map((e) => recordedExchange(e, undefined)) },
        'report.json': report,
      },
      (value) => ctx.guard.data(value),
    );
    ctx.io.err(`recorded ${written.join(', ')}\n`);
  }
  await printReport(ctx, report, opts.against ?? profile.name);
  if (!report.same && !opts.asTool) throw new ReportedError(1, 'the sandbox and the gateway differ');
}

async function printReport(ctx: Context, report: CompareReport, against: string): Promise<void> {
  const { REPORT_HEAD, reportNotes, reportRows } = await import('../../compare/report.js');
  await emit(ctx.io, ctx.output, report, () => {
    ctx.io.out(renderTable(REPORT_HEAD, reportRows(report), ctx.io.colorOut, { columns: [{ keep: true, priority: 4 }, { cut: 'wrap', priority: 3 }, { cut: 'wrap', priority: 2 }, { cut: 'wrap', priority: 2 }] }));
  });
  for (const line of reportNotes(report, against)) ctx.log(line);
}

function paymentId(value: string): string {
  const id = cleanId(value);
  if (!PAYMENT_ID.test(id)) throw new UsageError(`--payment: "${value}" is not a payment ID (PR and digits): name a captured payment of the gateway, not yet settled`);
  return id;
}

function subscriptionId(value: string): string {
  const id = value.trim();
  if (id === '' || !/^[A-Za-z0-9_.:-]{1,100}$/.test(id)) throw new UsageError(`--subscription: "${value}" is not a subscription ID (letters, digits, - _ . :)`);
  return id;
}
