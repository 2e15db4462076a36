// What a handler receives and returns. Handlers are synchronous over the store and never write
// to the response themselves: the server wraps `data` in the success envelope.
import type { SandboxRequest } from '../exchange.js';
import type { Caller } from '../auth.js';
import type { Store } from '../store.js';
import type { Clock } from '../../api/schemas/orders.js';

export interface RequestContext {
  req: SandboxRequest;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none, or was multipart/form-data. */
  body: unknown;
  /** The body as sent (a multipart upload's parts are read from it: multipart.ts). */
  rawBody: Buffer;
  /** Content-Type multipart/form-data: `body` is undefined and the handler reads `rawBody`. */
  isMultipart: boolean;
  caller: Caller;
  store: Store;
  /** Where buyer pages live, for payment_link and acs_template addresses. */
  publicBaseUrl: string;
  /** Major version from X-API-Version (spec part 9); 3 when absent. */
  apiMajor: 1 | 2 | 3;
  apiVersion: string;
  /** The sandbox's clock, for date rules in the schemas. */
  now: Clock;
  /** Answer as production would for sandbox-only operations (spec 4.6, 4.7). */
  production: boolean;
  /** `sandbox serve --allow-global-snapshots`: snapshots over HTTP are of the whole database. */
  allowGlobalSnapshots: boolean;
}

export interface Reply {
  status?: number;
  message: string;
  data?: unknown;
  /** `data` already as JSON text (a cached answer): sent as is. */
  json?: string;
  /** Fields also put at the top level of the body, beside the envelope (beyond 4.1's list). */
  top?: Record<string, unknown>;
}

/**
 * A promise from a write that answers only after something else: webhook deliveries (clock advance,
 * events resend) or the commit of its group (order create, group-commit.ts).
 */
export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;
