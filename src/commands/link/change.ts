// pgw link deactivate <link_id> and pgw link extend <link_id>: POST .../deactivate/ and
// .../extend_expiry/ (gateway-api-beyond.md 3.3, 3.4). Deactivation is irreversible: a terminal
// asks first (any profile), otherwise --yes. Both ask on production like every change.
import type { Context } from '../../context.js';
import { RefusedError, ValidationError } from '../../errors.js';
import { linkExtendSchema, parseIsoTime, validate } from '../../api/schemas/index.js';
import { confirmProduction, isProduction } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { idArgument } from '../parse.js';
import { expiryFrom } from './body.js';
import type { PaymentLink } from './get.js';

export interface LinkDeactivateOptions {
  linkId: string;
  dryRun?: boolean;
}

export interface LinkExtendOptions {
  linkId: string;
  expiresAt?: string;
  expiresIn?: string;
  dryRun?: boolean;
}

/** beyond 3.3/3.4: success is checked and the top-level message read; data is shown when it is a link. */
async function show(ctx: Context, message: string | undefined, data: unknown, linkId: string): Promise<void> {
  await emit(ctx.io, ctx.output, data ?? null, () => {
    const link = (data !== null && typeof data === 'object' ? data : {}) as PaymentLink;
    const theme = createTheme(ctx.io.colorOut);
    const rows: [string, string | undefined][] = [
      ['link_id', link.link_id ?? linkId],
      ['status', link.status === undefined ? undefined : `${theme.status(link.status)}${link.status_message ? `  ${link.status_message}` : ''}`],
      ['expires', formatTime(link.expiry_date, ctx.io.stdoutIsTTY)],
    ];
    ctx.io.out(renderDetail([{ rows: rows.filter(([, v]) => v !== undefined) }]));
    if (message) ctx.io.err(`${message}\n`);
  });
}

/** Irreversible everywhere: asked in a terminal, --yes otherwise. Production adds its own question. */
async function confirmIrreversible(ctx: Context, linkId: string): Promise<void> {
  if (ctx.yes) return;
  if (!ctx.io.canPrompt) {
    throw new RefusedError(`link deactivate ${linkId} is irreversible: add --yes to confirm`, {
      code: 'CONFIRMATION_REQUIRED',
      suggestion: 'add --yes, or run it in a terminal to be asked',
    });
  }
  const prompter = await ctx.loadPrompter();
  const ok = await prompter.confirm({ message: `Deactivate payment link ${linkId}? It cannot be undone`, default: false });
  if (!ok) throw new RefusedError(`link deactivate ${linkId}: not confirmed, nothing was sent`, { code: 'NOT_CONFIRMED' });
}

export async function runLinkDeactivate(ctx: Context, opts: LinkDeactivateOptions): Promise<void> {
  const linkId = idArgument('link_id', opts.linkId);
  void ctx.output;
  const profile = await ctx.profile();
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: `/pg/payment-links/${linkId}/deactivate/` };
  if (opts.dryRun) return printDryRun(ctx.io, ctx.output, api.preview(req));
  // On production the production question is the one asked (it names PRODUCTION); elsewhere this one.
  if (isProduction(profile)) await confirmProduction(ctx, profile, `deactivate payment link ${linkId} (irreversible)`);
  else await confirmIrreversible(ctx, linkId);
  const res = await api.send(req);
  await show(ctx, res.envelope.message, res.data, linkId);
}

export async function runLinkExtend(ctx: Context, opts: LinkExtendOptions): Promise<void> {
  const linkId = idArgument('link_id', opts.linkId);
  void ctx.output;
  if (opts.expiresAt === undefined && opts.expiresIn === undefined) {
    throw new ValidationError([{ path: '--expires-at', message: 'give the new expiry with --expires-at <ISO time> or --expires-in <duration>' }], 'nothing to extend to');
  }
  const expiry_date = expiryFrom(opts, ctx.clock(), parseIsoTime)!;
  const checked = validate(linkExtendSchema, { expiry_date });
  if (!checked.ok) throw new ValidationError(checked.problems, 'invalid expiry, nothing was sent');
  const profile = await ctx.profile();
  const api = await ctx.api();
  // --expires-in counts from the sandbox's clock on pgw's sandbox (checked above against the machine's).
  if (opts.expiresIn !== undefined && !opts.dryRun) {
    const { sandboxNow } = await import('../sandbox/clock.js');
    checked.data.expiry_date = expiryFrom(opts, await sandboxNow(ctx), parseIsoTime)!;
  }
  const req = { method: 'POST' as const, path: `/pg/payment-links/${linkId}/extend_expiry/`, body: checked.data };
  if (opts.dryRun) return printDryRun(ctx.io, ctx.output, api.preview(req));
  await confirmProduction(ctx, profile, `extend payment link ${linkId} to ${expiry_date}`);
  const res = await api.send(req);
  await show(ctx, res.envelope.message, res.data, linkId);
}
