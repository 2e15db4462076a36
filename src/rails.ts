// The safety rails (contract, "Safety rails"), one implementation every verb calls:
// the PRODUCTION banner, sandbox-only refusals, and confirmation of production changes.
import type { Context } from './context.js';
import type { ResolvedProfile } from './config/types.js';
import { PUBLIC_BASE_URLS } from './config/types.js';
import { RefusedError } from './errors.js';
import { createTheme } from './output/theme.js';

const bannerShown = new WeakSet<Context>();
const PRODUCTION_HOST = new URL(PUBLIC_BASE_URLS.production).host;

/**
 * A production profile, or any profile pointed at the public production address (a sandbox profile
 * with `--base-url https://api-pacb.eximpe.com` must not slip past the rails).
 */
export function isProduction(profile: Pick<ResolvedProfile, 'env' | 'baseUrl'>): boolean {
  if (profile.env === 'production') return true;
  if (profile.baseUrl === undefined) return false;
  try {
    return new URL(profile.baseUrl).host === PRODUCTION_HOST;
  } catch {
    return false;
  }
}

/** A red PRODUCTION line on stderr, once per run, only on production. */
export function productionBanner(ctx: Context, profile: ResolvedProfile): void {
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
export async function confirmProduction(ctx: Context, profile: ResolvedProfile, action: string): Promise<void> {
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
