// One factory from the gateway's answer to the typed errors of src/errors.ts (after stripe-node
// Error.ts and octokit request-error.js), and one from transport failures to NetworkError.
// Everything a message or details carry is redacted of the client secret and card data.
import { AuthError, GatewayError, NetworkError, NotFoundError, OutcomeUnknownError, type PgwError } from '../errors.js';
import { redactBody, redactSecret, redactText } from '../safety/redact.js';
import { parseJsonText } from '../safety/json-reason.js';
import { reasonPhrase } from '../lazy-builtins.js';
import type { FailureKind } from './retry.js';

/** Not-found codes that do not say so in their name (spec part 7, vendor 9.2). */
const NOT_FOUND_CODES = new Set(['ERR_PAYMENT_005', 'ERR_SETTLEMENT_002', 'ERR_ORDER_001', 'ERR_REFUND_003']);

/**
 * The next step for a documented code (vendor 9.2), where the code says more than its status.
 * ERR_AUTH_000/001 keep the credential hints below.
 */
const CODE_SUGGESTIONS: Record<string, string> = {
  ERR_AUTH_003: 'this operation is for PSP (partner) accounts: use a PSP profile, e.g. pgw -p local-psp …',
  ERR_ORDER_002: 'the gateway refused the fields named in the details; fix them and send again',
  ERR_MERCHANT_001: 'the gateway refused the sub-merchant fields named in the details (or its kyc_status does not allow the change)',
  ERR_REFUND_002: 'the gateway refused the refund request; the details say which field',
  ERR_SERVICE_ERROR_000: 'the gateway refused or failed the operation; the details say why',
  ERR_MERCHANT_ACCOUNT_002:
    "the merchant account is not active (a sub-merchant takes payments only once its kyc_status is APPROVED): ask the gateway's support; on pgw's sandbox: pgw -p local-psp sandbox merchant kyc <merchant_id> APPROVED",
  ERR_AUTH_005: 'this collection mode is not enabled for the account: ask the gateway to enable it',
  ERR_RATE_LIMIT_EXCEEDED: 'too many requests: wait a moment and try again',
  ERR_GATEWAY_UNAVAILABLE: 'the payment provider could not be reached; try again later',
};

export const AUTH_SUGGESTION = "check the profile's client id and secret (pgw profile show)";
const MISSING_CREDENTIALS_SUGGESTION =
  'no credentials were sent: add them to the profile (pgw profile add) or set PGW_CLIENT_ID and PGW_CLIENT_SECRET';
const NOT_FOUND_SUGGESTION = "check the ID; a resource that belongs to another merchant is reported as not found too (--merchant acts for a sub-merchant)";

export interface RedactOptions {
  secret?: string;
}

type ErrorKind = 'auth' | 'notFound' | 'gateway';

/** Codes decide first (the gateway's families: ERR_*, PAYMENT_GATEWAY_*), then the HTTP status. */
export function classify(status: number, code: string | undefined): ErrorKind {
  const c = code?.toUpperCase();
  if (c !== undefined) {
    if (c.includes('NOT_FOUND') || NOT_FOUND_CODES.has(c)) return 'notFound';
    // 403 ERR_AUTH_003 (PSP-only operation) is an authentication answer too: exit 4.
    if (c.startsWith('ERR_AUTH')) return 'auth';
    // spec 7 / vendor 8: simulate payment's codes are gateway answers, also its 403 in production.
    if (c.startsWith('PAYMENT_GATEWAY')) return 'gateway';
    // 403 "Merchant account is not active" (vendor 9.2) is the gateway refusing an account, not bad
    // credentials: exit 1, as docs/cli.md lists it (a sub-merchant not APPROVED, issue 45).
    if (c === 'ERR_MERCHANT_ACCOUNT_002') return 'gateway';
  }
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'notFound';
  return 'gateway';
}

export function statusLine(status: number): string {
  const text = reasonPhrase(status);
  return text ? `${status} ${text}` : String(status);
}

/**
 * The typed error for an answer that is not a success: a non-2xx status, or `success: false`.
 * `body` is the raw text (or an already parsed value). A body that is not JSON is described,
 * never dumped: a proxy's HTML error page says nothing useful on a terminal.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  opts: RedactOptions = {},
): PgwError {
  let parsed: unknown = body;
  if (typeof body === 'string') {
    if (body.trim() === '') return plainStatusError(status, 'an empty body', headers);
    try {
      parsed = parseJsonText(body);
    } catch {
      const type = headers['content-type']?.split(';')[0]?.trim();
      return plainStatusError(status, `a non-JSON body${type ? ` (${type})` : ''}`, headers);
    }
  }
  if (!isObject(parsed)) return plainStatusError(status, 'an unexpected JSON body', headers);

  const error = parsed.error;
  const envelope = isObject(error) ? error : {};
  // vendor 9.2: one documented code is an integer (40350, a link list page past the last).
  const code = str(envelope.code) ?? str(parsed.code) ?? (typeof envelope.code === 'number' ? String(envelope.code) : undefined);
  const gatewayMessage =
    str(envelope.message) ?? str(error) ?? str(parsed.message) ?? str(parsed.detail) ?? `gateway answered ${statusLine(status)}`;
  const rawDetails = envelope.details ?? parsed.details;
  const details = rawDetails === undefined || rawDetails === null ? undefined : toDetails(rawDetails);

  const message = redactText(code ? `${gatewayMessage} (${code})` : gatewayMessage, opts.secret);
  const info = {
    code,
    status,
    details: details === undefined ? undefined : redactBody(details, opts.secret),
  };
  switch (classify(status, code)) {
    case 'auth':
      return new AuthError(message, { ...info, suggestion: authSuggestion(code, details) });
    case 'notFound':
      return new NotFoundError(message, { ...info, suggestion: NOT_FOUND_SUGGESTION });
    default:
      return new GatewayError(message, { ...info, suggestion: (code && CODE_SUGGESTIONS[code.toUpperCase()]) ?? statusSuggestion(status, headers) });
  }
}

function authSuggestion(code: string | undefined, details: unknown): string {
  const c = code?.toUpperCase();
  if (c !== undefined && CODE_SUGGESTIONS[c]) return CODE_SUGGESTIONS[c]!;
  // vendor N4: a PSP that left out X-Merchant-ID gets ERR_AUTH_000 naming that header.
  if (c === 'ERR_AUTH_000' && /x-merchant-id/i.test(JSON.stringify(details ?? ''))) {
    return 'a PSP acts for a sub-merchant here: add -m <merchant_id> (pgw merchant list shows them)';
  }
  return c === 'ERR_AUTH_000' ? MISSING_CREDENTIALS_SUGGESTION : AUTH_SUGGESTION;
}

/** A 2xx whose body is not the `{success, message, data}` envelope. */
export function unexpectedResponse(status: number, why: string): GatewayError {
  return new GatewayError(`unexpected response from the gateway: ${statusLine(status)} with ${why}`, {
    status,
    suggestion: 'check the base URL points at the gateway (pgw profile show, --base-url)',
  });
}

function plainStatusError(status: number, what: string, headers: Record<string, string>): PgwError {
  const message = `gateway answered ${statusLine(status)} with ${what}`;
  const kind = classify(status, undefined);
  if (kind === 'auth') return new AuthError(message, { status, suggestion: AUTH_SUGGESTION });
  if (kind === 'notFound') return new NotFoundError(message, { status, suggestion: NOT_FOUND_SUGGESTION });
  return new GatewayError(message, { status, suggestion: statusSuggestion(status, headers) });
}

function statusSuggestion(status: number, headers: Record<string, string>): string | undefined {
  if (status === 429) {
    const after = headers['retry-after'];
    return `the gateway is limiting requests; wait${after ? ` (it asked for ${after.trim()}${/^\d+$/.test(after.trim()) ? ' s' : ''})` : ''} and try again`;
  }
  if (status >= 500) return 'the gateway failed to answer; try again later';
  return undefined;
}

function toDetails(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : { details: value };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

// ---- transport failures ----------------------------------------------------------------------

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Failures before a connection existed: the request cannot have reached the gateway. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a failed request may have reached the gateway (and been applied): anything but a
 * failure to connect at all. A reset or closed connection, and a timeout, leave it unknown.
 */
export function mayHaveArrived(err: unknown, timedOut: boolean): boolean {
  if (timedOut) return true;
  const code = failureCode(err);
  return code === undefined || !NEVER_SENT_CODES.has(code);
}

/**
 * A write whose answer never came (issue 24 --after-commit): the same message (scripts match
 * it) as an OutcomeUnknownError, whose hint says it was not sent again (POST and PATCH never are).
 */
export function outcomeUnknown(error: NetworkError, method: string, path: string): OutcomeUnknownError {
  return new OutcomeUnknownError(error.message, `${method} ${path}`, {
    code: error.code,
    suggestion: `the outcome is unknown: the ${method} may have reached the gateway and been applied, and pgw never sends it twice; check whether it took effect before trying again`,
  });
}

/** The errno or undici code of a failure, looking into AggregateError (happy eyeballs) and cause. */
export function failureCode(err: unknown): string | undefined {
  if (!isObject(err)) return undefined;
  if (typeof err.code === 'string') return err.code;
  if (Array.isArray(err.errors) && err.errors.length > 0) return failureCode(err.errors[0]);
  if (err.cause !== undefined) return failureCode(err.cause);
  return undefined;
}

export function failureKind(err: unknown): FailureKind {
  const code = failureCode(err);
  if (code === undefined) return 'other';
  if (TIMEOUT_CODES.has(code)) return 'timeout';
  return CONNECTION_CODES.has(code) ? 'connection' : 'other';
}

export interface TransportContext extends RedactOptions {
  url: URL;
  timeoutMs: number;
  /** Our own deadline fired (the abort reason is ours, not undici's). */
  timedOut?: boolean;
}

const BASE_URL_HINT = 'check the base URL and that the gateway is up (pgw profile show, --base-url)';

/** One clear line naming the host (never the secret) for a request that got no complete answer. */
export function networkError(err: unknown, ctx: TransportContext): NetworkError {
  const host = ctx.url.host;
  const code = failureCode(err);
  const info = (suggestion: string) => ({ code: code ?? 'NETWORK', suggestion });
  if (ctx.timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return new NetworkError(`request timed out after ${ctx.timeoutMs} ms (${host})`, {
      code: 'TIMEOUT',
      suggestion: 'raise the limit with --timeout <ms> or PGW_TIMEOUT',
    });
  }
  switch (code) {
    case 'ECONNREFUSED':
      return new NetworkError(`could not connect to ${host}: connection refused`, info(BASE_URL_HINT));
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new NetworkError(`could not resolve host ${ctx.url.hostname}`, info(BASE_URL_HINT));
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new NetworkError(`could not connect to ${host}: connection timed out`, info(BASE_URL_HINT));
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return new NetworkError(`could not connect to ${host}: host unreachable`, info(BASE_URL_HINT));
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return new NetworkError(`connection to ${host} closed before the response was complete`, info('try again'));
    default: {
      const detail = err instanceof Error ? err.message : String(err);
      return new NetworkError(`request to ${host} failed: ${redactSecret(detail, ctx.secret)}`, info(BASE_URL_HINT));
    }
  }
}
