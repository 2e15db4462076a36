// How a profile is shown, in JSON and on a terminal: one shape for list, show, add and use.
// The secret only ever leaves this file masked (last 4 at most).
import type { ProfileListEntry } from '../../config/profiles.js';
import { maskSecret } from '../../config/profiles.js';
import { PUBLIC_BASE_URLS, type StoredProfile } from '../../config/types.js';
import { renderDetail } from '../../output/render.js';

/** JSON form: the stored field names, absent values as null, base_url in effect, the secret masked. */
export interface ProfileJson {
  name: string;
  current: boolean;
  built_in: boolean;
  env: StoredProfile['env'];
  base_url: string | null;
  api_version: string | null;
  client_id: string | null;
  client_secret: string | null;
  /** Masked like the secret; null when the profile holds none. */
  encryption_key: string | null;
  merchant_id: string | null;
  account: string | null;
}

export function profileJson(entry: ProfileListEntry): ProfileJson {
  const p = entry.profile;
  return {
    name: entry.name,
    current: entry.current,
    built_in: entry.builtIn,
    env: p.env,
    base_url: baseUrlOf(p) ?? null,
    api_version: p.api_version ?? null,
    client_id: p.client_id ?? null,
    client_secret: p.client_secret ? maskSecret(p.client_secret) : null,
    encryption_key: p.encryption_key ? maskSecret(p.encryption_key) : null,
    merchant_id: p.merchant_id ?? null,
    account: p.account ?? null,
  };
}

/** The address a profile sends to: its own, else the public one of its env; none when embedded. */
export function baseUrlOf(p: StoredProfile): string | undefined {
  if (p.base_url) return p.base_url;
  if (p.env === 'sandbox' || p.env === 'production') return PUBLIC_BASE_URLS[p.env];
  return undefined;
}

export function addressOf(p: StoredProfile): string {
  return baseUrlOf(p) ?? 'embedded sandbox';
}

export function profileDetail(entry: ProfileListEntry, file: string): string {
  const p = entry.profile;
  const builtIn = entry.builtIn;
  return renderDetail([
    {
      rows: [
        ['Name', entry.name + (builtIn ? ' (built-in)' : '')],
        ['Current', entry.current ? 'yes' : 'no'],
        ['Env', p.env],
        ['Base URL', addressOf(p)],
        ['API version', p.api_version ?? '3.0.0 (default)'],
        ['Client ID', p.client_id ?? (builtIn ? "the sandbox's demo account" : undefined)],
        ['Client secret', p.client_secret ? maskSecret(p.client_secret) : builtIn ? "the sandbox's demo account" : undefined],
        ['Encryption key', p.encryption_key ? maskSecret(p.encryption_key) : undefined],
        ['Merchant ID', p.merchant_id],
        ...(p.account ? ([['Account', p.account]] as [string, string][]) : []),
        ['Stored in', builtIn ? 'built into pgw' : file],
      ],
    },
  ]);
}
