// The transport to pgw's own sandbox when it runs in this process (the `local` profiles): the
// Dispatcher.request() that src/api/client.ts calls, over node:http, whose client is already loaded
// with the sandbox's server. Everything above the transport (headers, envelope, deadline, retries,
// redaction, --verbose) is the same HTTP core as for a remote gateway.
//
// Why not undici here (issue 7): for one look-up, importing undici, compiling its WebAssembly
// HTTP parser and closing its pool cost ~35 ms, node:http ~10 ms; the embedded sandbox is where
// every fresh install starts. Remote gateways keep undici (src/api/agent.ts).
import { Agent, request } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';

export interface LoopbackDispatcher {
  request(opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  close(): Promise<void>;
}

/**
 * `connect`, when given, makes each connection in memory straight into the sandbox's server
 * (src/sandbox/memory-socket.ts, issue 23): HTTP/1.1 both ways as before, without a socket.
 */
export function createLoopbackDispatcher(connect?: () => Duplex): LoopbackDispatcher {
  // Keep-alive, as undici's pool: a bulk run reuses its connections (64: lookup.ts's most in flight).
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  if (connect) Object.assign(agent, { createConnection: () => connect() });
  return {
    request(opts) {
      return new Promise((resolve, reject) => {
        const url = new URL(opts.path, opts.origin);
        // The client's deadline aborts `signal`, which bounds headers and body alike; so undici's
        // headersTimeout/bodyTimeout have no counterpart here.
        const req = request(
          url,
          { method: opts.method, headers: opts.headers as Record<string, string>, agent, signal: opts.signal as AbortSignal | undefined },
          (res) => {
            // The response stream is what client.ts reads (async iteration, destroy, 'error').
            resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res } as unknown as Dispatcher.ResponseData);
          },
        );
        req.on('error', reject);
        req.end(opts.body as string | Buffer | undefined);
      });
    },
    async close() {
      agent.destroy();
    },
  };
}
