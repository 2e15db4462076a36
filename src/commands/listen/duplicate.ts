// `pgw listen --forward-to <url>` where <url> is already a registered webhook address (issue 33
// item 10): the sandbox delivers every event there itself, so forwarding too would hand the app
// each event twice, silently. The listener then shows events and does not forward them: the app
// gets each once, from the sandbox, with its retries. Checked once, before the listener registers
// (so no event is forwarded before the decision); docs/cli.md "pgw listen".
import type { Context } from '../../context.js';
import { WEBHOOKS_PATH, type WebhookView } from '../sandbox/webhook.js';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

/**
 * The same receiver: same scheme, port, path and query, and the same host, where `localhost`,
 * 127.x.x.x and [::1] are one host (an app on this machine answers on all of them).
 */
export function sameAddress(a: string, b: string): boolean {
  let x: URL;
  let y: URL;
  try {
    x = new URL(a);
    y = new URL(b);
  } catch {
    return false;
  }
  const host = (u: URL) => (LOOPBACK.test(u.hostname) ? 'loopback' : u.hostname.toLowerCase());
  return x.protocol === y.protocol && x.port === y.port && x.pathname === y.pathname && x.search === y.search && host(x) === host(y);
}

/** The registered address (not a running listener's) that `forwardTo` is, if any. */
export async function registeredTwin(ctx: Context, forwardTo: string): Promise<WebhookView | undefined> {
  const api = await ctx.api();
  const hooks = await api.request<WebhookView[]>({ method: 'GET', path: WEBHOOKS_PATH });
  return hooks.find((h) => !h.listener && sameAddress(h.url, forwardTo));
}

/** The one line that says why nothing is forwarded, and what to do for the listener to forward. */
export function notForwardingLine(forwardTo: string, twin: WebhookView): string {
  return (
    `not forwarding to ${forwardTo}: it is registered (${twin.id}${twin.url === forwardTo ? '' : ` as ${twin.url}`}), so the sandbox delivers each event there itself; ` +
    `to forward through this listener instead: pgw sandbox webhook remove ${twin.id}`
  );
}
