// The sandbox on the network (`pgw sandbox serve`, and tests): node:http in front of the request
// pipeline (pipeline.ts), with the request log and the answer to bytes that are not HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequestHandler, type PipelineOptions } from './pipeline.js';
import { monotonicMs } from '../monotonic.js';

export { requestTarget, RequestTarget, MAX_BODY_BYTES, DEFAULT_API_VERSION } from './pipeline.js';

export interface SandboxServerOptions extends PipelineOptions {
  /** Called with every request (request-log.ts: `sandbox serve`'s log line). */
  requestLog?: (req: IncomingMessage, res: ServerResponse) => void;
}

export function createSandboxServer(opts: SandboxServerOptions): Server {
  return serveHandler(createRequestHandler(opts), opts);
}

/** node:http in front of a pipeline already made (serve.ts passes the one openSandbox made). */
export function serveHandler(handle: ReturnType<typeof createRequestHandler>, opts: Pick<SandboxServerOptions, 'requestLog' | 'log'>): Server {
  const log = opts.log;
  const server = createServer((req, res) => {
    opts.requestLog?.(req, res);
    if (log && !opts.requestLog) {
      const started = monotonicMs();
      res.on('finish', () => log(`${req.method} ${req.url} → ${res.statusCode} (${Math.round(monotonicMs() - started)} ms)`));
    }
    handle(req, res);
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
