// The profile store (conf over <configDir>/config.json, 0600 file in a 0700 directory) and the
// resolution of the profile in force: flag > environment > profile > built-in default.
// The file is read directly (once per run); conf is imported only by a store that writes, so
// resolving the profile of an API call never loads conf and its ajv.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type ConfStore from 'conf';
import { UsageError } from '../errors.js';
import { withFileLock } from './lock.js';
import {
  DEFAULT_API_VERSION,
  DEFAULT_TIMEOUT_MS,
  PUBLIC_BASE_URLS,
  type Env,
  type GlobalOptions,
  type ProfileEnv,
  type ResolvedProfile,
  type StoredProfile,
} from './types.js';

export const PROFILE_FILE = 'config.json';
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
export const DEFAULT_PROFILE = 'local';

/** Built into pgw, never stored: both talk to the in-process sandbox (Context.target()). */
export const BUILT_IN_PROFILES: Readonly<Record<string, StoredProfile>> = Object.freeze({
  local: Object.freeze({ env: 'embedded', account: 'merchant' }) as StoredProfile,
  'local-psp': Object.freeze({ env: 'embedded', account: 'psp' }) as StoredProfile,
});

const NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,63}$/;
const PROFILE_ENVS: readonly ProfileEnv[] = ['sandbox', 'production', 'embedded'];
/** Spec part 9 documents 1.X.X, 2.X.X and 3.X.X; the header is sent verbatim, so only full forms. */
const API_VERSION_RE = /^[123]\.\d+\.\d+$/;
const MAX_TIMEOUT_MS = 2_147_483_647; // setTimeout's ceiling

export interface ProfileListEntry {
  name: string;
  profile: StoredProfile;
  builtIn: boolean;
  current: boolean;
}

export interface ProfileStore {
  /** The file holding the stored profiles. */
  readonly path: string;
  /** The persisted current profile: `local` on a fresh install. */
  current(): string;
  /** Make an existing profile (built-ins included) the current one. */
  setCurrent(name: string): void;
  /** A stored or built-in profile. */
  get(name: string): StoredProfile | undefined;
  /** Built-ins first, then the stored profiles by name. */
  list(): ProfileListEntry[];
  /** Create or replace a stored profile; built-in names are refused. */
  set(name: string, profile: StoredProfile): void;
  /** Delete a stored profile; built-ins are refused; the current one falls back to `local`. */
  remove(name: string): void;
}

interface StoreShape extends Record<string, unknown> {
  current?: string;
  profiles?: Record<string, StoredProfile>;
}

export function isBuiltInProfile(name: string): boolean {
  return Object.hasOwn(BUILT_IN_PROFILES, name);
}

/** Whether a name passes the profile-name rule (validateProfileName), without throwing. */
export function isValidProfileName(name: string): boolean {
  return NAME_RE.test(name);
}

/** Profile names: a letter or digit, then up to 63 letters, digits, `_` or `-` (exit 2 otherwise). */
export function validateProfileName(name: string): string {
  if (!NAME_RE.test(name)) {
    throw new UsageError(
      `invalid profile name "${name}": use 1 to 64 letters, digits, "_" or "-", starting with a letter or digit`,
    );
  }
  return name;
}

/** An http(s) address, or UsageError naming where it came from. Returned as given. */
export function validateBaseUrl(value: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new UsageError(`invalid base URL "${value}" (from ${source}): use an http:// or https:// address`);
  }
  return value;
}

export function validateApiVersion(value: string, source: string): string {
  if (!API_VERSION_RE.test(value)) {
    throw new UsageError(`invalid API version "${value}" (from ${source}): use the form 3.0.0 (major 1, 2 or 3)`);
  }
  return value;
}

/** Milliseconds; `500ms`, `30s` and `2m` are read too (issue 24: `pgw sandbox wait --timeout 30s`). */
export function parseTimeout(value: string, source: string): number {
  const m = /^([0-9]+)(ms|s|m)?$/.exec(value.trim());
  const n = m ? Number.parseInt(m[1]!, 10) * (m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : 1) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_TIMEOUT_MS) {
    throw new UsageError(`invalid timeout "${value}" (from ${source}): use a positive whole number of milliseconds (or 30s, 2m)`);
  }
  return n;
}

/**
 * The secret for display: `••••` plus the last 4 characters, only when the secret is long enough
 * (12+) that those 4 give little away; shorter secrets are fully masked. Empty or absent: ''.
 */
export function maskSecret(secret: string | undefined): string {
  if (secret === undefined || secret === '') return '';
  if (secret.length < 12) return '••••';
  return `••••${secret.slice(-4)}`;
}

/**
 * A directory pgw creates is 0700; one that exists keeps its mode (contract, "Safety rails"): a
 * shared `1777` CI directory or the working directory given as PGW_CONFIG_DIR must not lose its
 * sticky bit or others' access. The profile file inside is what holds the secret, and it is 0600.
 */
function secureDirectory(dir: string): void {
  let created: string | undefined;
  try {
    created = mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  } catch (err) {
    throw new UsageError(`cannot create the config directory ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
      suggestion: 'point PGW_CONFIG_DIR at a directory you can write',
    });
  }
  if (created !== undefined) fixMode(dir, DIR_MODE); // whatever the umask made of it
}

/** 0600 for the profile file; a file pgw may not chmod (another owner's) is left as it is when only read. */
function fixMode(path: string, mode: number, opts: { mustSucceed?: boolean } = { mustSucceed: true }): void {
  if (process.platform === 'win32') return;
  let current: number;
  try {
    current = statSync(path).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (current === mode) return;
  try {
    chmodSync(path, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!opts.mustSucceed && (code === 'EPERM' || code === 'EACCES')) return;
    throw new UsageError(`cannot make ${path} private (mode ${mode.toString(8)}): ${code ?? (err as Error).message}`, {
      suggestion: 'it belongs to another user: fix its owner, or point PGW_CONFIG_DIR elsewhere',
    });
  }
}

function notFound(name: string): UsageError {
  return new UsageError(`profile "${name}" not found`, {
    code: 'PROFILE_NOT_FOUND',
    suggestion: `see the profiles with \`pgw profile list\`, or create this one with \`pgw profile add ${name}\``,
  });
}

/** What the profile file holds, read once: `{}` when there is no file yet. */
function readStoreFile(path: string): StoreShape {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw unreadable(path, err);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    // V8 messages that quote an excerpt ("... is not valid JSON") would print part of a client secret.
    throw unreadable(path, / is not valid JSON$/s.test((err as Error).message) ? new Error('not valid JSON') : err);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw unreadable(path, new Error('not a JSON object'));
  return data as StoreShape;
}

function unreadable(path: string, err: unknown): UsageError {
  return new UsageError(`cannot read the profile file ${path}: ${(err as Error).message}`, {
    suggestion: 'fix or delete the file (it holds only pgw profiles)',
  });
}

export interface OpenOptions {
  /**
   * Whether the store will be written (default true). Reading needs only the JSON file; conf
   * (with ajv, ~40 ms to load) is imported only for a store that writes, and built on its first write.
   */
  write?: boolean;
}

export async function openProfileStore(configDir: string, opts: OpenOptions = {}): Promise<ProfileStore> {
  secureDirectory(configDir);
  const path = join(configDir, PROFILE_FILE);
  fixMode(path, FILE_MODE, { mustSucceed: opts.write !== false });
  // Read once: every get/list/current below answers from this snapshot, kept in step by update().
  const data = readStoreFile(path);
  const Conf = opts.write === false ? undefined : (await import('conf')).default;
  let conf: ConfStore<StoreShape> | undefined;

  const profilesOf = (shape: StoreShape): Record<string, StoredProfile> => {
    const profiles = shape.profiles;
    return profiles && typeof profiles === 'object' ? { ...(profiles as Record<string, StoredProfile>) } : {};
  };
  const stored = (): Record<string, StoredProfile> => profilesOf(data);
  // Every change is made under the file's lock to the file as it is now (another pgw may have
  // written it since this run read it), written whole and atomically by conf, then chmod-ed: a
  // file restored from a backup or edited by hand keeps 0600.
  const update = (change: (fresh: StoreShape) => void): void => {
    if (!Conf) throw new Error('the profile store was opened read-only');
    withFileLock(path, () => {
      const fresh = readStoreFile(path);
      change(fresh);
      try {
        conf ??= new Conf<StoreShape>({
          cwd: configDir,
          configName: 'config',
          fileExtension: 'json',
          configFileMode: FILE_MODE,
          // Profile names are whole keys, never paths.
          accessPropertiesByDotNotation: false,
          clearInvalidConfig: false,
        });
      } catch (err) {
        // The file changed since it was read; a JSON error message may quote part of a secret.
        throw unreadable(path, err instanceof SyntaxError ? new Error('not valid JSON') : err);
      }
      try {
        conf.store = fresh;
      } catch (err) {
        // conf writes a temporary file and renames it: the profile file is as it was.
        throw new UsageError(`cannot write the profile file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
          suggestion: 'free some disk space (or fix the directory) and try again; the profiles are unchanged',
        });
      }
      fixMode(path, FILE_MODE);
      for (const key of Object.keys(data)) delete data[key];
      Object.assign(data, fresh);
    });
  };
  const get = (name: string): StoredProfile | undefined => {
    if (isBuiltInProfile(name)) return { ...BUILT_IN_PROFILES[name]! };
    const all = stored();
    const profile = Object.hasOwn(all, name) ? all[name] : undefined;
    return profile ? { ...profile } : undefined;
  };
  const current = (): string => {
    const value = data.current;
    return typeof value === 'string' && value !== '' ? value : DEFAULT_PROFILE;
  };
  const refuseBuiltIn = (name: string, verb: string): void => {
    if (isBuiltInProfile(name)) throw new UsageError(`"${name}" is a built-in profile and cannot be ${verb}`);
  };

  return {
    path,
    current,
    setCurrent(name) {
      validateProfileName(name);
      update((fresh) => {
        if (!isBuiltInProfile(name) && !Object.hasOwn(profilesOf(fresh), name)) throw notFound(name);
        fresh.current = name;
      });
    },
    get,
    list() {
      const now = current();
      const builtIns = Object.keys(BUILT_IN_PROFILES).map((name) => ({
        name,
        profile: { ...BUILT_IN_PROFILES[name]! },
        builtIn: true,
        current: name === now,
      }));
      const own = Object.entries(stored())
        .filter(([name]) => !isBuiltInProfile(name))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, profile]) => ({ name, profile: { ...profile }, builtIn: false, current: name === now }));
      return [...builtIns, ...own];
    },
    set(name, profile) {
      validateProfileName(name);
      refuseBuiltIn(name, 'replaced');
      // Only known keys, and no undefined values (conf refuses them).
      const clean: StoredProfile = { env: profile.env };
      for (const key of ['base_url', 'client_id', 'client_secret', 'encryption_key', 'merchant_id', 'api_version', 'account'] as const) {
        const value = profile[key];
        if (value !== undefined && value !== '') (clean as unknown as Record<string, string>)[key] = value;
      }
      update((fresh) => {
        fresh.profiles = { ...profilesOf(fresh), [name]: clean };
      });
    },
    remove(name) {
      validateProfileName(name);
      refuseBuiltIn(name, 'removed');
      update((fresh) => {
        const profiles = profilesOf(fresh);
        if (!Object.hasOwn(profiles, name)) throw notFound(name);
        delete profiles[name];
        fresh.profiles = profiles;
        if (fresh.current === name) fresh.current = DEFAULT_PROFILE;
      });
    },
  };
}

/** Flags win, then a non-empty environment variable. */
function pick(
  flag: string | undefined,
  flagName: string,
  env: Env,
  envName: string,
): { value: string; source: string } | undefined {
  if (flag !== undefined) return { value: flag, source: flagName };
  const fromEnv = env[envName];
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: envName };
  return undefined;
}

/** The profile in force, after flag > environment > profile > built-in default. */
/** A header value: visible characters and spaces of Latin-1 (what HTTP/1.1 carries), no control character. */
function headerValue(value: string | undefined, source: string, what: string, secret: boolean): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (value === undefined || !/[\u0000-\u001f\u007f]|[^\u0000-\u00ff]/.test(value)) return value;
  const shown = secret ? '' : ` "${JSON.stringify(value).slice(1, -1)}"`;
  throw new UsageError(`invalid ${what}${shown} (from ${source}): it may not contain line breaks, other control characters or characters outside Latin-1`);
}

export function resolveProfile(store: ProfileStore, globals: GlobalOptions, env: Env): ResolvedProfile {
  const name = validateProfileName(pick(globals.profile, '--profile', env, 'PGW_PROFILE')?.value ?? store.current());
  const profile = store.get(name);
  if (!profile) throw notFound(name);
  if (!PROFILE_ENVS.includes(profile.env)) {
    throw new UsageError(`profile "${name}" has an unknown env "${String(profile.env)}" in ${store.path}`, {
      suggestion: `re-create it: pgw profile add ${name} --force --env sandbox|production`,
    });
  }

  let baseUrl: string | undefined;
  const baseOverride = pick(globals.baseUrl, '--base-url', env, 'PGW_BASE_URL');
  if (baseOverride) baseUrl = validateBaseUrl(baseOverride.value, baseOverride.source);
  else if (profile.base_url) baseUrl = validateBaseUrl(profile.base_url, `profile "${name}"`);
  else if (profile.env === 'sandbox' || profile.env === 'production') baseUrl = PUBLIC_BASE_URLS[profile.env];

  const versionOverride = pick(globals.apiVersion, '--api-version', env, 'PGW_API_VERSION');
  const apiVersion = versionOverride
    ? validateApiVersion(versionOverride.value, versionOverride.source)
    : profile.api_version
      ? validateApiVersion(profile.api_version, `profile "${name}"`)
      : DEFAULT_API_VERSION;

  const timeout = pick(globals.timeout, '--timeout', env, 'PGW_TIMEOUT');
  const timeoutMs = timeout ? parseTimeout(timeout.value, timeout.source) : DEFAULT_TIMEOUT_MS;

  // Each becomes a header value: one with a line break or another control character would be
  // refused by the HTTP library after the connection is made (exit 3); it is bad input (exit 2).
  const header = (picked: { value: string; source: string } | undefined, stored: string | undefined, what: string, secret = false) =>
    headerValue(picked?.value ?? stored, picked?.source ?? `profile "${name}"`, what, secret);
  const resolved: ResolvedProfile = {
    name,
    env: profile.env,
    builtIn: isBuiltInProfile(name),
    baseUrl,
    clientId: header(pick(undefined, '', env, 'PGW_CLIENT_ID'), profile.client_id, 'client id'),
    // Never from a flag: argv shows in `ps` and shell history.
    clientSecret: header(pick(undefined, '', env, 'PGW_CLIENT_SECRET'), profile.client_secret, 'client secret', true),
    // Never from a flag either (argv shows in `ps`); it is not a header, but it is a secret.
    encryptionKey: pick(undefined, '', env, 'PGW_ENCRYPTION_KEY')?.value ?? profile.encryption_key,
    merchantId: header(pick(globals.merchant, '--merchant', env, 'PGW_MERCHANT_ID'), profile.merchant_id, 'merchant id'),
    apiVersion,
    timeoutMs,
  };
  if (profile.account !== undefined) resolved.account = profile.account;
  return resolved;
}
