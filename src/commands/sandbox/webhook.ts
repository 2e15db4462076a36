// pgw sandbox webhook add <url>: where the sandbox POSTs PAYMENT_SETTLED and payment events.
import type { Context } from '../../context.js';
import { httpUrlOption } from '../parse.js';
import { emit, renderDetail } from '../../output/render.js';
import { formatTime } from '../../output/time.js';
import { sandboxCall } from './call.js';

interface WebhookView {
  id: string | number;
  url: string;
  created_at?: string;
}

export async function runWebhookAdd(ctx: Context, opts: { url: string; dryRun?: boolean }): Promise<void> {
  const url = httpUrlOption('url', opts.url);
  const hook = await sandboxCall<WebhookView>(ctx, 'sandbox webhook add', { method: 'POST', path: '/sandbox/webhooks/', body: { url } }, opts.dryRun);
  if (!hook) return;
  await emit(ctx.io, ctx.output, hook, () => {
    ctx.io.out(renderDetail([{ rows: [['id', String(hook.id)], ['url', hook.url], ['created', formatTime(hook.created_at, ctx.io.stdoutIsTTY)]] }]));
  });
}
