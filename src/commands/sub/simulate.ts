// pgw sub simulate <subscription_id>: POST /pg/subscriptions/{id}/simulate_payment/ (spec 4.7),
// sandbox only. The status is checked before anything is sent; the gateway's three errors of
// part 7 get a hint each.
import type { Context } from '../../context.js';
import { AuthError, GatewayError, NotFoundError, PgwError, UsageError, ValidationError } from '../../errors.js';
import { PAYMENT_STATUSES, simulatePaymentSchema, validate } from '../../api/schemas/index.js';
import { requireSandbox } from '../../rails.js';
import { idArgument } from '../parse.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';

export interface SubSimulateOptions {
  subscriptionId: string;
  status: string;
  paymentId?: string;
  dryRun?: boolean;
}

interface SimulateResult {
  payment_id?: string;
  payment_status?: string;
}

/** spec part 7: what each simulate-payment error means for the person at the terminal. */
const HINTS: Record<string, string> = {
  PAYMENT_GATEWAY_VALIDATION_ERROR: 'the gateway accepts --status SUCCESS or --status FAILED only',
  PAYMENT_GATEWAY_ERROR:
    'this gateway answers as production: simulate payment exists only in the sandbox; use a sandbox profile (pgw profile list)',
  PAYMENT_GATEWAY_API_ERROR: "the gateway's upstream failed to simulate the payment (details above say why); check --payment-id or try again",
};

/** `success` is taken as SUCCESS: a flag value, not a body field; the body always carries the spec's form. */
export function parseStatus(value: string): (typeof PAYMENT_STATUSES)[number] {
  const status = value.trim().toUpperCase();
  const match = PAYMENT_STATUSES.find((s) => s === status);
  if (!match) throw new UsageError(`--status: "${value}" is not one of ${PAYMENT_STATUSES.join(', ')}`);
  return match;
}

export async function runSubSimulate(ctx: Context, opts: SubSimulateOptions): Promise<void> {
  const subscriptionId = idArgument('subscription_id', opts.subscriptionId);
  const body: Record<string, string> = { payment_status: parseStatus(opts.status) };
  if (opts.paymentId !== undefined) body.payment_id = idArgument('--payment-id', opts.paymentId);
  const checked = validate(simulatePaymentSchema, body);
  if (!checked.ok) throw new ValidationError(checked.problems, 'invalid simulate-payment request');

  const profile = await ctx.profile();
  requireSandbox(profile, 'sub simulate');
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: `/pg/subscriptions/${subscriptionId}/simulate_payment/`, body: checked.data };
  if (opts.dryRun) {
    await printDryRun(ctx.io, ctx.output, api.preview(req));
    return;
  }
  let result: SimulateResult;
  try {
    result = await api.request<SimulateResult>(req);
  } catch (err) {
    throw withHint(err);
  }
  const theme = createTheme(ctx.io.colorOut);
  await emit(ctx.io, ctx.output, result, () => {
    ctx.io.out(renderDetail([{ rows: [['subscription', subscriptionId], ['payment_id', result.payment_id], ['payment_status', theme.status(result.payment_status)]] }]));
    if (result.payment_id) ctx.io.err(`next: pgw payment get ${result.payment_id}\n`);
  });
}

/** The same error, with the hint for its code; its class (and so its exit code) is kept. */
function withHint(err: unknown): unknown {
  if (!(err instanceof PgwError) || err.code === undefined || HINTS[err.code] === undefined) return err;
  const info = { code: err.code, details: err.details, status: err.status, suggestion: HINTS[err.code] };
  if (err instanceof NotFoundError) return new NotFoundError(err.message, info);
  if (err instanceof AuthError) return new AuthError(err.message, info);
  return new GatewayError(err.message, info);
}
