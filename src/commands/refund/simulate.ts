// pgw refund simulate <refund_id> --status <STATUS>: POST /pg/refunds/{id}/simulate-status/
// (vendor 2.4), sandbox only (exit 6 on production, nothing sent). The status is taken in any case
// and sent uppercase, as the gateway requires; the body is checked before anything is sent.
import type { Context } from '../../context.js';
import { GatewayError, NotFoundError, PgwError, UsageError, ValidationError } from '../../errors.js';
import { REFUND_SIMULATE_STATUSES, checkRefundSimulate } from '../../api/schemas/refunds.js';
import { requireSandbox } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail, wantsJson } from '../../output/render.js';
import type { ApiClient } from '../../api/types.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { idArgument } from '../parse.js';
import { displayMoney } from '../../money.js';

export interface RefundSimulateOptions {
  refundId: string;
  status?: string;
  message?: string;
  bankRef?: string;
  dryRun?: boolean;
}

interface SimulatedRefund {
  refund_id?: string;
  payment_id?: string;
  refund_amount?: string | number;
  currency?: string;
  refund_status?: string;
  refunded_at?: string | null;
  message?: string | null;
}

export function parseRefundStatus(value: string | undefined): string {
  if (value === undefined) throw new UsageError(`--status is required: one of ${REFUND_SIMULATE_STATUSES.join(', ')}`);
  const status = value.trim().toUpperCase();
  if (!REFUND_SIMULATE_STATUSES.includes(status)) throw new UsageError(`--status: "${value}" is not one of ${REFUND_SIMULATE_STATUSES.join(', ')}`);
  return status;
}

export async function runRefundSimulate(ctx: Context, opts: RefundSimulateOptions): Promise<void> {
  void ctx.output;
  const refundId = idArgument('refund_id', opts.refundId);
  const body: Record<string, string> = { status: parseRefundStatus(opts.status) };
  if (opts.message !== undefined) body.status_message = opts.message;
  if (opts.bankRef !== undefined) body.bank_ref_num = opts.bankRef;
  const checked = checkRefundSimulate(body);
  if (!checked.ok) {
    const flag: Record<string, string> = { status_message: '--message', bank_ref_num: '--bank-ref' };
    throw new ValidationError(checked.problems.map((p) => ({ ...p, path: flag[p.path] ?? p.path })), 'invalid refund simulation, nothing was sent');
  }
  const profile = await ctx.profile();
  requireSandbox(profile, 'refund simulate');
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: `/pg/refunds/${refundId}/simulate-status/`, body };
  if (opts.dryRun) return printDryRun(ctx.io, ctx.output, api.preview(req));
  let result: SimulatedRefund;
  try {
    result = (await api.request<SimulatedRefund>(req)) ?? {};
  } catch (err) {
    throw withHint(err, refundId);
  }
  // vendor 2.4's answer names no currency; the table shows the amount as `refund get` does, with
  // the refund's currency read from its details (one GET, for the readable view only).
  const currency = result.currency ?? (wantsJson(ctx.output) ? undefined : await currencyOf(api, result.refund_id ?? refundId));
  await emit(ctx.io, ctx.output, result, () => {
    const theme = createTheme(ctx.io.colorOut);
    ctx.io.out(
      renderDetail([
        {
          title: theme.bold(`Refund ${result.refund_id ?? refundId}`),
          rows: [
            ['status', result.refund_status === undefined ? undefined : `${theme.status(result.refund_status)}${result.message ? `  ${result.message}` : ''}`],
            ['amount', displayMoney(result.refund_amount, currency)],
            ['payment', result.payment_id],
            ['refunded', formatTime(result.refunded_at ?? undefined, ctx.io.stdoutIsTTY)],
          ],
        },
      ]),
    );
  });
}

/** The refund's currency (beyond 2.2 carries none; pgw's sandbox and others do), or undefined. */
async function currencyOf(api: ApiClient, refundId: string): Promise<string | undefined> {
  const refund = await api.request<{ currency?: unknown }>({ method: 'GET', path: `/pg/refunds/${refundId}/` }).catch(() => undefined);
  return typeof refund?.currency === 'string' && refund.currency !== '' ? refund.currency : undefined;
}

/** vendor 2.4's refusals, each with the next step; the error's class (and exit code) is kept. */
function withHint(err: unknown, refundId: string): unknown {
  if (!(err instanceof PgwError) || err.suggestion) return err;
  const details = (err.details ?? {}) as Record<string, unknown>;
  let suggestion: string | undefined;
  if (err instanceof NotFoundError) suggestion = `no refund ${refundId} for this account: check the ID with pgw refund list`;
  else if (err.code === 'ERR_REFUND_002' && details.error) suggestion = 'this gateway answers as production: refund simulation exists only in the sandbox; use a sandbox profile (pgw profile list)';
  else if (err.code === 'ERR_REFUND_002' && details.refund_uid) suggestion = 'only refunds of payments on the Simulator gateway can be simulated';
  if (!suggestion) return err;
  const info = { code: err.code, details: err.details, status: err.status, suggestion };
  return err instanceof NotFoundError ? new NotFoundError(err.message, info) : new GatewayError(err.message, info);
}
