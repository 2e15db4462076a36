// What `pgw listen` says on stderr when it starts (short lines: the block stays whole on an
// 80-column terminal), and --print-key, which prints the one thing pgw prints only when asked.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { EVENT_TYPES } from '../../events.js';
import type { WebhookView } from '../sandbox/webhook.js';
import { forwardingLines } from './forwarding.js';
import type { listenMode } from './mode.js';
import type { Receiver } from './receiver.js';

export function announce(ctx: Context, a: { mode: ReturnType<typeof listenMode>; receiver: Receiver; forwardTo?: string; filter?: Set<string>; hook?: WebhookView; profileName: string }): void {
  const events = a.filter ? [...a.filter].join(', ') : a.mode.kind === 'sandbox' ? `every event (${EVENT_TYPES.join(', ')})` : 'every event';
  const lines: string[] = [];
  if (a.mode.kind === 'sandbox') {
    lines.push(`Listening for ${a.filter ? events : 'every event'} of merchant ${a.hook?.merchant_id ?? '?'} (profile "${a.profileName}")`);
    if (!a.filter) lines.push(`  events        ${EVENT_TYPES.join(', ')}`);
    lines.push(`  receiver      ${a.receiver.url}`);
    lines.push(`  registration  ${a.hook?.id}`);
  } else {
    lines.push(`Receiving ${events} on http://127.0.0.1:${a.receiver.port}/ — nothing registered: ${a.mode.why}.`);
    lines.push('  The gateway must reach it from the internet: run a public tunnel to it, e.g.');
    lines.push(`    cloudflared tunnel --url http://127.0.0.1:${a.receiver.port}    or    ngrok http ${a.receiver.port}`);
    lines.push("  and configure the tunnel's https address as the webhook URL in the merchant dashboard.");
  }
  if (a.forwardTo) lines.push(...forwardingLines(a.forwardTo, a.hook?.forward_plan));
  else lines.push('  not forwarding (add --forward-to <url> to pass events to your app)');
  lines.push('Press Ctrl-C to stop.');
  ctx.io.err(`${lines.join('\n')}\n`);
}

/**
 * --print-key: the Encryption Key alone on stdout, for `pgw listen --print-key >> .env` style use
 * (stripe listen --print-secret). It is the one place pgw prints the key, because it was asked to.
 */
export async function printKey(ctx: Context, sandbox: boolean, profileKey: string | undefined, profileName: string): Promise<void> {
  let key = profileKey;
  if (key === undefined && sandbox) {
    const api = await ctx.api();
    key = (await api.request<{ encryption_key: string | null }>({ method: 'GET', path: '/sandbox/encryption-key/' })).encryption_key ?? undefined;
  }
  if (key === undefined) {
    throw new UsageError(`profile "${profileName}" holds no webhook Encryption Key`, {
      suggestion: `copy it from the dashboard's Developer section, then: pgw profile add ${profileName} --force ... --encryption-key-stdin`,
    });
  }
  ctx.io.outOwn(`${key}\n`);
}
