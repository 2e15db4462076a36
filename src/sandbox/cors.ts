// CORS for browser clients (docs/sandbox.md "Meeting real clients"): the vendor's web app calls the
// API from the page. Loopback origins are allowed on any port, others only when named with
// --cors-origin; never `*`, so a page the developer happens to visit cannot drive the sandbox.
// A disallowed origin gets no Access-Control-* header at all: the browser then refuses to hand
// the answer to the page.
import type { SandboxRequest, SandboxResponse } from './exchange.js';

const LOOPBACK_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?$/;

/** The gateway's headers (spec part 5) and the ones the vendor's client adds (beyond 0). */
export const ALLOWED_HEADERS = [
  'X-Client-ID',
  'X-Client-Secret',
  'X-API-Version',
  'X-Merchant-ID',
  'Content-Type',
  'Accept',
  'Accept-Language',
  'Cache-Control',
].join(', ');
export const ALLOWED_METHODS = 'GET, POST, PATCH, OPTIONS';
/** The response headers a page may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'Allow, Retry-After';

/**
 * A --cors-origin value as the browser sends it in Origin (`scheme://host[:port]`, no path), or
 * undefined when it is not one. `*` is never an origin here.
 */
export function normaliseOrigin(value: string): string | undefined {
  const text = value.trim().replace(/\/$/, '');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin.toLowerCase() === text.toLowerCase() ? url.origin : undefined;
}

export function isAllowedOrigin(origin: string, extra: readonly string[]): boolean {
  return LOOPBACK_ORIGIN.test(origin) || extra.includes(origin);
}

/**
 * Adds the CORS headers an allowed origin needs and answers its preflight. Returns true when the
 * request was a preflight and has been answered (allowed: 204; not allowed: 403, no CORS headers).
 */
export function handleCors(req: SandboxRequest, res: SandboxResponse, extraOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  const preflight = req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined;
  if (origin === undefined) return false;
  const allowed = isAllowedOrigin(origin, extraOrigins);
  if (allowed) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  }
  if (!preflight) return false;
  if (!allowed) {
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', vary: 'Origin' });
    res.end(`origin ${origin} is not allowed: loopback origins are, others with pgw sandbox serve --cors-origin <origin>\n`);
    return true;
  }
  const headers: Record<string, string> = {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
    'Content-Length': '0',
  };
  // Chrome's Private Network Access preflight: loopback pages calling loopback may ask.
  if (req.headers['access-control-request-private-network'] === 'true') headers['Access-Control-Allow-Private-Network'] = 'true';
  res.writeHead(204, headers);
  res.end();
  return true;
}
