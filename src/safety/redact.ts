// Redaction shared by --verbose, --dry-run and error messages. Pure functions: the contract says the
// client secret, card number and CVV never appear in any output, so every printed request or
// response passes through here first.

import { luhnValid, maskCardsInText } from './card-text.js';
import { parseJsonText } from './json-reason.js';

export const REDACTED = '[redacted]';

/** Headers whose value is never shown, whatever the secret is. Compared lower-case. */
const SECRET_HEADERS = new Set(['x-client-secret', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Keys removed wherever they appear (spec 2.5: CVV must not be logged or stored by the caller). */
export const CVV_KEYS = new Set(['cvv', 'cvc', 'cvv2', 'cvc2']);

/**
 * Keys whose value is a secret whoever's it is: the sandbox shows an account's client secret and
 * webhook Encryption Key where credentials are shown (serve's output, a webhook registration's
 * answer), and --verbose, --dry-run and error messages must still never print them.
 */
export const SECRET_KEYS = new Set(['client_secret', 'encryption_key']);

/** Card-number keys masked wherever they appear, besides `number` inside `card_details`. */
export const CARD_NUMBER_KEYS = new Set(['card_number', 'cardnumber']);

/** A copy of the headers with secret-bearing values replaced by `[redacted]`. */
export function redactHeaders(headers: Record<string, string>, secret?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : redactSecret(value, secret);
  }
  return out;
}

/**
 * A secret this long cannot turn up by chance: every occurrence is it. A shorter one is redacted
 * only as a whole value (a header value, a quoted string, a word of its own), never as a fragment
 * of other text: a one-character secret must not blank every occurrence of that character.
 */
const WHOLE_TEXT_SECRET_LENGTH = 12;
/** Characters that glue a short secret into a longer token (words, paths, base64, numbers). */
const TOKEN_CHARS = 'A-Za-z0-9_\\-./+=~%';

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The forms a secret takes in printed text: as is, inside a JSON string, percent-encoded. Worked
 * out once per secret: the output guard asks for every string of every result (400 look-ups
 * printed as JSON ask thousands of times).
 */
const formsBySecret = new Map<string, string[]>();
export function secretForms(secret: string): string[] {
  let forms = formsBySecret.get(secret);
  if (!forms) {
    forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])].sort((a, b) => b.length - a.length);
    formsBySecret.set(secret, forms);
  }
  return forms;
}

/** Replace the secret in a text: anywhere when long, as a whole value when short (see above). */
export function redactSecret(text: string, secret?: string): string {
  if (!secret) return text;
  let out = text;
  for (const form of secretForms(secret)) {
    if (!out.includes(form)) continue;
    if (secret.length >= WHOLE_TEXT_SECRET_LENGTH) out = out.split(form).join(REDACTED);
    else out = out.replace(new RegExp(`(?<![${TOKEN_CHARS}])${escapeRegExp(form)}(?![${TOKEN_CHARS}])`, 'g'), REDACTED);
  }
  return out;
}

/**
 * First 6 and last 4 digits, the rest as `*` (the PCI display rule). Numbers too short for that
 * to hide anything are masked entirely.
 */
export function maskCardNumber(value: unknown): string {
  const digits = String(value).replace(/\D/g, '');
  if (digits.length < 12) return '*'.repeat(Math.max(digits.length, 4));
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/** Digits grouped by single spaces or dashes at most, as people and forms write card numbers. */
const GROUPED_DIGITS = /^\d(?:[ -]?\d){12,18}$/;

/**
 * A value that is a card number whatever its key: 13 to 19 digits (groups allowed) passing the Luhn
 * check. IDs with letters, amounts and phone numbers never match; a numeric reference that happens
 * to pass is masked in what pgw prints about a request, never in what it sends.
 */
export function isCardNumber(value: unknown): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const text = String(value).trim();
  return GROUPED_DIGITS.test(text) && luhnValid(text.replace(/[ -]/g, ''));
}

/** In a URL or any text: card numbers in any grouping masked, the gateway's IDs left alone (card-text.ts). */
export function maskCardRuns(text: string): string {
  return maskCardsInText(text);
}

/**
 * A deep copy with `card_details.number`, card-number keys and any value that is a card number
 * (isCardNumber) masked, and CVV keys removed, at any depth. Everything else, unknown fields
 * included, is kept as it is.
 */
export function maskCardData<T>(body: T): T {
  return walk(body, false) as T;
}

function walk(value: unknown, inCard: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => walk(item, false));
  if (isCardNumber(value)) return maskCardNumber(value);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const k = key.toLowerCase();
    if (CVV_KEYS.has(k)) continue;
    if ((inCard && k === 'number' && (typeof v === 'string' || typeof v === 'number')) || (CARD_NUMBER_KEYS.has(k) && isCardLike(v))) {
      out[key] = maskCardNumber(v);
      continue;
    }
    out[key] = walk(v, k === 'card_details');
  }
  return out;
}

function isCardLike(v: unknown): boolean {
  return (typeof v === 'string' || typeof v === 'number') && /^[\d\s-]{12,}$/.test(String(v));
}

/** A deep copy with the secret replaced in every string (keys included). */
export function redactSecretDeep<T>(value: T, secret?: string): T {
  if (!secret) return value;
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecret(v, secret);
    if (Array.isArray(v)) return v.map(visit);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [redactSecret(k, secret), visit(x)]));
  };
  return visit(value) as T;
}

/**
 * What verbose logs, dry runs and error details print for a body: card data masked (inside any
 * text too: card-number runs, maskCardRuns), secret removed.
 */
export function redactBody<T>(body: T, secret?: string): T {
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return maskCardRuns(v);
    if (Array.isArray(v)) return v.map(visit);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, SECRET_KEYS.has(k.toLowerCase()) && typeof x === 'string' ? REDACTED : visit(x)]));
  };
  return redactSecretDeep(visit(maskCardData(body)) as T, secret);
}

/** A text pgw prints about a request (its address, a note, a gateway's message): secret and card-number runs hidden. */
export function redactText(text: string, secret?: string): string {
  return redactSecret(maskCardRuns(text), secret);
}

/** A response or request body text for the log: JSON is masked structurally, anything else is cut short. */
export function redactBodyText(text: string, secret?: string, limit = 2000): string {
  if (text === '') return '';
  try {
    return JSON.stringify(redactBody(parseJsonText(text), secret), null, 2);
  } catch {
    const cut = text.length > limit ? `${text.slice(0, limit)}… (${text.length - limit} more characters)` : text;
    return redactSecret(maskDigitRuns(maskCardsInText(cut)), secret);
  }
}

/** In text that is not JSON, runs of 12-19 digits may be card numbers: mask them too. */
function maskDigitRuns(text: string): string {
  return text.replace(/\b\d{12,19}\b/g, (run) => maskCardNumber(run));
}
