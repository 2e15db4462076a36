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
export function sendText(res: SandboxResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(text)), 'cache-control', 'no-store']);
  res.end(text);
}

export function successBody(message: string, data: unknown): { success: true; message: string; data: unknown } {
  return { success: true, message, data };
}

/** successBody(message, JSON.parse(json)) serialised, byte for byte as sendJson would write it. */
export function successText(message: string, json: string): string {
  return `{"success":true,"message":${JSON.stringify(message)},"data":${json}}`;
}

export function errorBody(err: SandboxError): { success: false; error: { code: string; message: string; details?: unknown } } {
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
