// The safety rails (contract, "Safety rails"), one implementation every verb calls:
// the PRODUCTION banner, sandbox-only refusals, and confirmation of production changes.
import type { ResolvedProfile } from './config/types.js';
import { PUBLIC_BASE_URLS } from './config/types.js';
import { RefusedError } from './errors.js';
import { createTheme } from './output/theme.js';
import type { IO } from './output/io.js';
import type { Prompter } from './prompts.js';

/**
 * What the rails need of a run. The context provides it; it is declared here so that the rails,
 * which the context loads for the banner, never import the context back (no import circle).
 */
export interface RailsContext {
  readonly io: Pick<IO, 'err' | 'colorErr' | 'canPrompt'>;
  readonly yes: boolean;
  loadPrompter(): Promise<Prompter>;
}

const bannerShown = new WeakSet<RailsContext>();
const PRODUCTION_HOST = new URL(PUBLIC_BASE_URLS.production).hostname;

/**
 * A host name as DNS sees it: lower case, percent-encoding decoded, the ideographic and full-width
 * dots (U+3002, U+FF0E, U+FF61) read as dots, and the root's trailing dot dropped. The URL parser
 * does most of this; the rest (trailing dots, a host it could not parse) is done here.
 */
export function normaliseHost(host: string): string {
  let out = host;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(out); i++) {
    try {
      out = decodeURIComponent(out);
    } catch {
      break;
    }
  }
  return out.normalize('NFKC').replace(/[\u3002\uff0e\uff61]/g, '.').toLowerCase().replace(/\.+$/, '');
}

/** The host of a base address, normalised; undefined when the address has none. */
function hostOf(baseUrl: string): string | undefined {
  try {
    return normaliseHost(new URL(baseUrl).hostname);
  } catch {
    const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(baseUrl.trim());
    return m ? normaliseHost(m[1]!) : undefined;
  }
}

/**
 * A production profile, or any profile pointed at the public production address, however its host
 * is written (a sandbox profile with `--base-url https://API-PACB.eximpe.com.` must not slip past).
 */
export function isProduction(profile: Pick<ResolvedProfile, 'env' | 'baseUrl'>): boolean {
  if (profile.env === 'production') return true;
  if (profile.baseUrl === undefined) return false;
  return hostOf(profile.baseUrl) === PRODUCTION_HOST;
}

/**
 * pgw's own sandbox (the embedded one, or `pgw sandbox serve` at any address but a public
 * gateway's): where the /sandbox/ helpers, such as `pgw sandbox merchant kyc`, exist, so a hint
 * may name them, and test cards and `sandbox pay` work (order create's defaults and checkout).
 */
export function isOwnSandbox(profile: Pick<ResolvedProfile, 'env' | 'baseUrl'>): boolean {
  if (isProduction(profile)) return false;
  return profile.baseUrl === undefined || isPgwServer(profile.baseUrl);
}

/**
 * A base address that is not one of the vendor's public gateways: a `pgw sandbox serve` (which
 * serves its buyer pages at its base), whatever its profile says of production.
 */
export function isPgwServer(baseUrl: string): boolean {
  const publicHosts = Object.values(PUBLIC_BASE_URLS).map((u) => new URL(u).host);
  try {
    return !publicHosts.includes(new URL(baseUrl).host);
  } catch {
    return false;
  }
}

/**
 * Paths only a sandbox has (contract, "Safety rails"): mark-settled, simulate_payment, the VBA
 * simulate-transfer (vendor 11.7.6) and every
 * `/sandbox/...` helper. The path is read as the server will read it: percent-encoding decoded,
 * dot segments resolved, repeated slashes collapsed, any case.
 */
export function isSandboxOnlyPath(path: string): boolean {
  let p = path.split(/[?#]/)[0]!;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(p); i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      break;
    }
  }
  p = p.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  try {
    p = new URL(p, 'http://x').pathname;
  } catch {
    // keep it as it is: the checks below still see its words
  }
  p = p.toLowerCase();
  return /^\/sandbox(\/|$)/.test(p) || /mark[-_]?settled/.test(p) || /simulate[-_]?payment/.test(p) || /simulate[-_]?status/.test(p) || /simulate[-_]?transfer/.test(p);
}

/** A red PRODUCTION line on stderr, once per run, only on production. */
export function productionBanner(ctx: RailsContext, profile: ResolvedProfile): void {
  if (!isProduction(profile) || bannerShown.has(ctx)) return;
  bannerShown.add(ctx);
  const theme = createTheme(ctx.io.colorErr);
  const where = profile.baseUrl ? ` → ${profile.baseUrl}` : '';
  ctx.io.err(`${theme.chalk.bold.red('PRODUCTION')} ${theme.red(`profile "${profile.name}"${where}`)}\n`);
}

/** Sandbox-only operations refuse on production with exit 6, before any request is made. */
export function requireSandbox(profile: ResolvedProfile, command: string): void {
  if (!isProduction(profile)) return;
  throw new RefusedError(`${command} is sandbox only: refused on production profile "${profile.name}"`, {
    code: 'SANDBOX_ONLY',
    suggestion: 'choose a sandbox profile with --profile <name> (see pgw profile list)',
  });
}

/**
 * Production changes need a yes: --yes, or an answer at a prompt in a terminal. Off production this
 * does nothing. Refusals are exit 6 and happen before anything is sent.
 */
export async function confirmProduction(ctx: RailsContext, profile: ResolvedProfile, action: string): Promise<void> {
  if (!isProduction(profile) || ctx.yes) return;
  if (!ctx.io.canPrompt) {
    throw new RefusedError(`${action} needs --yes on a production profile ("${profile.name}")`, {
      code: 'CONFIRMATION_REQUIRED',
      suggestion: 'add --yes to confirm, or run it in a terminal to be asked',
    });
  }
  const prompter = await ctx.loadPrompter();
  const ok = await prompter.confirm({ message: `${action} on PRODUCTION (profile "${profile.name}")?`, default: false });
  if (!ok) throw new RefusedError(`${action}: not confirmed, nothing was sent`, { code: 'NOT_CONFIRMED' });
}
