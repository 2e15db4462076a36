// pgw sandbox webhook add <url> · list · remove <id>: the addresses the sandbox POSTs its events
// to (docs/sandbox.md "Webhooks"). The add answer shows the Encryption Key that signs them.
import type { Context } from '../../context.js';
import { httpUrlOption, idArgument } from '../parse.js';
import { emit, renderDetail, renderTable } from '../../output/render.js';
import { formatTime } from '../../output/time.js';
import { sandboxCall } from './call.js';

export interface WebhookView {
  id: string;
  merchant_id?: string;
  url: string;
  /** Registered by a running `pgw listen`. */
  listener?: boolean;
  created_at?: string;
  /** The Encryption Key that signs what this address receives (vendor 1.2). */
  encryption_key?: string | null;
  /** A listener's: the address it forwards to, the events it shows (issue 45). */
  forward_to?: string;
  events?: string[];
  /** Answered when a forwarding listener registers: whose events reach its address without it. */
  forward_plan?: ForwardPlanView;
}

export interface ForwardPlanView {
  forwarded: string[];
  not_forwarded: { merchant_id: string; by: string; kind: 'address' | 'pgw listen'; registered_for: string }[];
}

export const WEBHOOKS_PATH = '/sandbox/webhooks/';

export async function runWebhookAdd(ctx: Context, opts: { url: string; dryRun?: boolean }): Promise<void> {
  const url = httpUrlOption('url', opts.url);
  const hook = await sandboxCall<WebhookView>(ctx, 'sandbox webhook add', { method: 'POST', path: WEBHOOKS_PATH, body: { url } }, opts.dryRun);
  if (!hook) return;
  await emit(ctx.io, ctx.output, hook, () => {
    ctx.io.out(detail(ctx, hook));
    // issue 42 item 4: make an event, then wait for its delivery (pgw events wait, for CI).
    ctx.log('an event for it, then its delivery (retried on the gateway schedule if the address fails):\nnext: pgw trigger PAYMENT_SUCCESSFUL');
  });
}

export async function runWebhookList(ctx: Context): Promise<void> {
  const hooks = (await sandboxCall<WebhookView[]>(ctx, 'sandbox webhook list', { method: 'GET', path: WEBHOOKS_PATH }))!;
  const local = ctx.io.stdoutIsTTY;
  await emit(ctx.io, ctx.output, hooks, () => {
    if (hooks.length === 0) {
      ctx.io.err('no webhook addresses registered (add one with pgw sandbox webhook add <url>, or run pgw listen)\n');
      return;
    }
    const rows = hooks.map((h) => [h.id, h.url, h.listener ? 'pgw listen' : 'address', h.merchant_id, formatTime(h.created_at, local)]);
    ctx.io.out(renderTable(['id', 'url', 'kind', 'merchant_id', 'created'], rows, ctx.io.colorOut));
  });
}

export async function runWebhookRemove(ctx: Context, opts: { id: string; dryRun?: boolean }): Promise<void> {
  const id = idArgument('id', opts.id);
  const hook = await sandboxCall<WebhookView>(ctx, 'sandbox webhook remove', { method: 'DELETE', path: `${WEBHOOKS_PATH}${id}/` }, opts.dryRun);
  if (!hook) return;
  await emit(ctx.io, ctx.output, hook, () => {
    ctx.io.out(detail(ctx, hook));
    ctx.io.err(`removed ${hook.id}: the sandbox no longer posts events to ${hook.url}\n`);
  });
}

function detail(ctx: Context, hook: WebhookView): string {
  return renderDetail([
    {
      rows: [
        ['id', hook.id],
        ['url', hook.url],
        ['kind', hook.listener ? 'pgw listen' : 'address'],
        ['created_at', formatTime(hook.created_at, ctx.io.stdoutIsTTY)],
        // Only the registration answer carries it (vendor 1.2: shown where it is set up).
        ...(hook.encryption_key ? ([['encryption_key', hook.encryption_key]] as [string, string][]) : []),
      ],
    },
  ]);
}
