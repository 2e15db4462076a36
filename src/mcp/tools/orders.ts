// The orders toolset: create, look up, status, update (spec 2.1, 4.1, 4.2; beyond 1; vendor 4.2).
import * as z from 'zod';
import { MOP_TYPES, crossRules, orderAmount, orderCreateV3Schema, orderUpdateSchema } from '../../api/schemas/index.js';
import { always } from '../../api/schemas/common.js';
import { amount, fieldsOf, id, ids } from '../inputs.js';
import { pagesNote } from '../pages-note.js';
import { tool } from '../tool.js';

/** How a buyer may pay an order an agent creates: anything but a card (below). */
const AGENT_MOPS = MOP_TYPES.filter((m) => m !== 'credit_card' && m !== 'debit_card') as ['upi', ...(typeof MOP_TYPES)[number][]];

/**
 * Create Order's body (spec 2.1) as the shared schema states it, with its required fields and its
 * conditional rules (crossRules, and product's hs_code), less what an agent must never carry:
 * card details (a card number in a model's context is a card number in its logs; card orders are
 * for the checkout page, or `pgw order create --card-file` by a person) and the earlier variant's
 * vpa / upi_app_name. currency and reference_id may be left out: `fix` fills them before the
 * preview, as the command line does for flags.
 */
const shape = orderCreateV3Schema.shape;
const orderBody = z
  .object({
    ...shape,
    amount: amount(orderAmount, 'rupees: "1500.00" or 1500'),
    currency: shape.currency.optional().describe('INR, the default'),
    reference_id: shape.reference_id.optional().describe('your reference; generated when absent'),
    mop_type: z.enum(AGENT_MOPS).optional(),
  })
  .omit({ card_details: true, vpa: true, upi_app_name: true })
  .superRefine(crossRules, always);
export const orderTools = [
  tool({
    name: 'order_create',
    title: 'Create an order',
    toolset: 'orders',
    description:
      'Create a payment order (POST /pg/orders/, spec 2.1); returns order_id and session_id (hosted checkout) or what the S2S flow returns. product.hs_code is required when type_of_goods is physical_goods; collection_mode s2s needs mop_type upi and upi_flow_type. No card orders: no card data passes through an agent.',
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
    async fix(_ctx, input) {
      const { generateReferenceId } = await import('../../commands/link/body.js');
      const notes: string[] = [];
      const fixed = { ...input };
      if (fixed.currency === undefined) fixed.currency = 'INR';
      if (fixed.reference_id === undefined) {
        fixed.reference_id = generateReferenceId();
        notes.push(`reference_id ${fixed.reference_id} (generated)`);
      }
      return { input: fixed, notes };
    },
    // The body as a --file: errors name its paths, and nothing is filled in behind the preview.
    stdin: (input) => input,
    result: (ctx, data) => pagesNote(ctx, data, 'checkout_url'),
    async run(ctx, input, mode) {
      const { runOrderCreate } = await import('../../commands/order/create.js');
      await runOrderCreate(ctx, { fields: {}, file: '-', printTemplate: false, open: false, dryRun: mode.dryRun }, { opener: async () => undefined });
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
    extra: true,
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
    description: "Set the buyer's PAN or date of birth, or the invoice number or date (PATCH /pg/orders/{order_id}/, spec 4.2): at least one of them; only what is given is sent.",
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
