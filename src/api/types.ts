// The HTTP core's public shape. Implemented in client.ts; commands depend only on this.
import type { Dispatcher } from 'undici';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiRequest {
  method: HttpMethod;
  /** Path relative to the base URL, e.g. `/pg/orders/` (spec part 4: paths end with a slash). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A multipart/form-data body instead of JSON (form.ts): text fields and files. */
  form?: FormField[];
}

/** One part of a multipart/form-data body: a text field, or a file with its bytes. */
export type FormField = { name: string; value: string } | { name: string; filename: string; contentType: string; data: Uint8Array };

/** Success envelope (spec part 2): success, message, data. Unknown fields pass through. */
export interface Envelope<T = unknown> {
  success: boolean;
  message?: string;
  data: T;
  [extra: string]: unknown;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  envelope: Envelope<T>;
  data: T;
}

/** What --dry-run prints: secret redacted, card number masked to first 6 / last 4, CVV removed. */
export interface RequestPreview {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** Send and return the envelope's `data`, or throw a typed error (errors.ts). */
  request<T = unknown>(req: ApiRequest): Promise<T>;
  /** Send and return status, headers and the whole envelope. */
  send<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
  /** The request as it would be sent, redacted for printing. Sends nothing. */
  preview(req: ApiRequest): RequestPreview;
}

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Retry-After above this is capped to it. */
  maxRetryAfterMs: number;
}

export interface ClientOptions {
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  apiVersion: string;
  merchantId?: string;
  timeoutMs: number;
  dispatcher: Dispatcher;
  userAgent: string;
  /** --verbose: one call per logged line, already redacted. */
  log?: (line: string) => void;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  /** Aborted on Ctrl-C: the request in flight ends with InterruptedError (exit 130). */
  signal?: AbortSignal;
  /**
   * Aborted when the run is over (its answer printed, pools about to close): a request still in
   * flight, such as the second half of a pair whose first half failed, ends at once and is never
   * retried against a server that is going away.
   */
  closing?: AbortSignal;
  random?: () => number;
  /**
   * Human output (tables, details): control characters, colour codes included, are removed from
   * every string of a success's data, so a gateway's escape sequence cannot ride on pgw's own
   * colouring to the terminal. JSON output keeps the data as it came (JSON escapes them).
   */
  plainStrings?: boolean;
  /** Told the card number and CVV of each request that carries them (the output guard hunts them). */
  onCard?: (card: { number?: string; cvv?: string }) => void;
  /** Responses larger than this are refused (default MAX_RESPONSE_BYTES in body.ts, 32 MiB). */
  maxResponseBytes?: number;
}
