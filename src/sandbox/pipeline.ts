// The sandbox's request pipeline: one request at a time through the router. Bodies up to 1 MiB;
// every failure is an envelope (spec part 7), and no input can crash the process. It knows no
// transport: server.ts feeds it node:http's requests (`pgw sandbox serve`), in-process.ts pgw's
// own requests to its embedded sandbox (issue 23).
import type { SandboxRequest, SandboxResponse } from './exchange.js';
import { apiMajor } from '../api/schemas/version.js';
import type { Clock } from '../api/schemas/orders.js';
import { Caller, authenticate } from './auth.js';
import { internalError, sendBytes, sendError, sendJson, successBody, successBytes } from './envelope.js';
import { SandboxError } from './errors.js';
import type { PagesHandler } from './pages-hook.js';
import { buildRouter, matchDocument, matchPage } from './routes.js';
import { isMultipart } from './multipart.js';
import { serveDocument } from './documents-route.js';
import type { MerchantRow, Store } from './store.js';
import type { Handler, Reply, RequestContext } from './handlers/types.js';
import type { FoundRoute } from './router.js';
import { jsonReason } from '../safety/json-reason.js';
import { wellFormedJsonText } from '../safety/well-formed-json.js';
import { handleCors } from './cors.js';
import { noteAccount } from './request-log.js';
import { NO_FAULT, armedFaultFor, faultAnswer, firingFault } from './faults.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const NO_BODY = Buffer.alloc(0);
/** Bodies up to this size are read and discarded before the 413, so the client sees the answer. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;
export const DEFAULT_API_VERSION = '3.0.0';
const DEFAULT_VERSION = { version: DEFAULT_API_VERSION, major: 3 as const };

export interface PipelineOptions {
  store: Store;
  /** Base address of this server (from the listening socket), the fallback for page addresses. */
  baseUrl: () => string;
  /** Fixed address for buyer pages (payment_link, acs_template); default: from the Host header. */
  publicBaseUrl?: string;
  /**
   * One clock for every request's date rules (tests); default: each caller's own account tree's
   * sandbox clock (store.clockFor), the default clock for public routes.
   */
  now?: Clock;
  production?: boolean;
  pages?: PagesHandler;
  /** Where unexpected failures are told, with their stack. */
  log?: (line: string) => void;
  /** Origins allowed besides loopback ones (--cors-origin; cors.ts). */
  corsOrigins?: readonly string[];
  /**
   * The embedded sandbox runs inside pgw on the user's own machine: an unexpected failure (a
   * read-only or full database file) is explained in the 500's details, naming the file, instead
   * of the bare "Internal server error" a network server gives strangers.
   */
  explainFailures?: { database: string };
  /** Snapshots over HTTP cover the whole database, not the caller's data (--allow-global-snapshots). */
  allowGlobalSnapshots?: boolean;
}

function tooLarge(closeAfter: boolean, limit: number): SandboxError {
  return new SandboxError(
    413,
    'ERR_REQUEST_001',
    'Request body too large',
    { body: `at most ${limit} bytes` },
    closeAfter ? { connection: 'close' } : undefined,
  );
}

/** The body, up to `limit` bytes (a route may allow more than MAX_BODY_BYTES: router.ts RouteOptions). */
function readBody(req: SandboxRequest, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const drainLimit = Math.max(DRAIN_LIMIT_BYTES, 4 * limit);
  return new Promise((resolve, reject) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && /^[0-9]+$/.test(declared) && Number(declared) > drainLimit) {
      reject(tooLarge(true, limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > drainLimit) reject(tooLarge(true, limit));
    });
    req.on('end', () => (size > limit ? reject(tooLarge(false, limit)) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

/**
 * No Content-Length and no Transfer-Encoding: the request has no body (RFC 9112 6.3), so a GET
 * does not wait for an 'end' event; Node discards anything unread when the answer ends.
 */
function bodiless(req: SandboxRequest): boolean {
  return req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  // A lone surrogate escape would be stored as three U+FFFD: one, as toWellFormed() gives. The
  // rewrite keeps every length, so a refusal's line and column are those of the text as sent.
  const text = wellFormedJsonText(raw.toString('utf8'));
  try {
    return JSON.parse(text);
  } catch (err) {
    // Never quote the body back: it may hold a card number (jsonReason keeps no piece of it).
    throw new SandboxError(400, 'ERR_REQUEST_000', 'Malformed JSON', { body: `not valid JSON: ${jsonReason((err as Error).message, text)}` });
  }
}

/** spec part 9 + docs/sandbox.md: absent means 3.0.0; 1.x.x, 2.x.x and 3.x.x are served; else 400. */
function apiVersion(req: SandboxRequest): { version: string; major: 1 | 2 | 3 } {
  const raw = req.headers['x-api-version'];
  const version = (Array.isArray(raw) ? raw[0] : raw)?.trim() || DEFAULT_API_VERSION;
  const major = apiMajor(version);
  if (major === undefined) {
    throw new SandboxError(400, 'ERR_VERSION_000', 'Unsupported API version', {
      'X-API-Version': `${version} is not supported: use 1.x.x, 2.x.x or 3.x.x (default 3.0.0)`,
    });
  }
  return { version, major };
}

/**
 * An origin-form target with nothing to normalise: its path is the URL's pathname as sent. Single
 * character classes only (linear time on any input); dot segments and `//` go to URL.
 */
const PLAIN_TARGET = /^(\/[\w~.\/-]*)(?:\?([\w.~%=&+:@!$'()*,;\/-]*))?$/;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;

/** Path and query of a request target; the query is parsed only when a handler reads it. */
export class RequestTarget {
  private parsed?: URLSearchParams;

  constructor(
    readonly path: string,
    private readonly search: string | URLSearchParams,
  ) {}

  get query(): URLSearchParams {
    return (this.parsed ??= typeof this.search === 'string' ? new URLSearchParams(this.search) : this.search);
  }
}

/**
 * The common case is split directly; anything else (dot segments, escapes, an absolute form) goes
 * through URL, which normalises it (~3 µs a request).
 */
export function requestTarget(target: string): RequestTarget {
  const plain = PLAIN_TARGET.exec(target);
  if (plain && !plain[1]!.includes('//') && !DOT_SEGMENT.test(plain[1]!)) {
    return new RequestTarget(plain[1]!, plain[2] ?? '');
  }
  try {
    const url = new URL(target, 'http://sandbox.invalid');
    return new RequestTarget(url.pathname, url.searchParams);
  } catch {
    throw new SandboxError(400, 'ERR_REQUEST_002', 'Malformed request address');
  }
}

const HOST_PATTERN = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/;

/** What a handler sees of its request (handlers/types.ts); the Host check runs only if it is read. */
class Context implements RequestContext {
  constructor(
    readonly req: SandboxRequest,
    readonly params: Record<string, string>,
    private readonly target: RequestTarget,
    readonly body: unknown,
    readonly rawBody: Buffer,
    readonly isMultipart: boolean,
    readonly caller: Caller,
    readonly store: Store,
    readonly apiMajor: 1 | 2 | 3,
    readonly apiVersion: string,
    readonly now: Clock,
    readonly production: boolean,
    private readonly base: (req: SandboxRequest) => string,
    readonly allowGlobalSnapshots: boolean,
  ) {}

  get query(): URLSearchParams {
    return this.target.query;
  }

  /** Built only by the handlers that use it (links, orders): a GET payment skips the Host check. */
  get publicBaseUrl(): string {
    return this.base(this.req);
  }
}

/** The caller of a public route: there is none, and a public handler never asks. */
const NO_CALLER = null as unknown as Caller;

/** A request, answered on its response; never throws (every failure becomes an envelope). */
export type RequestHandler = (req: SandboxRequest, res: SandboxResponse) => void;

export function createRequestHandler(opts: PipelineOptions): RequestHandler {
  const router = buildRouter({ production: opts.production === true });
  const production = opts.production === true;
  const allowGlobal = opts.allowGlobalSnapshots === true;
  /** Answers an after-commit fault swallows (faults.ts). */
  const lost = new WeakSet<SandboxResponse>();
  // The buyer pages are for browsers only: loaded on the first page request.
  const pages: PagesHandler = opts.pages ?? (async (page) => (await import('./pages/handler.js')).buyerPages(page));

  const defaultClock: Clock = () => new Date(Math.floor(opts.store.nowMicros(null) / 1000));

  const publicBase = (req: SandboxRequest): string => {
    if (opts.publicBaseUrl) return opts.publicBaseUrl;
    const host = req.headers.host;
    return host && HOST_PATTERN.test(host) ? `http://${host}` : opts.baseUrl();
  };

  async function answerPage(req: SandboxRequest, res: SandboxResponse, page: NonNullable<ReturnType<typeof matchPage>>, method: string): Promise<void> {
    const body = await readBody(req);
    await pages({ ...page, method, req, res, body, store: opts.store, publicBaseUrl: publicBase(req) });
    if (!res.headersSent) throw new Error(`the ${page.kind} page did not answer`);
  }

  /**
   * Authenticates and runs the handler: synchronous, like the store. `arrived` is the account the
   * request's credentials named when the fault check read them: a write uses it rather than reading
   * it again once the body is in (its own IMMEDIATE transaction follows either way; a second read
   * after the body was ~3 % of a create in `sandbox serve`, issue 23). A GET is given it only from
   * its own snapshot (`handle`).
   */
  function replyTo(req: SandboxRequest, res: SandboxResponse, target: RequestTarget, match: FoundRoute, handler: Handler, raw: Buffer, arrived?: MerchantRow): Reply | Promise<Reply> {
    // GET /sandbox/health/ answers without credentials (issue 24): it says only that the
    // database is open and migrated, the version, engine and clock; nothing of any account.
    if (match.access === 'public') return handler(new Context(req, match.params, target, undefined, NO_BODY, false, NO_CALLER, opts.store, 3, DEFAULT_API_VERSION, opts.now ?? defaultClock, production, publicBase, allowGlobal));
    const account = arrived ?? authenticate(opts.store, req.headers);
    noteAccount(res, account.seed_role ?? account.merchant_id);
    if (match.access === 'partner' && account.is_psp !== 1) {
      // vendor 7.1, 9.2: 403 ERR_AUTH_003 for a caller that is not a PSP.
      throw new SandboxError(403, 'ERR_AUTH_003', 'This endpoint is only accessible to PSP merchants', {
        authentication: 'this account is not a payment service provider',
      });
    }
    const version = match.access === 'pg' ? apiVersion(req) : DEFAULT_VERSION;
    const caller = new Caller(account, opts.store, req.headers);
    const now = opts.now ?? opts.store.clockFor(account.merchant_id);
    // multipart/form-data (the document upload, vendor 11.1): the handler reads the parts itself.
    const multipart = isMultipart(req.headers['content-type']);
    const context = new Context(req, match.params, target, multipart ? undefined : parseJson(raw), raw, multipart, caller, opts.store, version.major, version.version, now, production, publicBase, allowGlobal);
    return handler(context);
  }

  /** Runs the handler and writes its answer. */
  function answer(req: SandboxRequest, res: SandboxResponse, method: string, target: RequestTarget, match: FoundRoute, handler: Handler, raw: Buffer, arrived?: MerchantRow): Promise<void> | undefined {
    // A read answers from one snapshot: authentication and the handler's queries share one read
    // transaction (each transaction takes and releases a lock on the WAL index: two syscalls).
    // Writes open their own IMMEDIATE transaction in the store, so they are not wrapped.
    const reply = method === 'GET' ? opts.store.db.read(() => replyTo(req, res, target, match, handler, raw)) : replyTo(req, res, target, match, handler, raw, arrived);
    // A write that waits for deliveries (clock advance, events resend) answers once they are made.
    if (reply instanceof Promise) return reply.then((r) => send(res, r));
    send(res, reply);
    return undefined;
  }

  function send(res: SandboxResponse, reply: Reply): void {
    // An after-commit fault (faults.ts): the change is made, then the answer is lost.
    if (lost.has(res)) {
      res.destroy();
      return;
    }
    if (reply.json !== undefined) sendBytes(res, reply.status ?? 200, successBytes(reply.message, reply.json));
    else sendJson(res, reply.status ?? 200, { ...reply.top, ...successBody(reply.message, reply.data) });
  }

  /**
   * Answers one request. A request without a body to a route whose handler is loaded (every GET
   * after the first) is answered synchronously: no promise per request. Otherwise a promise.
   */
  function handle(req: SandboxRequest, res: SandboxResponse): Promise<void> | undefined {
    const method = req.method ?? 'GET';
    const target = requestTarget(req.url ?? '/');
    const path = target.path;

    const page = matchPage(method, path);
    if (page) return answerPage(req, res, page, method);
    const documentId = matchDocument(method, path);
    if (documentId) return serveDocument(opts.store, res, documentId, target.query);

    const match = router.match(method, path);
    if (match.kind === 'none') {
      const hint = router.knowsWithSlash(path) ? `${path}/ (paths end with a slash)` : undefined;
      throw new SandboxError(404, 'ERR_NOT_FOUND_000', 'Not found', {
        path: hint ? `no operation at ${path}; did you mean ${hint}?` : `no operation at ${path}`,
      });
    }
    if (match.kind === 'method') {
      throw new SandboxError(405, 'ERR_METHOD_000', 'Method not allowed', { method: `${method} is not allowed; use ${match.allowed.join(', ')}` }, { allow: match.allowed.join(', ') });
    }

    // The common GET (no body, its handler loaded) is answered from one snapshot: the fault check,
    // authentication and the handler's queries share one read, so a request costs one commit
    // check (db.ts syncEpoch: a pread), not two. A fault that would fire is a write (its count
    // moves): that GET leaves the snapshot unanswered and takes the way below.
    if (method === 'GET' && !production && bodiless(req)) {
      const handler = match.loaded();
      if (handler) {
        const reply = opts.store.db.read(() => {
          const armed = armedFaultFor(opts.store, req.headers, method, path);
          return armed.candidate ? undefined : replyTo(req, res, target, match, handler, NO_BODY, armed.account);
        });
        if (reply !== undefined) {
          send(res, reply as Reply); // db.read refuses a promise
          return undefined;
        }
      }
    }

    // Faults armed by the caller's account (issue 24; faults.ts): checked before anything runs.
    const { fault, account } = production ? NO_FAULT : firingFault(opts.store, req.headers, method, path);
    if (fault) {
      // A fault fires only for the account that armed it: the log names that account, not `-`
      // (which says nobody authenticated), though the handler that notes it never runs.
      if (account) noteAccount(res, account.seed_role ?? account.merchant_id);
      if (fault.kind === 'status') throw faultAnswer(fault);
      if (fault.kind === 'drop') {
        res.destroy();
        return undefined;
      }
      if (fault.kind === 'after_commit') lost.add(res);
      else return new Promise<void>((resolve) => setTimeout(resolve, fault.delay_ms ?? 0)).then(() => dispatch(req, res, method, target, match, account));
    }
    return dispatch(req, res, method, target, match, account);
  }

  function dispatch(req: SandboxRequest, res: SandboxResponse, method: string, target: RequestTarget, match: FoundRoute, account?: MerchantRow): Promise<void> | undefined {
    const noBody = bodiless(req);
    const handler = match.loaded();
    if (noBody && handler) return answer(req, res, method, target, match, handler, NO_BODY);
    return (async () => {
      const raw = noBody ? NO_BODY : await readBody(req, match.maxBodyBytes);
      await answer(req, res, method, target, match, handler ?? (await match.load()), raw, account);
    })();
  }

  function fail(req: SandboxRequest, res: SandboxResponse, err: unknown): void {
    if (!(err instanceof SandboxError)) {
      opts.log?.(`sandbox: unexpected failure on ${req.method} ${req.url}: ${(err as Error)?.stack ?? String(err)}`);
    }
    if (lost.has(res)) {
      res.destroy();
      return;
    }
    const e = err instanceof SandboxError ? err : internalError(opts.explainFailures && { database: opts.explainFailures.database, cause: failureCause(err) });
    try {
      sendError(res, e);
      if (e.headers?.connection === 'close') res.on('finish', () => req.socket.destroy());
    } catch {
      req.socket.destroy();
    }
  }

  const corsOrigins = opts.corsOrigins ?? [];
  return (req, res) => {
    try {
      if (handleCors(req, res, corsOrigins)) return;
      handle(req, res)?.catch((err: unknown) => fail(req, res, err));
    } catch (err) {
      fail(req, res, err);
    }
  };
}

/** `attempt to write a readonly database (SQLITE_READONLY)`: the message and the error's code. */
function failureCause(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
