// pgw refund create <payment_id>: POST /pg/refunds/ (gateway-api-beyond.md 2.1) with payment_id,
// refund_amount when --amount is given (2 decimals), callback_url. The body is checked with the
// schema the sandbox uses before anything is sent; production asks first or needs --yes.
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { refundCreateSchema, validate } from '../../api/schemas/index.js';
import { confirmProduction, requireSandbox } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit } from '../../output/render.js';
import { idArgument } from '../parse.js';
import { amountOption } from '../amount-option.js';
import { refundDetail, type Refund } from './view.js';

export interface RefundCreateOptions {
  paymentId: string;
  amount?: string;
  callbackUrl?: string;
  reason?: string;
  dryRun?: boolean;
  /** Send it even when an identical refund was made in the last 10 minutes (repeat.ts). */
  again?: boolean;
  /**
   * The dry run is a preview someone will approve (pgw mcp's two-step call): the repeat guard
   * reads the refund list for it too. A command-line --dry-run sends nothing at all.
   */
  previewGuard?: boolean;
  /** `pgw sandbox refund`, the alias: refused on production like every sandbox helper. */
  sandboxAlias?: boolean;
}

export async function runRefundCreate(ctx: Context, opts: RefundCreateOptions): Promise<void> {
  void ctx.output; // a bad -o is refused before anything is sent
  // beyond 2.1 / vendor 2.1: the body is payment_id, refund_amount, callback_url; no reason field.
  if (opts.reason !== undefined) {
    throw new UsageError('--reason: the gateway has no refund reason field (a refund takes payment_id, --amount and --callback-url only); nothing was sent', { code: 'NO_REFUND_REASON' });
  }
  const body: Record<string, string> = { payment_id: idArgument('payment_id', opts.paymentId) };
  if (opts.amount !== undefined) body.refund_amount = amountOption('--amount', opts.amount);
  if (opts.callbackUrl !== undefined) body.callback_url = opts.callbackUrl;
  const checked = validate(refundCreateSchema, body);
  if (!checked.ok) {
    const flag: Record<string, string> = { refund_amount: '--amount', callback_url: '--callback-url' };
    throw new ValidationError(checked.problems.map((p) => ({ ...p, path: flag[p.path] ?? p.path })), 'invalid refund, nothing was sent');
  }
  const profile = await ctx.profile();
  if (opts.sandboxAlias) requireSandbox(profile, 'sandbox refund');
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: '/pg/refunds/', body: checked.data };
  const guard = async () => {
    if (!opts.again) await (await import('./repeat.js')).refuseRepeat(ctx, api, checked.data.payment_id, checked.data.refund_amount);
  };
  if (opts.dryRun) {
    if (opts.previewGuard) await guard();
    return printDryRun(ctx.io, ctx.output, api.preview(req));
  }
  const what = checked.data.refund_amount ? `${checked.data.refund_amount}` : 'the gateway\'s default amount';
  await confirmProduction(ctx, profile, `refund ${what} of payment ${checked.data.payment_id}`);
  await guard();

  const refund = await api.request<Refund>(req);
  await emit(ctx.io, ctx.output, refund, () => {
    ctx.io.out(refundDetail(refund ?? {}, ctx.io.colorOut, ctx.io.stdoutIsTTY));
    if (refund?.refund_id) ctx.io.err(`next: pgw refund get ${refund.refund_id}\n`);
  });
}
