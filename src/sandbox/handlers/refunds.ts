// The sandbox's refund status setter (vendor 2.4): sandbox only, 400 in production.
import { checkRefundSimulate } from '../../api/schemas/refunds.js';
import { refundValidation } from '../store/refunds.js';
import type { Handler } from './types.js';

export const simulateRefundStatus: Handler = (ctx) => {
  // vendor 2.4 rule 5: production answers 400 ERR_REFUND_002 with details.error.
  if (ctx.production) throw refundValidation({ error: 'Refund status simulation is not available in production' });
  const r = checkRefundSimulate(ctx.body);
  if (!r.ok) throw refundValidation(Object.fromEntries(r.problems.map((p) => [p.path, p.message])));
  return {
    message: 'Refund status updated successfully',
    data: ctx.store.simulateRefundStatus(ctx.caller.scope, ctx.params.refund_id!, r.data),
  };
};
