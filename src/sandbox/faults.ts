// Applying faults on demand (issue 24) to the requests of the account that armed them
// (store/faults.ts keeps them). Checked after the route is known and before anything runs:
//   status        answered in the gateway's error envelope with a plausible code (vendor 9.2),
//                 the handler never runs: nothing changes;
//   delay         the request is answered normally after the delay;
//   drop          the connection is closed without an answer, nothing runs;
//   after_commit  the request runs and commits, then the connection is closed without the
//                 answer: the ambiguous case a client's retry logic must survive.
// Requests without valid credentials, and /sandbox/faults/ and /sandbox/health/ themselves, are
// never faulted (a test must always be able to clear its faults).
import type { IncomingHttpHeaders } from 'node:http';
import { SandboxError } from './errors.js';
import type { MerchantRow, Store } from './store.js';
import type { ArmedFault, FaultView } from './store/faults.js';

const EXEMPT = /^\/sandbox\/(faults|health)\//;

/** `/pg/orders/*\/` → a RegExp; * is one segment ({id} and :id too), ** the rest; the final slash optional. */
export function routePattern(path: string): RegExp {
  const body = path
    .replace(/\/+$/, '')
    .split('/')
    .map((part) => {
      if (part === '**') return '.*';
      if (part === '*' || /^\{[^}]*\}$/.test(part) || /^:/.test(part)) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/?$`);
}

const patterns = new Map<string, RegExp>();
function matches(fault: { method: string; path: string }, method: string, path: string): boolean {
  if (fault.method !== '*' && fault.method !== method) return false;
  let re = patterns.get(fault.path);
  if (!re) {
    re = routePattern(fault.path);
    if (patterns.size > 1000) patterns.clear();
    patterns.set(fault.path, re);
  }
  return re.test(path);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  return s === undefined || s === '' ? undefined : s;
}

export interface FaultCheck {
  /** The fault that fires for this request, if any. */
  fault?: FaultView;
  /** The account the request's credentials name, as read at its arrival; absent when they name none. */
  account?: MerchantRow;
}

/** No fault, no account: also what production checks (it arms none, and every request authenticates itself). */
export const NO_FAULT: FaultCheck = Object.freeze({});

/** The account a request's credentials name and the armed fault that matches it: a read, nothing changes. */
export interface ArmedMatch {
  account?: MerchantRow;
  candidate?: ArmedFault;
}

/**
 * One read, answered from caches when nothing changed; inside a caller's read it shares that
 * snapshot (the pipeline answers a GET from one: pipeline.ts `handle`).
 */
export function armedFaultFor(store: Store, headers: IncomingHttpHeaders, method: string, path: string): ArmedMatch {
  if (EXEMPT.test(path)) return NO_FAULT;
  const clientId = header(headers, 'x-client-id');
  const secret = header(headers, 'x-client-secret');
  if (clientId === undefined || secret === undefined) return NO_FAULT;
  return store.db.read(() => {
    const account = store.authenticate(clientId, secret);
    if (!account) return NO_FAULT;
    return { account, candidate: store.armedFaults(account.merchant_id).find((f) => matches(f, method, path)) };
  });
}

/**
 * The fault that fires for this request, if any, and the account that armed it. Firing is a
 * write (a fault's count moves), so never inside a read. The pipeline authenticates a write with
 * that account rather than reading it again once the body is in (pipeline.ts `answer`).
 */
export function firingFault(store: Store, headers: IncomingHttpHeaders, method: string, path: string): FaultCheck {
  const { account, candidate } = armedFaultFor(store, headers, method, path);
  if (!account) return NO_FAULT;
  return { account, fault: candidate && store.triggerFault(candidate.id) };
}

const CODES: Record<number, [string, string]> = {
  429: ['ERR_RATE_LIMIT_EXCEEDED', 'Too many requests'],
  500: ['ERR_SERVICE_ERROR_000', 'Payment gateway error'],
  502: ['ERR_GATEWAY_UNAVAILABLE', 'Payment gateway unavailable'],
  503: ['ERR_SERVICE_UNAVAILABLE', 'Service unavailable'],
  504: ['ERR_GATEWAY_TIMEOUT', 'Payment gateway timeout'],
};

/** The answer of a status fault: the gateway's envelope, Retry-After on 429 and 503. */
export function faultAnswer(fault: FaultView): SandboxError {
  const status = fault.status ?? 500;
  const [code, message] = CODES[status] ?? (status >= 500 ? ['ERR_SERVICE_ERROR_000', 'Payment gateway error'] : ['ERR_REQUEST_000', 'Request failed']);
  const headers: Record<string, string> = { 'x-pgw-fault': fault.id };
  if (status === 429 || status === 503) headers['retry-after'] = '1';
  return new SandboxError(status, code, message, { error: 'An unexpected error occurred. Please try again later', fault: `${fault.id} (pgw sandbox fault)` }, headers);
}
