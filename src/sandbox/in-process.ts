// pgw's own requests to its embedded sandbox (the `local` profiles), carried in the process: the
// Dispatcher.request() that src/api/client.ts calls hands each request straight to the sandbox's
// request pipeline (pipeline.ts) and turns its answer back into what undici would have returned.
// No socket, no port, no HTTP parser on either side: for one look-up, node:http's client and
// server, their parsers and a listening socket were ~40 ms of a 140 ms run on Node 24 (issue 23).
// Everything above the transport (headers, envelope, deadline, retries, redaction, --verbose) is
// the HTTP core a remote gateway gets; everything below (routing, auth, faults, envelopes) is the
// pipeline `pgw sandbox serve` runs. test/sandbox/in-process.test.ts holds the two side by side.
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { SandboxRequest, SandboxResponse } from './exchange.js';
import type { RequestHandler } from './pipeline.js';

export interface InProcessDispatcher {
  request(opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

/** What a client sees when the sandbox drops a request (a `drop` or after-commit fault): as over TCP. */
function hangUp(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error('This operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** Lower-case names as node:http gives a server; repeated names joined as it joins them. */
function requestHeaders(given: Dispatcher.RequestOptions['headers'], host: string, body: Buffer | undefined): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { host };
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    const seen = out[key];
    out[key] = seen === undefined || key === 'host' ? text : `${String(seen)}, ${text}`;
  };
  if (Array.isArray(given)) {
    for (let i = 0; i + 1 < given.length; i += 2) add(String(given[i]), given[i + 1]);
  } else if (given && typeof (given as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of given as Iterable<[string, string | string[] | undefined]>) add(name, value);
  } else if (given) {
    for (const [name, value] of Object.entries(given)) add(name, value);
  }
  // A body is framed by its length, as undici frames a string or Buffer body: the pipeline reads
  // a body only when the request declares one (RFC 9112 6.3).
  if (body !== undefined) out['content-length'] = String(body.length);
  else delete out['content-length'];
  return out;
}

function bodyBuffer(body: Dispatcher.RequestOptions['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // pgw's HTTP core sends JSON text only; a stream body would need reading first.
  throw new TypeError('the in-process sandbox takes a string or Buffer body');
}

/** The request as the pipeline reads it: its body is delivered once something listens for it. */
class InProcessRequest extends EventEmitter implements SandboxRequest {
  readonly socket: { destroy(): void };
  private scheduled = false;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: IncomingHttpHeaders,
    private readonly body: Buffer | undefined,
    onDrop: () => void,
  ) {
    super();
    this.socket = { destroy: onDrop };
  }

  override on(event: string | symbol, listener: (...args: any[]) => void): this {
    super.on(event, listener);
    // The pipeline reads the body (data, then end) after routing, perhaps after loading a handler.
    if (!this.scheduled && (event === 'data' || event === 'end')) {
      this.scheduled = true;
      queueMicrotask(() => {
        if (this.body !== undefined && this.body.length > 0) this.emit('data', this.body);
        this.emit('end');
      });
    }
    return this;
  }
}

/** The answer, collected: status and headers as writeHead/setHeader gave them, the body from end(). */
class InProcessResponse implements SandboxResponse {
  statusCode = 200;
  headersSent = false;
  private readonly headers: Record<string, string | string[]> = {};
  private finished: (() => void)[] = [];

  constructor(private readonly settle: (res: InProcessResponse, body: Buffer | undefined, dropped: boolean) => void) {}

  setHeader(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  writeHead(status: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    this.statusCode = status;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) this.put(String(headers[i]), headers[i + 1]);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) this.put(name, value);
    }
    this.headersSent = true;
    return this;
  }

  end(body?: string | Buffer): this {
    this.headersSent = true;
    this.settle(this, body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body), false);
    const finished = this.finished;
    this.finished = [];
    for (const f of finished) queueMicrotask(f);
    return this;
  }

  destroy(): this {
    this.settle(this, undefined, true);
    return this;
  }

  on(_event: 'finish', listener: () => void): this {
    this.finished.push(listener);
    return this;
  }

  responseHeaders(): Record<string, string | string[]> {
    return this.headers;
  }

  private put(name: string, value: OutgoingHttpHeader | undefined): void {
    if (value === undefined) return;
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
  }
}

/**
 * A body that reads like undici's where pgw reads it (src/api/body.ts): async iteration, 'error',
 * destroy(); and dump() and text() for other callers. Not a node:stream Readable: the answer is
 * already whole, and node:stream is ~3 ms to load in a run whose output goes to a pipe (issue 23).
 */
class InProcessBody {
  private destroyed = false;

  constructor(private readonly bytes: Buffer | undefined) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    if (!this.destroyed && this.bytes !== undefined && this.bytes.length > 0) yield this.bytes;
  }

  /** Nothing can fail once the answer is whole: listeners are accepted and never called. */
  on(_event: string, _listener: (...args: unknown[]) => void): this {
    return this;
  }

  destroy(): this {
    this.destroyed = true;
    return this;
  }

  async dump(): Promise<void> {
    this.destroyed = true;
  }

  async text(): Promise<string> {
    return this.destroyed || this.bytes === undefined ? '' : this.bytes.toString('utf8');
  }
}

function responseBody(bytes: Buffer | undefined): Dispatcher.ResponseData['body'] {
  return new InProcessBody(bytes) as unknown as Dispatcher.ResponseData['body'];
}

export function inProcessDispatcher(handle: RequestHandler): InProcessDispatcher {
  let closed = false;
  return {
    request(opts) {
      return new Promise((resolve, reject) => {
        if (closed) {
          reject(Object.assign(new Error('the embedded sandbox is closed'), { code: 'UND_ERR_DESTROYED' }));
          return;
        }
        const signal = opts.signal as AbortSignal | undefined;
        if (signal?.aborted) {
          reject(abortReason(signal));
          return;
        }
        let done = false;
        const onAbort = (): void => finish(() => reject(abortReason(signal!)));
        const finish = (then: () => void): void => {
          if (done) return;
          done = true;
          signal?.removeEventListener('abort', onAbort);
          then();
        };
        signal?.addEventListener('abort', onAbort, { once: true });

        const body = bodyBuffer(opts.body);
        const host = new URL(opts.origin ?? 'http://embedded-sandbox').host;
        const res = new InProcessResponse((answered, bytes, dropped) =>
          finish(() =>
            dropped
              ? reject(hangUp())
              : resolve({
                  statusCode: answered.statusCode,
                  headers: answered.responseHeaders(),
                  body: responseBody(opts.method === 'HEAD' ? undefined : bytes),
                } as unknown as Dispatcher.ResponseData),
          ),
        );
        const req = new InProcessRequest(opts.method, opts.path, requestHeaders(opts.headers, host, body), body, () => res.destroy());
        handle(req, res);
      });
    },
    async close() {
      closed = true;
    },
  };
}
