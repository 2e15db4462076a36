// The receiving end of `pgw listen`: an HTTP server on 127.0.0.1 that takes POSTed events,
// acknowledges each at once (so the sender never waits for, or retries because of, the developer's
// app) and hands the body and headers on. In sandbox mode only its secret path answers: a sender
// reaching the port after this listener has gone (someone else's server, or nothing) is told 404
// or refused, which is how the sandbox knows to drop the registration (src/sandbox/webhooks.ts).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Larger bodies are refused with 413: no webhook of this gateway comes near it. */
export const MAX_EVENT_BYTES = 1024 * 1024;

export interface ReceivedEvent {
  /** The body exactly as it arrived. */
  body: Buffer;
  /** The request's headers as sent, name/value pairs in order (req.rawHeaders). */
  rawHeaders: string[];
  path: string;
  receivedAt: Date;
}

export interface Receiver {
  port: number;
  /** http://127.0.0.1:<port><path>: what is registered with the sandbox. */
  url: string;
  /**
   * The stop begins (issue 45): no new connection is taken and any request still arriving is
   * answered 503, not acknowledged, so the sender logs it as not delivered (and it can be resent).
   */
  stopAccepting(): void;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  port: number;
  /** Answer only this path (sandbox mode); any path when absent (behind a tunnel). */
  path?: string;
  onEvent(event: ReceivedEvent): void;
  now?: () => Date;
}

export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const now = opts.now ?? (() => new Date());
  let stopping = false;
  const server: Server = createServer((req, res) => {
    if (stopping) {
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"this listener is stopping"}');
      return;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (opts.path !== undefined && path !== opts.path) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not this listener"}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' }).end('{"error":"POST events here"}');
      return;
    }
    readBody(req).then(
      (body) => {
        if (stopping) {
          res.writeHead(503, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"this listener is stopping"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        opts.onEvent({ body, rawHeaders: req.rawHeaders, path: req.url ?? '/', receivedAt: now() });
      },
      () => {
        if (!res.headersSent) res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"body too large"}');
      },
    );
  });
  // Senders keep connections alive; they must not hold the listener open once it is told to stop.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}${opts.path ?? '/'}`,
    stopAccepting() {
      stopping = true;
      server.close();
      server.closeIdleConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (!server.listening) resolve();
        else server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_EVENT_BYTES) {
        req.pause();
        reject(new Error('too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
