// The links toolset: payment links (beyond 3.1-3.4; vendor 6).
import * as z from 'zod';
import type { Context } from '../../context.js';
import { always, linkCreateSchema, orderAmount } from '../../api/schemas/index.js';
import { amount, id, ids, page, pageOptions } from '../inputs.js';
import { pagesNote } from '../pages-note.js';
import { tool } from '../tool.js';

const expiresIn = z.string().min(1).describe('time from now: 90s, 30m, 12h, 7d');
const expiresAt = z.string().min(1).describe('ISO 8601 time, e.g. 2027-01-31T09:00:00Z');

/** Create Payment Link's body (beyond 3.1) from the shared schema; the amount may be a number too. */
const linkBody = z
  .object({ ...linkCreateSchema.shape })
  .omit({ expiry_date: true })
  .extend({
    amount: amount(orderAmount, 'rupees: "1500.00" or 1500'),
    reference_id: linkCreateSchema.shape.reference_id.optional().describe('your reference; generated when absent'),
    expires_at: expiresAt.optional(),
    expires_in: expiresIn.optional(),
  })
  .superRefine(oneExpiry, always);

/** expires_at or expires_in, not both: the schema cannot say it, the call is refused by its path. */
function oneExpiry(v: { expires_at?: string; expires_in?: string }, ctx: z.RefinementCtx): void {
  if (v.expires_at !== undefined && v.expires_in !== undefined) ctx.addIssue({ code: 'custom', path: ['expires_in'], message: 'give expires_at or expires_in, not both' });
}

/**
 * The expiry as a time, fixed before the preview (issue 43 item 3): a duration counts from the
 * sandbox's clock on pgw's sandbox, as the command's does, and at most 365 days (vendor N9).
 */
async function fixedExpiry(ctx: Context, at: string | undefined, within: string | undefined, notes: string[]): Promise<string | undefined> {
  if (at === undefined && within === undefined) return undefined;
  const { expiryFrom } = await import('../../commands/link/body.js');
  const { parseIsoTime } = await import('../../api/schemas/index.js');
  if (within === undefined) return expiryFrom({ expiresAt: at }, ctx.clock(), parseIsoTime);
  const { boundedDurationOption } = await import('../../commands/parse.js');
  const { MAX_LINK_EXPIRY_SECONDS } = await import('../../api/schemas/limits.js');
  boundedDurationOption('--expires-in', within, MAX_LINK_EXPIRY_SECONDS);
  const { sandboxNow } = await import('../../commands/sandbox/clock.js');
  const expiry = expiryFrom({ expiresIn: within }, await sandboxNow(ctx), parseIsoTime)!;
  notes.push(`expiry ${expiry} (${within} from now)`);
  return expiry;
}

export const linkTools = [
  tool({
    name: 'link_create',
    title: 'Create a payment link',
    toolset: 'links',
    description: 'A payment link the buyer opens to pay (POST /pg/payment-links/); returns link_id and payment_link. Give expires_at or expires_in, not both (neither: the default lifetime).',
    command: 'pgw link create',
    effect: 'write',
    needs: 'any',
    input: linkBody,
    example: { amount: '2500.00', buyer: { name: 'Asha Verma', email: 'asha@example.com', phone: '+919876543210' }, product: { name: 'Workshop seat' }, expires_in: '7d' },
    async fix(ctx, { expires_at, expires_in, ...body }) {
      const { generateReferenceId } = await import('../../commands/link/body.js');
      const notes: string[] = [];
      const fixed: typeof body & { expiry_date?: string } = { ...body };
      const expiry = await fixedExpiry(ctx, expires_at, expires_in, notes);
      if (expiry !== undefined) fixed.expiry_date = expiry;
      if (fixed.reference_id === undefined) {
        fixed.reference_id = generateReferenceId();
        notes.push(`reference_id ${fixed.reference_id} (generated)`);
      }
      return { input: fixed as never, notes };
    },
    stdin: (body) => body,
    result: (ctx, data) => pagesNote(ctx, data, 'payment_link'),
    async run(ctx, _input, mode) {
      const { runLinkCreate } = await import('../../commands/link/create.js');
      await runLinkCreate(ctx, { fields: {}, file: '-', dryRun: mode.dryRun });
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
    extra: true,
    description: 'Move the expiry of an active link (POST …/extend_expiry/, beyond 3.4). Give expires_at or expires_in.',
    command: 'pgw link extend <link_id> --expires-at <t>|--expires-in <d>',
    effect: 'write',
    needs: 'any',
    destructive: true,
    idempotent: true,
    input: z
      .object({ link_id: id('link ID'), expires_at: expiresAt.optional(), expires_in: expiresIn.optional() })
      .superRefine(oneExpiry, always)
      .refine((v) => v.expires_at !== undefined || v.expires_in !== undefined, { path: ['expires_at'], message: 'give expires_at or expires_in', ...always }),
    async fix(ctx, input) {
      const notes: string[] = [];
      return { input: { link_id: input.link_id, expires_at: await fixedExpiry(ctx, input.expires_at, input.expires_in, notes) }, notes };
    },
    async run(ctx, input, mode) {
      const { runLinkExtend } = await import('../../commands/link/change.js');
      await runLinkExtend(ctx, { linkId: input.link_id, expiresAt: input.expires_at, dryRun: mode.dryRun });
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
