// Where `pgw listen` gets its events from. pgw's own sandbox (the embedded `local`/`local-psp`, or
// `pgw sandbox serve` on this machine) takes a registration and POSTs to 127.0.0.1; any other
// gateway is configured in its merchant dashboard (not part of its API, spec part 6), so there
// the listener only receives, behind a tunnel the developer runs.
import type { ResolvedProfile } from '../../config/types.js';
import { PUBLIC_BASE_URLS } from '../../config/types.js';
import { isProduction } from '../../rails.js';

export type ListenMode =
  | { kind: 'sandbox' }
  /** `why` says, for the person, why nothing is registered. */
  | { kind: 'receiver'; why: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function listenMode(profile: Pick<ResolvedProfile, 'env' | 'baseUrl' | 'name'>): ListenMode {
  if (profile.baseUrl === undefined) return { kind: 'sandbox' };
  if (isProduction(profile)) return { kind: 'receiver', why: `profile "${profile.name}" is production` };
  let host: string;
  try {
    host = new URL(profile.baseUrl).hostname.toLowerCase();
  } catch {
    return { kind: 'receiver', why: `the base address ${profile.baseUrl} is not a URL` };
  }
  if (host === new URL(PUBLIC_BASE_URLS.sandbox).hostname) return { kind: 'receiver', why: "the gateway's sandbox takes webhook addresses from its merchant dashboard" };
  // A sandbox on another machine would POST to its own 127.0.0.1, never reaching this listener.
  if (!LOOPBACK.has(host) && !host.startsWith('127.')) return { kind: 'receiver', why: `${host} is not this machine, so it cannot reach a listener on 127.0.0.1` };
  return { kind: 'sandbox' };
}
