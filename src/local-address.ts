// Addresses on this machine, as `pgw listen` and the sandbox compare them (issue 45). The WHATWG
// URL parser already folds the IPv4 spellings (127.1, 2130706433, 0x7f.0.0.1) into 127.0.0.1 and
// [0:0:0:0:0:0:0:1] into [::1]; what is left to fold is which hosts are this machine. Ground floor:
// imported by the listener (commands/listen) and by the sandbox's forwarding rule alike.

/** localhost (any case, a trailing dot, *.localhost), 127/8, ::1, the IPv4-mapped 127/8, and 0.0.0.0 / :: (they reach this machine too). */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '0.0.0.0') return true;
  if (h === '[::1]' || h === '::1' || h === '[::]' || h === '::') return true;
  // [::ffff:127.0.0.1] as the parser writes it: [::ffff:7f00:1]
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h);
}

/** The port a connection to `u` uses: its own, else its scheme's. */
export function effectivePort(u: URL): number {
  if (u.port !== '') return Number(u.port);
  return u.protocol === 'https:' ? 443 : 80;
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * One receiver, one key: scheme, host, port, path and query, where every loopback spelling is one
 * host (an app on this machine answers on all of them). Not a URL: an unparsable address is its own key.
 */
export function addressKey(url: string): string {
  const u = parse(url);
  if (!u) return `?${url}`;
  const host = isLoopbackHostname(u.hostname) ? 'loopback' : u.hostname.toLowerCase();
  return `${u.protocol}//${host}:${effectivePort(u)}${u.pathname}${u.search}`;
}

/** The same receiver (addressKey). */
export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}

/** Whether `url` reaches a server on this machine's `port` (any path, any loopback spelling). */
export function isOnLocalPort(url: string, port: number): boolean {
  const u = parse(url);
  return u !== undefined && isLoopbackHostname(u.hostname) && effectivePort(u) === port;
}
