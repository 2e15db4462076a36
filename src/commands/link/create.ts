// pgw link create: POST /pg/payment-links/ (gateway-api-beyond.md 3.1). The body is --file plus
// flags, checked with the schema the sandbox uses before anything is sent; production asks first.
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { linkCreateSchema, parseIsoTime, validate } from '../../api/schemas/index.js';
import { MAX_LINK_EXPIRY_SECONDS } from '../../api/schemas/limits.js';
import { confirmProduction } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, printJson, renderDetail } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { readJsonObject } from '../order/read-json.js';
import { LINK_FIELD_FLAGS, buildLinkBody, expiryFrom, generateReferenceId, linkTemplate } from './body.js';
import { unknownKeyProblems } from '../order/keys.js';
import { boundedDurationOption } from '../parse.js';
import type { PaymentLink } from './get.js';

export interface LinkCreateOptions {
  fields: Record<string, string>;
  file?: string;
  expiresAt?: string;
  expiresIn?: string;
  printTemplate?: boolean;
  dryRun?: boolean;
  qr?: boolean;
}

/** commander's flags → typed options; no I/O. */
export function buildLinkCreateOptions(flags: Record<string, unknown>): LinkCreateOptions {
  const text = (key: string) => (typeof flags[key] === 'string' ? (flags[key] as string) : undefined);
  const fields: Record<string, string> = {};
  for (const f of LINK_FIELD_FLAGS) if (typeof flags[f.key] === 'string') fields[f.path] = flags[f.key] as string;
  return {
    fields,
    file: text('file'),
    expiresAt: text('expiresAt'),
    expiresIn: text('expiresIn'),
    printTemplate: flags.printTemplate === true,
    dryRun: flags.dryRun === true,
    qr: flags.qr === true,
  };
}

export async function runLinkCreate(ctx: Context, opts: LinkCreateOptions): Promise<void> {
  const output = ctx.output;
  if (opts.printTemplate) {
    // The expiry a week ahead on the sandbox's clock, on pgw's own sandbox.
    const { sandboxNow } = await import('../sandbox/clock.js');
    return printJson(ctx.io, { format: 'json', query: output.query }, linkTemplate(await sandboxNow(ctx)));
  }

  const file = opts.file === undefined ? undefined : await readJsonObject('--file', opts.file, ctx.io.stdin);
  const body = buildLinkBody(file, opts.fields);
  const expiry = expiryFrom(opts, ctx.clock(), parseIsoTime);
  if (expiry !== undefined) body.expiry_date = expiry;
  // vendor N9: a link expires at most 365 days ahead. A duration is checked here, whatever clock
  // it counts from; an --expires-at or a file's expiry_date is the gateway's to judge on its clock.
  if (opts.expiresIn !== undefined) boundedDurationOption('--expires-in', opts.expiresIn, MAX_LINK_EXPIRY_SECONDS);
  let generated = false;
  if (body.reference_id === undefined) {
    body.reference_id = generateReferenceId();
    generated = true;
  }
  const checked = validate(linkCreateSchema, body);
  // A key the link does not have (a typo, another command's body) is refused with the rest (issue 21 item 11).
  const unknown = file === undefined ? [] : unknownKeyProblems(file, linkCreateSchema, 'create payment link');
  if (unknown.length > 0 || !checked.ok) throw new ValidationError([...unknown, ...(checked.ok ? [] : checked.problems)], 'invalid payment link, nothing was sent');
  // The checked value: one without an offset is read as UTC there (vendor N9).
  const expiryDate = checked.data.expiry_date;
  if (typeof expiryDate === 'string' && parseIsoTime(expiryDate)! <= ctx.clock().getTime()) {
    throw new UsageError(`expiry_date ${String(body.expiry_date)} is in the past`);
  }

  const profile = await ctx.profile();
  const api = await ctx.api();
  // --expires-in counts from the sandbox's clock on pgw's sandbox (checked above against the machine's).
  if (opts.expiresIn !== undefined && !opts.dryRun) {
    const { sandboxNow } = await import('../sandbox/clock.js');
    body.expiry_date = expiryFrom(opts, await sandboxNow(ctx), parseIsoTime);
  }
  // The body as given (not zod's output): nothing is added that the caller did not send.
  const req = { method: 'POST' as const, path: '/pg/payment-links/', body };
  if (generated) ctx.io.err(`reference_id ${String(body.reference_id)} (generated)\n`);
  if (opts.dryRun) return printDryRun(ctx.io, output, api.preview(req));
  await confirmProduction(ctx, profile, `create a payment link for ${String(body.amount)}`);

  const link = await api.request<PaymentLink & { amount?: string | number; order_id?: string }>(req);
  await emit(ctx.io, output, link, () => {
    const theme = createTheme(ctx.io.colorOut);
    const local = ctx.io.stdoutIsTTY;
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['link_id', link.link_id ?? link.payment_id],
            ['payment_link', link.payment_link],
            ['status', link.status === undefined ? undefined : theme.status(link.status)],
            ['amount', link.amount === undefined ? undefined : `${link.amount} ${link.currency ?? ''}`.trim()],
            ['reference_id', link.reference_id ?? String(body.reference_id)],
            ['order_id', link.order_id],
            ['expires', formatTime(link.expiry_date, local)],
          ].filter(([, v]) => v !== undefined) as [string, string][],
        },
      ]),
    );
  });
  if (profile.baseUrl === undefined) {
    const { pagesHint, embeddedPages } = await import('../pages-hint.js');
    await pagesHint(ctx, await embeddedPages(ctx), 'buyer pages of the local sandbox');
  }
  if (opts.qr && output.format === 'table' && ctx.io.stdoutIsTTY && link.payment_link) {
    const { qrTerminal } = await import('../../output/qr.js');
    ctx.io.out(`\n${await qrTerminal(link.payment_link, ctx.io.colorOut)}`);
  }
  // issue 42 item 4: once the buyer has paid (or tried), the link says so.
  const linkId = link.link_id ?? link.payment_id;
  if (output.format === 'table' && linkId) ctx.log(`next: pgw link get ${linkId}`);
}
