// The sandbox-only operations of the gateway's API: mark-settled (spec 4.6) and simulate
// payment (spec 4.7). In production mode both answer as production does.
import { markSettledSchema, simulatePaymentSchema } from '../../api/schemas/settlements.js';
import { validate } from '../../api/schemas/common.js';
import { SandboxError } from '../errors.js';
import { markSettledError } from '../store/settlements.js';
import type { Handler } from './types.js';
import { parseBody } from './util.js';

type Category = 'payment_uids' | 'refund_uids' | 'chargeback_uids';

export const markSettled: Handler = (ctx) => {
  if (ctx.production) {
    throw markSettledError({ payment_uids: 'mark-settled is not available in production' });
  }
  const r = validate(markSettledSchema, ctx.body);
  if (!r.ok) {
    // spec part 7: validation failures are ERR_SERVICE_ERROR_000 too, grouped by category.
    const first: Partial<Record<Category, string>> = {};
    for (const p of r.problems) {
      const top = p.path.split('.')[0];
      const cat: Category = top === 'refund_uids' || top === 'chargeback_uids' ? top : 'payment_uids';
      first[cat] ??= `${p.path || 'body'}: ${p.message}`;
    }
    throw markSettledError(first);
  }
  return { message: 'payments marked as settled successfully', data: ctx.store.markSettled(ctx.caller.scope, r.data) };
};

export const simulatePayment: Handler = (ctx) => {
  if (ctx.production) {
    // vendor 8: 403, details.error the same text.
    throw new SandboxError(403, 'PAYMENT_GATEWAY_ERROR', 'This endpoint is not available in production', {
      error: 'This endpoint is not available in production',
    });
  }
  const r = validate(simulatePaymentSchema, ctx.body);
  if (!r.ok && r.problems.some((p) => p.path === 'payment_status' || p.path === '')) {
    throw new SandboxError(400, 'PAYMENT_GATEWAY_VALIDATION_ERROR', 'Invalid payment_status', {
      payment_status: 'must be one of SUCCESS, FAILED',
    });
  }
  const body = parseBody(simulatePaymentSchema, ctx.body);
  return {
    message: 'payment simulation triggered successfully',
    data: ctx.store.simulatePayment(ctx.caller.scope, ctx.params.subscription_id!, body),
  };
};
