// The sandbox's webhook addresses (docs/sandbox.md "Webhooks"), in the events toolset: without
// one, every event of a fresh sandbox is `no_address`. The registration answer carries the
// Encryption Key that signs the events; an agent never gets it (brief: the key never appears in
// any output an agent reads), so each result drops it and says how a person reads it.
import * as z from 'zod';
import { httpUrl } from '../../api/schemas/index.js';
import type { Context } from '../../context.js';
import { id } from '../inputs.js';
import { tool } from '../tool.js';

export const KEY_NOTE = 'the Encryption Key that signs the events is not given to agents: a person reads it with `pgw listen --print-key`';

/** The answer less any encryption_key, at any depth of a list of addresses or one address. */
async function withoutKey(_ctx: Context, data: unknown): Promise<{ data: unknown; notes?: string[] }> {
  const strip = (hook: unknown) => {
    if (hook === null || typeof hook !== 'object' || Array.isArray(hook)) return hook;
    const { encryption_key: _key, ...rest } = hook as Record<string, unknown>;
    return rest;
  };
  if (Array.isArray(data)) return { data: data.map(strip) };
  const had = data !== null && typeof data === 'object' && 'encryption_key' in data;
  return { data: strip(data), notes: had ? [KEY_NOTE] : undefined };
}

export const webhookTools = [
  tool({
    name: 'sandbox_webhook_add',
    title: 'Register a webhook address (sandbox)',
    toolset: 'events',
    description: "Have the sandbox POST the account's events to a URL, signed (docs/sandbox.md). The Encryption Key is not in the result: a person reads it with `pgw listen --print-key`.",
    command: 'pgw sandbox webhook add <url>',
    effect: 'write',
    needs: 'pgw',
    input: z.object({ url: httpUrl.describe('where the events go, e.g. http://127.0.0.1:3000/webhooks') }),
    result: withoutKey,
    async run(ctx, input, mode) {
      const { runWebhookAdd } = await import('../../commands/sandbox/webhook.js');
      await runWebhookAdd(ctx, { url: input.url, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_webhook_list',
    title: 'List webhook addresses (sandbox)',
    toolset: 'events',
    description: 'The addresses the sandbox posts events to, with their IDs (a running `pgw listen` is one).',
    command: 'pgw sandbox webhook list',
    effect: 'read',
    needs: 'pgw',
    input: z.object({}),
    result: withoutKey,
    async run(ctx) {
      const { runWebhookList } = await import('../../commands/sandbox/webhook.js');
      await runWebhookList(ctx);
    },
  }),
  tool({
    name: 'sandbox_webhook_remove',
    title: 'Remove a webhook address (sandbox)',
    toolset: 'events',
    description: 'Stop posting events to an address.',
    command: 'pgw sandbox webhook remove <id>',
    effect: 'write',
    needs: 'pgw',
    destructive: true,
    input: z.object({ webhook_id: id('webhook ID (WH…), from sandbox_webhook_list') }),
    result: withoutKey,
    async run(ctx, input, mode) {
      const { runWebhookRemove } = await import('../../commands/sandbox/webhook.js');
      await runWebhookRemove(ctx, { id: input.webhook_id, dryRun: mode.dryRun });
    },
  }),
];
