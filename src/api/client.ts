// The one HTTP core: undici through an injected Dispatcher, the gateway's headers (spec part 5),
// the envelope (spec part 2), timeouts, the retry policy (retry.ts) and redaction (redact.ts).
import type { Dispatcher } from 'undici';
import { InterruptedError, NetworkError, PgwError, UsageError } from '../errors.js';
import type { ApiClient, ApiRequest, ApiResponse, ClientOptions, Envelope, HttpMethod, RequestPreview } from './types.js';
import { errorFromResponse, failureKind, mayHaveArrived, networkError, outcomeUnknown, unexpectedResponse } from './errors.js';
import { DEFAULT_RETRY_POLICY, retryDelay, shouldRetry, type FailureKind } from './retry.js';
import { redactBody, redactHeaders, redactText } from '../safety/redact.js';
import { logNote, logRequest, logResponse } from './verbose.js';
import { cardValuesOf, hasCardValues, scrubCardData, scrubCardError, scrubCardText } from '../safety/card-values.js';
import { MAX_RESPONSE_BYTES, readLimitedBody } from './body.js';
import { parseJsonText } from '../safety/json-reason.js';
import { plainText } from '../safety/terminal-text.js';
import { DEFAULT_TIMEOUT_MS } from '../config/types.js';
import { monotonicMs } from '../monotonic.js';
import { describeForm, encodeForm, formBoundary } from './form.js';


interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  ms: number;
}

/** A transport failure of one attempt, with whether our own deadline caused it. */
class AttemptFailure {
  constructor(
    readonly cause: unknown,
    readonly timedOut: boolean,
  ) {}
}

/** A wait between retries; its timer is cleared when `stop` aborts, so it holds no process open. */
function defaultSleep(ms: number, stop?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (stop?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop?.addEventListener('abort', done, { once: true });
  });
}

/** A request the run no longer waits for (it ended while the request was in flight). */
const abandoned = (): NetworkError => new NetworkError('request abandoned: the run had ended', { code: 'ABANDONED' });

export function createClient(opts: ClientOptions): ApiClient {
  const base = parseBaseUrl(opts.baseUrl);
  const policy = { ...DEFAULT_RETRY_POLICY, ...opts.retry };
  const sleep = opts.sleep ?? ((ms: number) => defaultSleep(ms, opts.closing));
  const random = opts.random ?? Math.random;
  const timeoutMs = Number.isFinite(opts.timeoutMs) && opts.timeoutMs > 0 ? opts.timeoutMs : DEFAULT_TIMEOUT_MS;
  const secret = opts.clientSecret || undefined;
  const baseLog = opts.log;
  const maxResponseBytes = opts.maxResponseBytes ?? MAX_RESPONSE_BYTES;

  function urlFor(req: ApiRequest): URL {
    if (!req.path.startsWith('/')) throw new UsageError(`invalid path "${req.path}": it must start with /`);
    const url = new URL(`${base}${req.path}`);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.append(key, String(value));
    }
    return url;
  }

  /**
   * Spec part 5: the client pair always (when known: without it the gateway answers ERR_AUTH_000,
   * which says more than we could); X-API-Version on /pg/ operations; X-Merchant-ID when acting
   * for a sub-merchant, except on /partners/ operations, which take the client pair only (rule 1).
   */
  function headersFor(req: ApiRequest, boundary?: string): Record<string, string> {
    const headers: Record<string, string> = { 'User-Agent': opts.userAgent, Accept: 'application/json' };
    if (opts.clientId) headers['X-Client-ID'] = opts.clientId;
    if (secret) headers['X-Client-Secret'] = secret;
    if (req.path.startsWith('/pg/')) headers['X-API-Version'] = opts.apiVersion;
    if (opts.merchantId && !req.path.startsWith('/partners/')) headers['X-Merchant-ID'] = opts.merchantId;
    if (req.form !== undefined) headers['Content-Type'] = `multipart/form-data; boundary=${boundary ?? formBoundary()}`;
    else if (req.body !== undefined) headers['Content-Type'] = 'application/json';
    return headers;
  }

  async function attempt(method: HttpMethod, url: URL, headers: Record<string, string>, payload?: string | Buffer): Promise<RawResponse> {
    // headersTimeout/bodyTimeout bound each wait; the deadline bounds the whole exchange, so a body
    // that trickles in a byte at a time cannot outlast --timeout either.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`request timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    // Ctrl-C (bin/ aborts opts.signal) ends a request in flight instead of waiting it out.
    const interrupt = (): void => controller.abort(new InterruptedError('interrupted'));
    if (opts.signal?.aborted) throw new InterruptedError('interrupted');
    if (opts.closing?.aborted) throw abandoned();
    opts.signal?.addEventListener('abort', interrupt, { once: true });
    const abandon = (): void => controller.abort(abandoned());
    opts.closing?.addEventListener('abort', abandon, { once: true });
    const started = monotonicMs();
    try {
      const res = await opts.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        body: payload,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: controller.signal,
      });
      const text = await readLimitedBody(res, url.host, maxResponseBytes);
      return { status: res.statusCode, headers: flattenHeaders(res.headers), text, ms: Math.round(monotonicMs() - started) };
    } catch (err) {
      if (opts.signal?.aborted) throw new InterruptedError('interrupted');
      if (opts.closing?.aborted) throw abandoned();
      // An answer we refuse (too large) is the gateway's doing, not the connection's: never retried.
      if (err instanceof PgwError && !timedOut) throw err;
      throw new AttemptFailure(err, timedOut);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', interrupt);
      opts.closing?.removeEventListener('abort', abandon);
    }
  }

  async function backOff(log: ((line: string) => void) | undefined, retries: number, retryAfter: string | undefined, why: string): Promise<void> {
    const delay = retryDelay(retries + 1, retryAfter, policy, random, Date.now());
    if (log) logNote(log, secret, `${why}: retry ${retries + 1} of ${policy.maxRetries} in ${delay} ms`);
    await untilClosing(sleep(delay));
    if (opts.closing?.aborted) throw abandoned();
  }

  /** A wait that ends early when the run is over: a retry no one will read is not waited for. */
  function untilClosing(wait: Promise<void>): Promise<void> {
    const closing = opts.closing;
    if (!closing) return wait;
    if (closing.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        closing.removeEventListener('abort', done);
        resolve();
      };
      closing.addEventListener('abort', done, { once: true });
      void wait.then(done, done);
    });
  }

  /**
   * A request carrying card data scrubs its number and CVV from every log line and error, even
   * where a gateway quotes them back in free text.
   */
  async function send<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const res = await sendRaw<T>(req);
    if (!opts.plainStrings) return res;
    const envelope = stripControlsDeep(res.envelope);
    return { ...res, envelope, data: envelope.data };
  }

  async function sendRaw<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const card = cardValuesOf(req.body);
    if (!hasCardValues(card)) return exchange<T>(req, baseLog);
    opts.onCard?.(card);
    const log = baseLog && ((line: string) => baseLog(scrubCardText(line, card)));
    let res: ApiResponse<T>;
    try {
      res = await exchange<T>(req, log);
    } catch (err) {
      throw scrubCardError(err, card);
    }
    // A success that quotes the card back is scrubbed too: JSON output prints the data as it came.
    const envelope = scrubCardData(res.envelope, card);
    return { ...res, envelope, data: envelope.data };
  }

  async function exchange<T>(req: ApiRequest, log: ((line: string) => void) | undefined): Promise<ApiResponse<T>> {
    const url = urlFor(req);
    // A form's file bytes are sent, never logged: the log and the preview show each part's name,
    // file name, type and size (form.ts describeForm).
    const boundary = req.form === undefined ? undefined : formBoundary();
    const headers = headersFor(req, boundary);
    const payload = req.form !== undefined ? encodeForm(req.form, boundary!) : req.body === undefined ? undefined : JSON.stringify(req.body);
    const logged = req.form !== undefined ? describeForm(req.form) : req.body;
    for (let retries = 0; ; retries++) {
      if (log) logRequest(log, secret, { method: req.method, url: url.toString(), headers, body: logged });
      let raw: RawResponse;
      try {
        raw = await attempt(req.method, url, headers, payload);
      } catch (err) {
        if (!(err instanceof AttemptFailure)) throw err;
        const kind: FailureKind = err.timedOut ? 'timeout' : failureKind(err.cause);
        const error = networkError(err.cause, { url, timeoutMs, timedOut: err.timedOut, secret });
        if (log) logNote(log, secret, error.message);
        if (shouldRetry(req.method, { failure: kind }, retries, policy)) {
          await backOff(log, retries, undefined, 'connection failed');
          continue;
        }
        if (req.method !== 'GET' && mayHaveArrived(err.cause, err.timedOut)) throw outcomeUnknown(error, req.method, url.pathname);
        throw error;
      }
      if (log) logResponse(log, secret, raw);
      if (shouldRetry(req.method, { status: raw.status }, retries, policy)) {
        await backOff(log, retries, raw.headers['retry-after'], `gateway answered ${raw.status}`);
        continue;
      }
      return interpret<T>(raw, secret);
    }
  }

  return {
    baseUrl: base,
    send,
    async request<T>(req: ApiRequest): Promise<T> {
      return (await send<T>(req)).data;
    },
    preview(req: ApiRequest): RequestPreview {
      const card = cardValuesOf(req.body);
      if (hasCardValues(card)) opts.onCard?.(card);
      const preview: RequestPreview = {
        method: req.method,
        url: redactText(urlFor(req).toString(), secret),
        headers: redactHeaders(headersFor(req), secret),
      };
      if (req.form !== undefined) preview.body = redactBody(describeForm(req.form), secret);
      else if (req.body !== undefined) preview.body = redactBody(req.body, secret);
      return preview;
    },
  };
}

/** Success is a 2xx carrying `{success: true, message, data}`; unknown fields pass through untouched. */
function interpret<T>(raw: RawResponse, secret: string | undefined): ApiResponse<T> {
  const { status, headers } = raw;
  if (status < 200 || status > 299) throw errorFromResponse(status, raw.text, headers, { secret });
  if (status === 204) {
    const envelope: Envelope<T> = { success: true, data: null as T };
    return { status, headers, envelope, data: envelope.data };
  }
  let parsed: unknown;
  try {
    parsed = parseJsonText(raw.text);
  } catch (err) {
    const deep = /levels deep/.test((err as Error).message);
    throw unexpectedResponse(status, raw.text.trim() === '' ? 'an empty body' : deep ? `a body ${(err as Error).message}` : 'a non-JSON body');
  }
  // vendor 2.3 (and the settlements list, beyond 4.1): a list page may come without the envelope,
  // count/results at the top level. Read as the envelope's data, so list commands see one shape.
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && (parsed as Envelope).success === undefined && Array.isArray((parsed as { results?: unknown }).results)) {
    const envelope = { success: true, data: parsed } as Envelope<T>;
    return { status, headers, envelope, data: envelope.data };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || typeof (parsed as Envelope).success !== 'boolean') {
    throw unexpectedResponse(status, 'a body that is not the {success, message, data} envelope');
  }
  const envelope = parsed as Envelope<T>;
  if (!envelope.success) throw errorFromResponse(status, envelope, headers, { secret });
  return { status, headers, envelope, data: envelope.data };
}

/** Every string (and key) with its control characters removed: see ClientOptions.plainStrings. */
function stripControlsDeep<T>(value: T): T {
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return plainText(v);
    if (Array.isArray(v)) return v.map(visit);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [plainText(k), visit(x)]));
  };
  return visit(value) as T;
}

function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`invalid base URL "${value}": expected an address like https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`invalid base URL "${value}": only http and https are supported`);
  }
  if (url.search || url.hash) throw new UsageError(`invalid base URL "${value}": it may not carry a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
