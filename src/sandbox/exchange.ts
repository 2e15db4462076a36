// What the sandbox's request pipeline (pipeline.ts) reads of a request and writes to a response.
// node:http's IncomingMessage and ServerResponse have all of it (`pgw sandbox serve`); so do the
// small in-process objects of in-process.ts, which carry pgw's own requests to its embedded
// sandbox without a socket or an HTTP parser (issue 23).
import type { IncomingHttpHeaders, OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';

export interface SandboxRequest {
  readonly method?: string;
  /** The request target as sent: path and query. */
  readonly url?: string;
  /** Lower-case names, as node:http gives them. */
  readonly headers: IncomingHttpHeaders;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  /** Closed after an answer that says `connection: close`. */
  readonly socket: { destroy(): unknown };
}

export interface SandboxResponse {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  /** Headers as an object, or as node:http's flat [name, value, ...] array. */
  writeHead(status: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): unknown;
  end(body?: string | Buffer): unknown;
  /** Drops the connection without an answer (faults.ts `drop`, an after-commit fault). */
  destroy(): unknown;
  on(event: 'finish', listener: () => void): unknown;
}
