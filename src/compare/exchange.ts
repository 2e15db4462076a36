// One request of the compare scenario to one side, and its answer kept whole: unlike the HTTP core
// (api/client.ts), an error is not turned into a typed error here, because the refusal itself is
// what is compared, and nothing is retried (each step is one request to each side: the count the
// command states). The headers are spec part 5's, as the HTTP core sends them; -v logs each
// exchange through the same redaction (api/verbose.ts).
import type { Dispatcher } from 'undici';
import { readLimitedBody } from '../api/body.js';
import { networkError } from '../api/errors.js';
import { InterruptedError } from '../errors.js';
import { logNote, logRequest, logResponse } from '../api/verbose.js';
import { parseJsonText } from '../safety/json-reason.js';
import { monotonicMs } from '../monotonic.js';
import type { Answer } from './shape.js';
import type { StepRequest } from './scenario.js';

export type SideName = 'sandbox' | 'gateway';

export interface Side {
  name: SideName;
  baseUrl: string;
  dispatcher: Dispatcher;
  clientId?: string;
  clientSecret?: string;
  apiVersion: string;
  merchantId?: string;
  timeoutMs: number;
  userAgent: string;
  /** -v: one call per line, already redacted. */
  log?: (line: string) => void;
}

/** One request and its answer, as a recording keeps them (record.ts removes what must not stay). */
export interface Exchange {
  step: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  response: { status: number; ms: number; headers: Record<string, string>; body: unknown };
}

export interface Sent {
  answer: Answer;
  /** The parsed body, or the text when it was not JSON. */
  body: unknown;
  exchange: Exchange;
}

/** Spec part 5: the client pair; X-API-Version on /pg/; X-Merchant-ID except on /partners/ (rule 1). */
export function headersFor(side: Side, req: StepRequest): Record<string, string> {
  const headers: Record<string, string> = { 'User-Agent': side.userAgent, Accept: 'application/json' };
  if (side.clientId) headers['X-Client-ID'] = side.clientId;
  if (side.clientSecret) headers['X-Client-Secret'] = side.clientSecret;
  if (req.path.startsWith('/pg/')) headers['X-API-Version'] = req.apiVersion ?? side.apiVersion;
  if (side.merchantId && !req.path.startsWith('/partners/')) headers['X-Merchant-ID'] = side.merchantId;
  if (req.body !== undefined) headers['Content-Type'] = 'application/json';
  return headers;
}

/**
 * Sends one request and reads the whole answer. A transport failure (refused, reset, timed out)
 * throws the HTTP core's NetworkError (exit 3): the comparison cannot go on without the answer.
 */
export async function send(side: Side, step: string, req: StepRequest, signal?: AbortSignal): Promise<Sent> {
  const url = new URL(`${side.baseUrl.replace(/\/+$/, '')}${req.path}`);
  const headers = headersFor(side, req);
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  const log = side.log;
  if (signal?.aborted) throw new InterruptedError('interrupted');
  if (log) logRequest(log, side.clientSecret, { method: req.method, url: url.toString(), headers, body: req.body });
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`request timed out after ${side.timeoutMs} ms`));
  }, side.timeoutMs);
  const interrupt = (): void => controller.abort(new InterruptedError('interrupted'));
  signal?.addEventListener('abort', interrupt, { once: true });
  const started = monotonicMs();
  let status: number;
  let responseHeaders: Record<string, string>;
  let text: string;
  try {
    const res = await side.dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers,
      body: payload,
      headersTimeout: side.timeoutMs,
      bodyTimeout: side.timeoutMs,
      signal: controller.signal,
    });
    text = await readLimitedBody(res, url.host);
    status = res.statusCode;
    responseHeaders = flatten(res.headers);
  } catch (err) {
    if (signal?.aborted) throw new InterruptedError('interrupted'); // Ctrl-C: exit 130
    if ((err as { exitCode?: number }).exitCode !== undefined) throw err; // readLimitedBody's refusal
    const error = networkError(err, { url, timeoutMs: side.timeoutMs, timedOut, secret: side.clientSecret });
    if (log) logNote(log, side.clientSecret, error.message);
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', interrupt);
  }
  const ms = Math.round(monotonicMs() - started);
  if (log) logResponse(log, side.clientSecret, { status, ms, headers: responseHeaders, text });
  let json: unknown;
  try {
    json = text.trim() === '' ? undefined : parseJsonText(text);
  } catch {
    json = undefined;
  }
  const contentType = responseHeaders['content-type']?.split(';')[0]?.trim();
  const answer: Answer = json === undefined ? { status, contentType: contentType ?? (text.trim() === '' ? 'empty' : undefined) } : { status, json };
  const body = json === undefined ? text : json;
  return {
    answer,
    body,
    exchange: {
      step,
      request: { method: req.method, url: url.toString(), headers, ...(req.body === undefined ? {} : { body: req.body }) },
      response: { status, ms, headers: responseHeaders, body },
    },
  };
}

function flatten(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
