// pgw sandbox env [--ready-file F] [--account NAME | --psp] [--shell sh|fish|github] (issue 32
// item 4): the PGW_* lines that point pgw (and a test suite) at a running pgw sandbox as one of
// its accounts, to eval or to append to $GITHUB_ENV, so CI needs no jq plumbing. The one command
// whose output is a secret (contract): only a pgw sandbox's own credentials, read from what the
// sandbox itself wrote (its ready file) or from the embedded profile's database, never a
// profile's or the environment's. Anything else is refused (exit 6), nothing printed.
import type { Context } from '../../context.js';
import { RefusedError, UsageError } from '../../errors.js';
import { isProduction, requireSandbox } from '../../rails.js';
import type { ResolvedProfile } from '../../config/types.js';
import { envLines, shellOption } from './env-lines.js';
import { DEFAULT_SERVE_URL } from './wait.js';
import type { ReadyAccount } from './serve-ready.js';

export interface EnvOptions {
  readyFile?: string;
  account?: string;
  psp?: boolean;
  shell?: string;
}

const SANDBOX_SECRET = /^sbx_cs_/;
const SANDBOX_KEY = /^sbx_ek_/;

export async function runSandboxEnv(ctx: Context, opts: EnvOptions): Promise<void> {
  // Flags first: exit 2 before anything is read.
  const shell = shellOption(opts.shell);
  if (opts.account !== undefined && opts.psp) throw new UsageError('--account and --psp: give one of them');
  if (opts.account !== undefined && opts.account.trim() === '') throw new UsageError('--account: give an account name (merchant, psp, or the name serve prints)');
  // Shell lines are the output; JSON would print the same secrets without the guard's say (the ready file is the JSON form).
  if (ctx.globals.json || ctx.globals.output !== undefined || ctx.globals.query !== undefined) {
    throw new UsageError('sandbox env prints shell lines: choose them with --shell sh|fish|github (the ready file of sandbox serve is the JSON form)');
  }
  const profile = await ctx.profile();
  requireSandbox(profile, 'sandbox env');
  const { baseUrl, accounts, from } = opts.readyFile !== undefined ? await fromReadyFile(opts.readyFile) : await fromEmbedded(ctx, profile);
  if (isProduction({ env: 'sandbox', baseUrl })) throw notSandbox(`${from} names the production gateway`);
  const account = pick(accounts, opts, opts.readyFile === undefined ? profile.account : undefined, from);
  if (!SANDBOX_SECRET.test(account.client_secret) || !SANDBOX_KEY.test(account.encryption_key)) {
    throw notSandbox(`the credentials in ${from} are not a pgw sandbox's`);
  }
  const text = envLines(shell, [
    ['PGW_BASE_URL', baseUrl],
    ['PGW_CLIENT_ID', account.client_id],
    ['PGW_CLIENT_SECRET', account.client_secret],
    ['PGW_ENCRYPTION_KEY', account.encryption_key],
  ]);
  let released;
  try {
    released = ctx.guard.releaseSandboxCredentials(text, [account.client_secret, account.encryption_key]);
  } catch {
    throw notSandbox(`the credentials in ${from} are not a pgw sandbox's`);
  }
  ctx.io.outReleased(released);
}

function notSandbox(why: string): RefusedError {
  return new RefusedError(`sandbox env prints the credentials of a pgw sandbox only: ${why}`, {
    code: 'SANDBOX_ONLY',
    suggestion: 'name the ready file of pgw sandbox serve with --ready-file <path>, or use the embedded profile (local, local-psp)',
  });
}

async function fromReadyFile(path: string): Promise<{ baseUrl: string; accounts: ReadyAccount[]; from: string }> {
  if (path.trim() === '') throw new UsageError('--ready-file: give a file path');
  const { readServeReady } = await import('./serve-ready.js');
  const ready = readServeReady(path);
  if (!ready) throw new UsageError(`--ready-file: ${path} does not exist (is pgw sandbox serve --ready-file ${path} running? pgw sandbox wait --ready-file ${path} waits for it)`);
  return { baseUrl: ready.base_url, accounts: ready.accounts, from: path };
}

/**
 * The embedded profile's own database: the one `pgw sandbox serve` opens when given no --db, so
 * these are its credentials, at the address a serve running on it listens on (its record,
 * src/sandbox/serve-record.ts), else serve's default address (or the profile's base URL, when one
 * on this machine is given). A profile of another gateway has no database here: refused.
 */
async function fromEmbedded(ctx: Context, profile: ResolvedProfile): Promise<{ baseUrl: string; accounts: ReadyAccount[]; from: string }> {
  if (profile.env !== 'embedded') throw notSandbox(`profile "${profile.name}" is not the embedded sandbox`);
  if (profile.baseUrl !== undefined && !onThisMachine(profile.baseUrl)) throw notSandbox(`${profile.baseUrl} is not a sandbox on this machine`);
  const sandbox = await ctx.embeddedSandbox();
  // The serve running on this database, where it listens (issue 33 item 11), else serve's default address.
  const baseUrl = profile.baseUrl ?? sandbox.pages?.baseUrl ?? DEFAULT_SERVE_URL;
  const { sandboxDbPath } = await import('../../config/paths.js');
  return { baseUrl: baseUrl.replace(/\/+$/, ''), accounts: sandbox.accounts(), from: sandboxDbPath(ctx.configDir) };
}

function onThisMachine(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** --psp, --account (merchant, psp, the account's name, client_id or merchant_id), else the profile's, else the merchant. */
function pick(accounts: ReadyAccount[], opts: EnvOptions, profileAccount: 'merchant' | 'psp' | undefined, from: string): ReadyAccount {
  const want = opts.psp ? 'psp' : (opts.account?.trim() ?? profileAccount ?? 'merchant');
  const lower = want.toLowerCase();
  const found =
    lower === 'merchant' || lower === 'psp'
      ? accounts.find((a) => a.psp === (lower === 'psp'))
      : accounts.find((a) => a.name.toLowerCase() === lower || a.client_id === want || a.merchant_id === want);
  if (!found) {
    const names = accounts.map((a) => `"${a.name}"${a.psp ? ' (psp)' : ' (merchant)'}`).join(', ');
    throw new UsageError(`--account: no account "${want}" in ${from}${names ? `: it has ${names}` : ''}`);
  }
  return found;
}
