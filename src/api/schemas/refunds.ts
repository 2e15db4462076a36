// Create Refund (beyond 2.1): the body the vendor's client sends. Shared by `pgw refund create`
// and the sandbox, so both refuse the same bodies.
import * as z from 'zod';
import { httpUrl, positiveAmount } from './common.js';

export const refundCreateSchema = z.object({
  payment_id: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
  /** Rupees, a decimal string; omitted: the whole amount still refundable (docs/sandbox.md). */
  refund_amount: positiveAmount.optional(),
  callback_url: httpUrl.optional(),
});
export type RefundCreate = z.output<typeof refundCreateSchema>;
