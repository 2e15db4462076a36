// pgw sandbox link create|deactivate: the link operations the spec lists but does not show (4.11).
import type { Context } from '../../context.js';
import { boundedDurationOption, idArgument } from '../parse.js';
import { MAX_LINK_EXPIRY_SECONDS } from '../../api/schemas/limits.js';
import { emit, renderDetail } from '../../output/render.js';
import { formatTime } from '../../output/time.js';
import { createTheme } from '../../output/theme.js';
import { sandboxCall } from './call.js';

interface LinkView {
  link_id: string;
  payment_link?: string;
  status?: string;
  expiry_date?: string;
  reference_id?: string;
}

export async function runLinkCreate(ctx: Context, opts: { order: string; expiresIn?: string; dryRun?: boolean }): Promise<void> {
  const orderId = idArgument('--order', opts.order);
  const body: Record<string, unknown> = { order_id: orderId };
  if (opts.expiresIn !== undefined) body.expires_in_seconds = boundedDurationOption('--expires-in', opts.expiresIn, MAX_LINK_EXPIRY_SECONDS);
  const link = await sandboxCall<LinkView>(ctx, 'sandbox link create', { method: 'POST', path: '/sandbox/payment-links/', body }, opts.dryRun);
  if (link) await printLink(ctx, link);
}

export async function runLinkDeactivate(ctx: Context, opts: { linkId: string; dryRun?: boolean }): Promise<void> {
  const linkId = idArgument('link_id', opts.linkId);
  const link = await sandboxCall<LinkView>(
    ctx,
    'sandbox link deactivate',
    { method: 'POST', path: `/sandbox/payment-links/${linkId}/deactivate/` },
    opts.dryRun,
  );
  if (link) await printLink(ctx, link);
}

async function printLink(ctx: Context, link: LinkView): Promise<void> {
  const theme = createTheme(ctx.io.colorOut);
  await emit(ctx.io, ctx.output, link, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['link_id', link.link_id],
            ['payment_link', link.payment_link],
            ['status', theme.status(link.status)],
            ['expires', formatTime(link.expiry_date, ctx.io.stdoutIsTTY)],
            ['reference_id', link.reference_id],
          ],
        },
      ]),
    );
  });
}
