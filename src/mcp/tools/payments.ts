// The payments toolset: look-up and search (spec 2.7; vendor 3.1, 3.2).
import * as z from 'zod';
import { MOP_TYPES } from '../../api/schemas/index.js';
import { SETTLEMENT_STATES } from '../../settlement-states.js';
import { day, id, ids, page, pageOptions } from '../inputs.js';
import { tool } from '../tool.js';

export const paymentTools = [
  tool({
    name: 'payment_get',
    title: 'Look up payments',
    toolset: 'payments',
    description: 'One payment (status, amount, method, buyer, settlement, refunds and chargebacks), or several as a list (GET /pg/payments/{payment_id}/).',
    command: 'pgw payment get <payment_id…>',
    effect: 'read',
    needs: 'any',
    input: z.object({ payment_id: ids('payment IDs (PR…)') }),
    async run(ctx, input) {
      const { runPaymentGet } = await import('../../commands/payment/get.js');
      await runPaymentGet(ctx, { ids: input.payment_id });
    },
  }),
  tool({
    name: 'payment_trace',
    title: 'Trace a payment',
    toolset: 'payments',
    description:
      "What happened to a payment, in order: the order, each attempt and its outcome, refunds and every status they moved through, chargebacks, verification steps (the reviewer's words), the settlement (UTR, net), and on pgw's own sandbox every webhook delivery. Steps are {at, kind, id, summary, …}.",
    command: 'pgw payment trace <payment_id|order_id|reference>',
    effect: 'read',
    needs: 'any',
    input: z.object({ id: id("a payment (PR…), an order (OD…), or the merchant's reference for the order") }),
    async run(ctx, input) {
      const { runPaymentTrace } = await import('../../commands/payment/trace.js');
      await runPaymentTrace(ctx, { id: input.id });
    },
  }),
  tool({
    name: 'payment_list',
    title: 'Search payments',
    toolset: 'payments',
    description:
      "Payments, newest first (GET /pg/payments/, vendor 3.1). Filters combine; a reference_id ending in * matches every reference starting with what comes before it (every page is read).",
    command: 'pgw payment list',
    effect: 'read',
    needs: 'any',
    input: z.object({
      reference_id: z.string().min(1).optional().describe("the order's reference_id; 'INV-7781*' is a prefix search"),
      invoice_number: z.string().min(1).optional().describe("the order's invoice number"),
      order_id: z.string().min(1).optional().describe('payments of this order (OD…)'),
      buyer_name: z.string().min(1).optional().describe("part of the buyer's name, any case"),
      status: z.enum(['pending', 'captured', 'failed']).optional(),
      mop: z.enum(MOP_TYPES).optional().describe('method of payment'),
      from: day('created on or after this day').optional(),
      to: day('created on or before this day').optional(),
      currency: z.string().regex(/^[A-Z]{3}$/).optional(),
      settlement_status: z.array(z.enum(SETTLEMENT_STATES)).min(1).optional().describe("keep payments in these vendor 11.3 states (reads each payment's details: one request per payment; narrow with from/to)"),
      ...page,
    }),
    async run(ctx, input) {
      const { runPaymentList } = await import('../../commands/payment/list.js');
      await runPaymentList(ctx, {
        referenceId: input.reference_id,
        invoiceNumber: input.invoice_number,
        orderId: input.order_id,
        buyerName: input.buyer_name,
        status: input.status,
        mop: input.mop,
        from: input.from,
        to: input.to,
        currency: input.currency,
        settlementStatus: input.settlement_status?.join(','),
        ...pageOptions(input),
      });
    },
  }),
];
