// The orders toolset: create, look up, status, update (spec 2.1, 4.1, 4.2; beyond 1; vendor 4.2).
import * as z from 'zod';
import { orderAmount, orderCreateV3Schema, orderUpdateSchema } from '../../api/schemas/index.js';
import { amount, fieldsOf, id, ids } from '../inputs.js';
import { tool } from '../tool.js';

/**
 * Create Order's body (spec 2.1) as the shared schema states it, less what an agent must never
 * carry: card details (a card number in a model's context is a card number in its logs; card
 * orders are for the checkout page, or `pgw order create --card-file` by a person) and the
 * earlier variant's vpa / upi_app_name. Every field is optional here: currency and reference_id
 * are filled as for flags, and the command's own check names whatever else is missing.
 */
const orderBody = z
  .object({ ...orderCreateV3Schema.shape, amount: amount(orderAmount, 'amount in rupees: "1500.00", "1500" or 1500') })
  .omit({ card_details: true, vpa: true, upi_app_name: true })
  .partial();

export const orderTools = [
  tool({
    name: 'order_create',
    title: 'Create an order',
    toolset: 'orders',
    description:
      'Create a payment order (POST /pg/orders/, spec 2.1). currency defaults to INR and reference_id is generated when absent. Returns order_id and session_id (hosted checkout) or what the chosen S2S flow returns. Card orders are not taken here: no card data passes through an agent.',
    command: 'pgw order create',
    effect: 'write',
    needs: 'any',
    input: orderBody,
    example: {
      amount: '1500.00',
      return_url: 'https://example.com/return',
      buyer: { name: 'Asha Verma', email: 'asha@example.com', phone: '+919876543210', address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' } },
      product: { name: 'Design consultation', type_of_goods: 'service' },
      invoice: { number: 'INV-2026-0042', date: '2026-11-27' },
    },
    async run(ctx, input, mode) {
      const { runOrderCreate } = await import('../../commands/order/create.js');
      await runOrderCreate(ctx, { fields: fieldsOf(input), printTemplate: false, open: false, dryRun: mode.dryRun }, { opener: async () => undefined });
    },
  }),
  tool({
    name: 'order_get',
    title: 'Look up orders',
    toolset: 'orders',
    description: 'An order with its buyer, product, invoice and payments, newest first (GET /pg/orders/{order_id}/). Several IDs: a list.',
    command: 'pgw order get <order_id…>',
    effect: 'read',
    needs: 'any',
    input: z.object({ order_id: ids('order IDs (OD…)') }),
    async run(ctx, input) {
      const { runOrderGet } = await import('../../commands/order/get.js');
      await runOrderGet(ctx, { ids: input.order_id });
    },
  }),
  tool({
    name: 'order_status',
    title: 'Order status',
    toolset: 'orders',
    description: "An order's status (GET /pg/orders/{order_id}/status/, vendor 4.2).",
    command: 'pgw order status <order_id…>',
    effect: 'read',
    needs: 'any',
    input: z.object({ order_id: ids('order IDs (OD…)') }),
    async run(ctx, input) {
      const { runOrderStatus } = await import('../../commands/order/status.js');
      await runOrderStatus(ctx, { ids: input.order_id });
    },
  }),
  tool({
    name: 'order_update',
    title: 'Update an order',
    toolset: 'orders',
    description: "Set the buyer's PAN or date of birth, or the invoice number or date (PATCH /pg/orders/{order_id}/, spec 4.2); only what is given is sent.",
    command: 'pgw order update <order_id>',
    effect: 'write',
    needs: 'any',
    destructive: true,
    idempotent: true,
    input: z.object({ order_id: id('order ID (OD…)'), ...z.object({ ...orderUpdateSchema.shape }).shape }),
    async run(ctx, input, mode) {
      const { runOrderUpdate } = await import('../../commands/order/update.js');
      const { order_id, ...body } = input;
      await runOrderUpdate(ctx, { orderId: order_id, fields: fieldsOf(body), dryRun: mode.dryRun });
    },
  }),
];
