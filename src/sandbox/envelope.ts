// Writing the envelopes: success (spec part 2) and error (spec part 7).
import type { SandboxResponse } from './exchange.js';
import type { Details } from './errors.js';
import { BareError, SandboxError } from './errors.js';

export function sendJson(res: SandboxResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** A success envelope already serialised (the hot GET path: headers as a flat array, no merge). */
export function sendBytes(res: SandboxResponse, status: number, bytes: Buffer): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, ['content-type', 'application/json; charset=utf-8', 'content-length', String(bytes.length), 'cache-control', 'no-store']);
  res.end(bytes);
}

/** At most this many envelopes per message; beyond it, start over. */
const MAX_ENVELOPES = 1000;
const envelopes = new Map<string, Map<string, Buffer>>();

/**
 * successText(message, json) as UTF-8 bytes, kept for the next time: `json` is a cached answer
 * (Reply.json, the GET payment cache), the same string until its payment changes, so a busy
 * server sends the same bytes again instead of joining, scanning and encoding ~1.5 kB of text a
 * request (issue 23). Keyed by that string; a changed payment is another key.
 */
export function successBytes(message: string, json: string): Buffer {
  let byJson = envelopes.get(message);
  if (!byJson) envelopes.set(message, (byJson = new Map()));
  let bytes = byJson.get(json);
  if (!bytes) {
    if (byJson.size >= MAX_ENVELOPES) byJson.clear();
    bytes = Buffer.from(successText(message, json), 'utf8');
    byJson.set(json, bytes);
  }
  return bytes;
}

export function successBody(message: string, data: unknown): { success: true; message: string; data: unknown } {
  return { success: true, message, data };
}

/** successBody(message, JSON.parse(json)) serialised, byte for byte as sendJson would write it. */
function successText(message: string, json: string): string {
  return `{"success":true,"message":${JSON.stringify(message)},"data":${json}}`;
}

export function errorBody(err: SandboxError): { success: false; error: { code: string | number; message: string; details?: unknown } } {
  return {
    success: false,
    error: { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) },
  };
}

export function sendError(res: SandboxResponse, err: SandboxError): void {
  sendJson(res, err.status, err instanceof BareError ? err.body : errorBody(err), err.headers);
}

/** Anything that is not a SandboxError is an unexpected failure: 500, with nothing internal leaked. */
export function internalError(details?: Record<string, unknown>): SandboxError {
  // vendor 9.2: any unexpected failure is 500 ERR_SERVICE_ERROR_000 with details.error.
  return new SandboxError(500, 'ERR_SERVICE_ERROR_000', 'Payment gateway error', { error: 'An unexpected error occurred. Please try again later', ...details });
}
