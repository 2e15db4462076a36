// What `sandbox serve --ready-file` wrote (src/commands/ready-file.ts): `{base_url, accounts}`,
// read back by `sandbox wait --ready-file` (where to ask) and `sandbox env --ready-file` (whose
// credentials). The file appears whole or not at all, so a file that is there and is not that
// line is the wrong file (a `pgw listen` one, say), not one half written: exit 2 at once.
import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import type { SeededAccount } from '../../sandbox/store.js';

/** An account as `sandbox serve` lists it (its banner, --json and the ready file print the same). */
export type ReadyAccount = SeededAccount;

export interface ServeReady {
  base_url: string;
  accounts: ReadyAccount[];
}

/** The ready file's line; undefined while there is no file yet. */
export function readServeReady(path: string): ServeReady | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new UsageError(`--ready-file: cannot read ${path}${code ? ` (${code})` : ''}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const v = data as Partial<ServeReady> | undefined;
  const url = typeof v?.base_url === 'string' ? safeUrl(v.base_url) : undefined;
  if (!v || !url || !Array.isArray(v.accounts)) {
    // Never the file's text: it might be anything, secrets included.
    throw new UsageError(`--ready-file: ${path} is not the ready file of pgw sandbox serve (no base_url and accounts)`);
  }
  const accounts = v.accounts.filter(
    (a): a is ReadyAccount => a !== null && typeof a === 'object' && ['name', 'client_id', 'client_secret', 'merchant_id', 'encryption_key'].every((k) => typeof (a as unknown as Record<string, unknown>)[k] === 'string'),
  );
  return { base_url: url, accounts: accounts.map((a) => ({ ...a, psp: a.psp === true })) };
}

/** An http(s) address, as written (no trailing slash added). */
function safeUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? value.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}
