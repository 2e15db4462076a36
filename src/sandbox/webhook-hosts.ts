// Which hosts `sandbox serve` may post webhooks to (issue 21 item 8). Bound to loopback only this
// machine reaches it, so any address an account registers is the developer's own choice. Bound
// beyond loopback, anyone who can reach it can register an address, and the server would then
// make requests for them to any host its network reaches (request forgery): there only loopback
// targets and the hosts named with --allow-webhook-host are posted to.

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return LOOPBACK_NAMES.has(h) || /^127(\.\d{1,3}){3}$/.test(h) || h.endsWith('.localhost');
}

/** The host a server binds: loopback, or beyond (0.0.0.0, ::, a LAN address, a name). */
export function bindsBeyondLoopback(bindHost: string): boolean {
  return !isLoopbackHost(bindHost);
}

/** Normalise a --allow-webhook-host value: a host name or address, no scheme, port or path. */
export function normaliseWebhookHost(value: string): string | undefined {
  const v = value.trim().toLowerCase().replace(/\.$/, '');
  if (v === '' || /[/\s@]/.test(v)) return undefined;
  try {
    const host = new URL(`http://${v.includes(':') && !v.startsWith('[') ? `[${v}]` : v}/`).hostname;
    return host.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

/** undefined: every target is fine; else the refusal of a target, naming the flag. */
export function webhookHostPolicy(bindHost: string, allowed: readonly string[]): ((url: string) => string | undefined) | undefined {
  if (!bindsBeyondLoopback(bindHost)) return undefined;
  const hosts = new Set(allowed.map((h) => normaliseWebhookHost(h) ?? h.toLowerCase()));
  return (url: string) => {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
    } catch {
      return `${url} is not a URL`;
    }
    if (isLoopbackHost(host) || hosts.has(host)) return undefined;
    return `refused: this sandbox listens beyond loopback (--host ${bindHost}) and posts webhooks only to loopback or to hosts allowed with --allow-webhook-host ${host}`;
  };
}
