// pgw profile add <name>: store credentials and an address under a name. The secret comes from a
// masked prompt or --client-secret-stdin, never from a flag, and is never printed unmasked.
import type { Context, GlobalOptions } from '../../context.js';
import type { InStream } from '../../output/io.js';
import type { StoredProfile } from '../../config/types.js';
import { AuthError, UsageError } from '../../errors.js';
import { emit } from '../../output/render.js';
import { isBuiltInProfile, validateApiVersion, validateBaseUrl, validateProfileName } from '../../config/profiles.js';
import { addressOf, profileJson } from './view.js';

export interface ProfileAddOptions {
  name: string;
  env: 'sandbox' | 'production';
  /** From the global --base-url (commander reads it at the root). */
  baseUrl?: string;
  /** From the global --api-version. */
  apiVersion?: string;
  clientId?: string;
  merchantId?: string;
  secretFromStdin: boolean;
  /** --encryption-key-stdin: the webhook Encryption Key on stdin (after the secret when both). */
  keyFromStdin: boolean;
  force: boolean;
}

// Credentials end up in HTTP headers: refuse anything a header cannot carry.
const CONTROL = /[\u0000-\u001f\u007f]/;

function credential(label: string, value: string): string {
  const text = value.trim();
  if (text === '') throw new UsageError(`${label} is empty`);
  if (CONTROL.test(text)) throw new UsageError(`${label} contains a line break or control character`);
  return text;
}

function optionalString(flags: Record<string, unknown>, key: string): string | undefined {
  const value = flags[key];
  return typeof value === 'string' ? value : undefined;
}

/** Flags (and the global --base-url / --api-version) into typed options; bad input is exit 2. */
export function buildProfileAddOptions(
  name: string,
  flags: Record<string, unknown>,
  globals: Pick<GlobalOptions, 'baseUrl' | 'apiVersion'>,
): ProfileAddOptions {
  validateProfileName(name);
  if (isBuiltInProfile(name)) throw new UsageError(`"${name}" is a built-in profile and cannot be replaced; choose another name`);
  const env = flags.env ?? 'sandbox';
  if (env !== 'sandbox' && env !== 'production') {
    throw new UsageError(`invalid --env "${String(env)}": use sandbox or production`);
  }
  const clientId = optionalString(flags, 'clientId');
  const merchantId = optionalString(flags, 'merchantId');
  return {
    name,
    env,
    baseUrl: globals.baseUrl === undefined ? undefined : validateBaseUrl(globals.baseUrl, '--base-url'),
    apiVersion: globals.apiVersion === undefined ? undefined : validateApiVersion(globals.apiVersion, '--api-version'),
    clientId: clientId === undefined ? undefined : credential('--client-id', clientId),
    merchantId: merchantId === undefined ? undefined : credential('--merchant-id', merchantId),
    secretFromStdin: flags.clientSecretStdin === true,
    keyFromStdin: flags.encryptionKeyStdin === true,
    force: flags.force === true,
  };
}

/** All of stdin, less its trailing newline (as `printf '%s\n' "$S" | ...` or a file). */
export async function readSecretFromStdin(stdin: InStream): Promise<string> {
  return (await readSecretsFromStdin(stdin, ['--client-secret-stdin']))[0]!;
}

/**
 * One secret per flag from stdin: one flag takes all of it (less a trailing newline); two take a
 * line each, in the order given (the client secret, then the Encryption Key).
 */
export async function readSecretsFromStdin(stdin: InStream, flags: string[]): Promise<string[]> {
  const flag = flags.join(' and ');
  if (stdin.isTTY) {
    throw new UsageError(`${flag} needs the secret piped in; in a terminal leave it out to be asked with a masked prompt`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  let decoded: string;
  try {
    // Invalid UTF-8 would be stored as U+FFFD, silently a different secret from the one given.
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new UsageError(`${flag}: the secret is not valid UTF-8 text`, { suggestion: 'pipe the secret as text, e.g. printf %s "$SECRET" | pgw profile add ...' });
  }
  const text = decoded.replace(/\r?\n$/, '');
  const values = flags.length === 1 ? [text] : text.split(/\r?\n/);
  if (flags.length > 1 && values.length !== flags.length) {
    throw new UsageError(`${flag}: stdin must hold ${flags.length} lines, the client secret then the Encryption Key; it has ${text === '' ? 0 : values.length}`);
  }
  return values.map((value, i) => {
    const f = flags[i]!;
    if (/[^\u0000-\u00ff]/.test(value)) throw new UsageError(`${f}: the secret has characters an HTTP header cannot carry (outside Latin-1)`);
    if (value === '') throw new UsageError(`${f}: ${flags.length > 1 ? 'its line' : 'stdin'} was empty`);
    if (CONTROL.test(value)) throw new UsageError(`${f}: the secret must be one line without control characters`);
    return value;
  });
}

const notEmpty = (label: string) => (value: string) => {
  if (value.trim() === '') return `${label} cannot be empty`;
  return CONTROL.test(value.trim()) ? `${label} cannot contain control characters` : true;
};

export async function runProfileAdd(ctx: Context, opts: ProfileAddOptions): Promise<void> {
  const store = await ctx.profiles({ write: true });
  if (store.get(opts.name) && !opts.force) {
    throw new UsageError(`profile "${opts.name}" already exists`, {
      code: 'PROFILE_EXISTS',
      suggestion: `add --force to replace it, or remove it first with \`pgw profile remove ${opts.name}\``,
    });
  }

  // The secret would travel in clear to the gateway that moves real money.
  // (Loopback is exempt, as browsers treat it: a gateway stub on this machine, in tests.)
  if (opts.env === 'production' && opts.baseUrl !== undefined && isPlainHttpRemote(opts.baseUrl)) {
    throw new UsageError(`a production profile needs an https:// address, not ${opts.baseUrl}: plain http would send the client secret in clear`);
  }
  // --client-secret-stdin with a terminal on stdin: say so before anything else.
  const stdinFlags = [...(opts.secretFromStdin ? ['--client-secret-stdin'] : []), ...(opts.keyFromStdin ? ['--encryption-key-stdin'] : [])];
  if (stdinFlags.length > 0 && ctx.io.stdinIsTTY) await readSecretsFromStdin(ctx.io.stdin, stdinFlags);

  // Without a person to ask, name everything missing at once, before reading stdin.
  const missing: string[] = [];
  if (opts.clientId === undefined) missing.push('the client ID (--client-id)');
  if (!opts.secretFromStdin) missing.push('the client secret (--client-secret-stdin)');
  const prompting = missing.length > 0 && ctx.io.canPrompt && !opts.secretFromStdin;
  if (missing.length > 0 && !prompting) {
    throw new UsageError(`missing ${missing.join(' and ')}`, {
      code: 'MISSING_INPUT',
      suggestion: ctx.io.canPrompt
        ? 'pass --client-id too, or leave out --client-secret-stdin to be asked for both'
        : 'pass them as flags (the secret on stdin), or run in a terminal to be asked',
    });
  }

  let clientId = opts.clientId;
  let clientSecret: string;
  let encryptionKey: string | undefined;
  const fromStdin = stdinFlags.length > 0 ? await readSecretsFromStdin(ctx.io.stdin, stdinFlags) : [];
  if (opts.keyFromStdin) encryptionKey = fromStdin.at(-1);
  if (opts.secretFromStdin) {
    clientSecret = fromStdin[0]!;
  } else {
    const prompter = await ctx.loadPrompter();
    clientId ??= (await prompter.input({ message: 'Client ID:', validate: notEmpty('the client ID') })).trim();
    clientSecret = (await prompter.password({ message: 'Client secret:', validate: notEmpty('the client secret') })).trim();
  }

  const profile: StoredProfile = {
    env: opts.env,
    base_url: opts.baseUrl,
    api_version: opts.apiVersion,
    client_id: clientId,
    client_secret: clientSecret,
    encryption_key: encryptionKey,
    merchant_id: opts.merchantId,
  };
  // Typed in a terminal: checked with the gateway before it is stored, if the person wants.
  if (!opts.secretFromStdin) await offerCheck(ctx, profile);
  const replaced = store.get(opts.name) !== undefined;
  store.set(opts.name, profile);
  const entry = { name: opts.name, profile: store.get(opts.name)!, builtIn: false, current: store.current() === opts.name };

  await emit(ctx.io, ctx.output, profileJson(entry), () => {
    ctx.log(`${replaced ? 'Replaced' : 'Added'} profile "${opts.name}" (${opts.env}, ${addressOf(entry.profile)}).`);
    if (!entry.current) ctx.log(`Use it with: pgw profile use ${opts.name}   or   pgw --profile ${opts.name} <command>`);
  });
}

/** Ask, then check; refused credentials are stored only if the person says so (exit 4 otherwise). */
async function offerCheck(ctx: Context, profile: StoredProfile): Promise<void> {
  const prompter = await ctx.loadPrompter();
  if (!(await prompter.confirm({ message: 'Check these credentials with the gateway now?', default: true }))) return;
  const { checkCredentials } = await import('./check.js');
  const result = await checkCredentials(ctx, profile);
  if (result.ok) {
    ctx.log(`The gateway at ${result.baseUrl} accepted the credentials.`);
    return;
  }
  if (!result.refused) {
    ctx.log(`Could not check them (${result.reason}): stored unchecked.`);
    return;
  }
  ctx.log(`The gateway at ${result.baseUrl} refused them: ${result.reason}`);
  if (!(await prompter.confirm({ message: 'Store the profile anyway?', default: false }))) {
    throw new AuthError('credentials refused by the gateway: the profile was not stored', { suggestion: 'check the client ID and secret, then run pgw profile add again' });
  }
}

/** http:// to anything but this machine. */
function isPlainHttpRemote(address: string): boolean {
  const url = new URL(address);
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return !(host === 'localhost' || host === '::1' || /^127\./.test(host));
}
