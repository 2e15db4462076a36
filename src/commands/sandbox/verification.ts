// pgw sandbox verification <payment_id> <STATUS> [--message] [--verdict]: the gateway's review of a
// payment's verification, offline (POST /pg/payments/{id}/simulate-verification/, 11.10 P2).
// Sandbox only (exit 6 on production, nothing sent); the status and verdict are checked first.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { SIMULATED_STATES, VERDICTS } from '../../api/schemas/verification.js';
import { emit, renderDetail } from '../../output/render.js';
import { idArgument } from '../parse.js';
import { sandboxCall } from './call.js';
import { stateLabel } from '../../settlement-states.js';

export interface SandboxVerificationOptions {
  paymentId: string;
  status: string;
  message?: string;
  verdict?: string;
  dryRun?: boolean;
}

export async function runSandboxVerification(ctx: Context, opts: SandboxVerificationOptions): Promise<void> {
  const paymentId = idArgument('payment_id', opts.paymentId);
  const status = opts.status.trim().toUpperCase();
  if (!(SIMULATED_STATES as readonly string[]).includes(status)) throw new UsageError(`"${opts.status}" is not a status the review can set: use ${SIMULATED_STATES.join(', ')}`);
  const verdict = opts.verdict?.trim().toUpperCase();
  if (verdict !== undefined && !(VERDICTS as readonly string[]).includes(verdict)) throw new UsageError(`--verdict: "${opts.verdict}" is not ${VERDICTS.join(' or ')}`);
  const body = { status, ...(opts.message !== undefined ? { message: opts.message } : {}), ...(verdict ? { verdict } : {}) };
  const result = await sandboxCall<{ payment_id?: string; settlement_status?: string }>(
    ctx,
    'sandbox verification',
    { method: 'POST', path: `/pg/payments/${paymentId}/simulate-verification/`, body },
    opts.dryRun,
  );
  if (!result) return;
  await emit(ctx.io, ctx.output, result, () => {
    ctx.io.out(renderDetail([{ rows: [['payment_id', result.payment_id ?? paymentId], ['settlement', stateLabel(result.settlement_status)]] }]));
    // The next move after each outcome (issue 42 item 4).
    const next: Record<string, string> = {
      VERIFIED: `pgw settle mark ${paymentId}`,
      READY_FOR_SETTLEMENT: `pgw settle mark ${paymentId}`,
      ACTION_REQUIRED: `pgw payment verification ${paymentId}`,
      UNDER_REVIEW: `pgw sandbox verification ${paymentId} VERIFIED`,
      ON_HOLD: `pgw sandbox verification ${paymentId} UNDER_REVIEW`,
      EXPIRED: `pgw refund list --payment-id ${paymentId}`,
      REJECTED: `pgw refund list --payment-id ${paymentId}`,
    };
    if (status === 'ACTION_REQUIRED') ctx.log('what is owed, the message and the deadline, as the merchant sees them:');
    if (status === 'EXPIRED' || status === 'REJECTED') ctx.log('refunded in full, never settled:');
    if (next[status]) ctx.log(`next: ${next[status]}`);
  });
}
