// Webhook signatures (vendor 1.2, N11), in one place for the three that need them: the sandbox
// signs what it sends, `pgw listen` checks what it receives, `pgw webhook verify` checks a saved
// body. Imports nothing of pgw: sandbox and commands may both use it.
//
// The body is serialised once, as the vendor's documented fallback check re-serialises it (keys
// sorted at every level, no whitespace, `,` and `:` separators, every character outside printable
// ASCII escaped as \uXXXX as Python's json.dumps does by default), and exactly those bytes are
// signed and sent: the raw-body check and the fallback check then agree.
import { nodeCrypto } from './lazy-builtins.js';
import { firstDuplicateKey } from './safety/json-duplicate-key.js';

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const SIGNATURE_V2_HEADER = 'X-Webhook-Signature-V2';
export const TIMESTAMP_HEADER = 'X-Webhook-Timestamp';
export const EVENT_HEADER = 'X-Webhook-Event';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

/** `{"a":1,"b":{"c":"\u20b9"}}`: recursive key sort, compact, non-ASCII as \uXXXX (lowercase hex). */
export function canonicalJson(value: unknown): string {
  // JSON.stringify already writes \n, \t, \", \\ and control characters as Python does; what is
  // left outside printable ASCII (DEL and every non-ASCII UTF-16 unit) is escaped here.
  return JSON.stringify(sortKeys(value)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Lowercase hex HMAC-SHA256 of the exact body bytes (X-Webhook-Signature). */
export function signBody(key: string, body: string | Uint8Array): string {
  return nodeCrypto().createHmac('sha256', key).update(body).digest('hex');
}

/** `t=<unix seconds>,v2=<hex>`: HMAC-SHA256 over the timestamp, a dot, then the body (X-Webhook-Signature-V2). */
export function signV2(key: string, timestamp: string, body: string | Uint8Array): string {
  const mac = nodeCrypto().createHmac('sha256', key).update(`${timestamp}.`).update(body).digest('hex');
  return `t=${timestamp},v2=${mac}`;
}

/** Equal hex strings, compared in constant time (vendor 1.2: receivers compare so). */
export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected.toLowerCase(), 'utf8');
  const b = Buffer.from(given.trim().toLowerCase(), 'utf8');
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}

export type Verdict = { ok: true; how: 'raw body' | 'sorted keys' } | { ok: false; reason: string };

/**
 * The receiver's check: the raw body's HMAC first; if that fails and the body is JSON, the
 * fallback of re-serialising it with sorted keys (what a receiver does when its framework has
 * already parsed the body). The reason says which, so a failing handler can be debugged.
 *
 * The fallback refuses a body with a duplicate key at any depth: JSON.parse keeps the last value,
 * so `{"event_type":"FORGED_EVENT", ...the signed keys...}` re-serialises to the signed bytes
 * while a reader that keeps the first value acts on FORGED_EVENT. The raw-body check needs no
 * such rule: it covers the bytes whatever a parser makes of them.
 */
export function verifySignature(key: string, body: Uint8Array, signature: string): Verdict {
  const given = signature.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(given)) {
    return { ok: false, reason: `the signature is not 64 hex characters (HMAC-SHA256), it has ${given.length} characters` };
  }
  if (sameSignature(signBody(key, body), given)) return { ok: true, how: 'raw body' };
  const text = Buffer.from(body).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the HMAC-SHA256 of the body does not match (and the body is not JSON, so no fallback check)' };
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) {
    const name = JSON.stringify(duplicate.key.length > 60 ? `${duplicate.key.slice(0, 60)}…` : duplicate.key);
    return {
      ok: false,
      reason:
        `the HMAC-SHA256 of the body does not match, and the body has a duplicate key ${name}` +
        `${duplicate.path === '' ? '' : ` (in ${duplicate.path})`}, so the sorted-keys check is refused: ` +
        'parsers that keep the first value and the last would read different events',
    };
  }
  const canonical = canonicalJson(parsed);
  if (sameSignature(signBody(key, canonical), given)) return { ok: true, how: 'sorted keys' };
  return {
    ok: false,
    reason: 'the HMAC-SHA256 of the body does not match, nor of the body re-serialised with sorted keys: a different key, or a body changed after signing',
  };
}

/** Parse `t=...,v2=...`; undefined when the header is not of that form. */
export function parseV2(header: string): { t: string; v2: string } | undefined {
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = parts.get('t');
  const v2 = parts.get('v2');
  return t && v2 && /^\d+$/.test(t) ? { t, v2 } : undefined;
}
