// The refunds toolset: create, look up, list (beyond 2.1-2.3; vendor 2.1-2.3).
import * as z from 'zod';
import { positiveAmount, refundCreateSchema } from '../../api/schemas/index.js';
import { amount, day, id, ids } from '../inputs.js';
import { tool } from '../tool.js';

export const refundTools = [
  tool({
    name: 'refund_create',
    title: 'Refund a payment',
    toolset: 'refunds',
    description:
      "Refund a captured payment (POST /pg/refunds/); without amount, what is still refundable. Money leaves the merchant, irreversibly. A refund identical to one made on the payment in the last 10 minutes is refused (the gateway has no idempotency key: a retry would refund twice) unless again is true.",
    command: 'pgw refund create <payment_id>',
    effect: 'write',
    needs: 'any',
    destructive: true,
    input: z.object({
      payment_id: id('the captured payment (PR…)'),
      amount: amount(positiveAmount, 'amount to refund in rupees (default: all that is refundable)').optional(),
      callback_url: refundCreateSchema.shape.callback_url,
      again: z.boolean().optional().describe('a second identical refund within 10 minutes is meant'),
    }),
    async run(ctx, input, mode) {
      const { runRefundCreate } = await import('../../commands/refund/create.js');
      await runRefundCreate(ctx, { paymentId: input.payment_id, amount: input.amount, callbackUrl: input.callback_url, again: input.again, dryRun: mode.dryRun, previewGuard: true });
    },
  }),
  tool({
    name: 'refund_get',
    title: 'Look up refunds',
    toolset: 'refunds',
    description: 'A refund with its status, amount, payment, bank reference and settlement (GET /pg/refunds/{refund_id}/). Several IDs: a list.',
    command: 'pgw refund get <refund_id…>',
    effect: 'read',
    needs: 'any',
    input: z.object({ refund_id: ids('refund IDs (RF…)') }),
    async run(ctx, input) {
      const { runRefundGet } = await import('../../commands/refund/get.js');
      await runRefundGet(ctx, { ids: input.refund_id });
    },
  }),
  tool({
    name: 'refund_list',
    title: 'List refunds',
    toolset: 'refunds',
    description: 'Refunds, newest first (GET /pg/refunds/, vendor 2.3), by payment, order reference or day.',
    command: 'pgw refund list',
    effect: 'read',
    needs: 'any',
    input: z.object({
      payment_id: z.string().min(1).optional().describe('refunds of this payment (PR…)'),
      reference_id: z.string().min(1).optional().describe("the order's reference_id"),
      from: day('created on or after this day').optional(),
      to: day('created on or before this day').optional(),
      all: z.boolean().optional().describe('follow every page'),
    }),
    async run(ctx, input) {
      const { runRefundList } = await import('../../commands/refund/list.js');
      await runRefundList(ctx, { paymentId: input.payment_id, referenceId: input.reference_id, from: input.from, to: input.to, all: input.all });
    },
  }),
];
