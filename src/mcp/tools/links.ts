// The links toolset: payment links (beyond 3.1-3.4; vendor 6).
import * as z from 'zod';
import { linkCreateSchema, orderAmount } from '../../api/schemas/index.js';
import { amount, id, ids, page, pageOptions } from '../inputs.js';
import { tool } from '../tool.js';

const expiresIn = z.string().min(1).describe('time from now: 90s, 30m, 12h, 7d');
const expiresAt = z.string().min(1).describe('ISO 8601 time, e.g. 2027-01-31T09:00:00Z');

/** Create Payment Link's body (beyond 3.1) from the shared schema; the amount may be a number too. */
const linkBody = z
  .object({ ...linkCreateSchema.shape })
  .omit({ expiry_date: true })
  .extend({
    amount: amount(orderAmount, 'amount in rupees: "1500.00", "1500" or 1500'),
    reference_id: linkCreateSchema.shape.reference_id.optional().describe('your reference (generated when absent)'),
    expires_at: expiresAt.optional(),
    expires_in: expiresIn.optional(),
  });

export const linkTools = [
  tool({
    name: 'link_create',
    title: 'Create a payment link',
    toolset: 'links',
    description: 'A payment link the buyer opens to pay (POST /pg/payment-links/). Returns link_id and payment_link.',
    command: 'pgw link create',
    effect: 'write',
    needs: 'any',
    input: linkBody,
    example: { amount: '2500.00', buyer: { name: 'Asha Verma', email: 'asha@example.com', phone: '+919876543210' }, product: { name: 'Workshop seat' }, expires_in: '7d' },
    stdin: ({ expires_at: _at, expires_in: _in, ...body }) => body,
    async run(ctx, input, mode) {
      const { runLinkCreate } = await import('../../commands/link/create.js');
      await runLinkCreate(ctx, { fields: {}, file: '-', expiresAt: input.expires_at, expiresIn: input.expires_in, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'link_get',
    title: 'Look up payment links',
    toolset: 'links',
    description: 'A payment link: status, amounts, buyer, its payments newest first (GET /pg/payment-links/{link_id}/). Several IDs: a list.',
    command: 'pgw link get <link_id…>',
    effect: 'read',
    needs: 'any',
    input: z.object({ link_id: ids('link IDs') }),
    async run(ctx, input) {
      const { runLinkGet } = await import('../../commands/link/get.js');
      await runLinkGet(ctx, { ids: input.link_id });
    },
  }),
  tool({
    name: 'link_list',
    title: 'List payment links',
    toolset: 'links',
    description: 'Payment links, newest first (GET /pg/payment-links/).',
    command: 'pgw link list',
    effect: 'read',
    needs: 'any',
    input: z.object({ ...page }),
    async run(ctx, input) {
      const { runLinkList } = await import('../../commands/link/list.js');
      await runLinkList(ctx, pageOptions(input));
    },
  }),
  tool({
    name: 'link_extend',
    title: "Extend a payment link's expiry",
    toolset: 'links',
    description: 'Move the expiry of an active link (POST …/extend_expiry/, beyond 3.4). Give expires_at or expires_in.',
    command: 'pgw link extend <link_id> --expires-at <t>|--expires-in <d>',
    effect: 'write',
    needs: 'any',
    destructive: true,
    idempotent: true,
    input: z.object({ link_id: id('link ID'), expires_at: expiresAt.optional(), expires_in: expiresIn.optional() }),
    async run(ctx, input, mode) {
      const { runLinkExtend } = await import('../../commands/link/change.js');
      await runLinkExtend(ctx, { linkId: input.link_id, expiresAt: input.expires_at, expiresIn: input.expires_in, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'link_deactivate',
    title: 'Deactivate a payment link',
    toolset: 'links',
    description: 'Deactivate a link so it can no longer be paid (POST …/deactivate/, beyond 3.3). Irreversible.',
    command: 'pgw link deactivate <link_id>',
    effect: 'write',
    needs: 'any',
    destructive: true,
    idempotent: true,
    input: z.object({ link_id: id('link ID') }),
    async run(ctx, input, mode) {
      const { runLinkDeactivate } = await import('../../commands/link/change.js');
      await runLinkDeactivate(ctx, { linkId: input.link_id, dryRun: mode.dryRun });
    },
  }),
];
