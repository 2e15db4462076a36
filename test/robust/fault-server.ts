// A misbehaving gateway on 127.0.0.1 (port 0) for the fault suite: each server plays one fault and
// counts the attempts it sees, so a test can tell a retried request from a single one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Attempt {
  method: string;
  path: string;
  /** performance.now() when the request (or connection, for connection faults) arrived. */
  at: number;
}

export interface FaultContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** 0 for the first attempt this server sees, 1 for the next... */
  index: number;
  /** Runs `fn` every `ms` until the server closes. */
  every(ms: number, fn: () => void): void;
}

export interface Fault {
  /** Handle a fresh connection before any byte is read (counts as an attempt); false: leave it to HTTP. */
  onConnection?: (socket: Socket) => boolean;
  onRequest?: (ctx: FaultContext) => void;
}

export interface FaultServer {
  base: string;
  attempts: Attempt[];
  close(): Promise<void>;
}

export async function startFaultServer(fault: Fault): Promise<FaultServer> {
  const attempts: Attempt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const index = attempts.length;
    attempts.push({ method: req.method ?? '?', path: (req.url ?? '').split('?')[0]!, at: performance.now() });
    req.resume();
    res.on('error', () => {}); // the client going away mid-write is part of the game
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      timers.add(t);
    };
    if (fault.onRequest) fault.onRequest({ req, res, index, every });
    else res.writeHead(500).end();
  });
  server.on('connection', (socket: Socket) => {
    socket.on('error', () => {});
    if (fault.onConnection?.(socket)) attempts.push({ method: 'CONNECT', path: '', at: performance.now() });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    attempts,
    async close() {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port nothing listens on (bound, then released): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  const { port } = spare.address() as AddressInfo;
  await new Promise((resolve) => spare.close(resolve));
  return port;
}

// ---- the faults ------------------------------------------------------------------------------

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
};

const HTML = (status: number, title: string) =>
  `<!DOCTYPE html>\n<html>\n<head><title>${status} ${title}</title></head>\n<body>\n<center><h1>${status} ${title}</h1></center>\n<hr><center>nginx/1.25.3</center>\n</body>\n</html>\n`;

/** A proxy's HTML error page, as nginx writes them. */
export function htmlError(status: number, title: string, headers: Record<string, string> = {}): Fault {
  return {
    onRequest: ({ res }) => {
      const page = HTML(status, title);
      res.writeHead(status, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(page)), ...headers });
      res.end(page);
    },
  };
}

/** The connection is accepted and reset before a byte is read. */
export const resetOnConnect: Fault = {
  onConnection: (socket) => {
    socket.resetAndDestroy();
    return true;
  },
};

/** Headers and part of the body, then a TCP reset. */
export const resetMidBody: Fault = {
  onRequest: ({ req, res }) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
    res.write('{"success":true,"message":"ok","data":{"payment_id":"PR00');
    setTimeout(() => req.socket.resetAndDestroy(), 20);
  },
};

/** Content-Length promises more than is sent; then a clean close (FIN): truncated JSON. */
export const truncatedJson: Fault = {
  onRequest: ({ req, res }) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2048' });
    res.write('{"success":true,"message":"ok","data":{"order_id":"OD0000000001","sta');
    setTimeout(() => req.socket.end(), 20);
  },
};

/** Never answers: the headers never come. */
export const slowHeaders: Fault = { onRequest: () => {} };

/** Headers at once, then the body a byte every 50 ms, forever. */
export const slowBody: Fault = {
  onRequest: ({ res, every }) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":true,"message":"ok","data":{"note":"');
    every(50, () => res.write('x'));
  },
};

/** 429 in the gateway's envelope, asking for a retry after `retryAfter` seconds. */
export function tooManyRequests(retryAfter: string): Fault {
  return {
    onRequest: ({ res }) =>
      json(res, 429, { success: false, error: { code: 'ERR_RATE_LIMIT_000', message: 'Too many requests' } }, { 'retry-after': retryAfter }),
  };
}

/** 200 with JSON that is not the {success, message, data} envelope. */
export const notTheEnvelope: Fault = { onRequest: ({ res }) => json(res, 200, { status: 'ok', items: [1, 2, 3] }) };

/** 200 with an HTML page (a captive portal, a web server's index). */
export const htmlOk: Fault = htmlError(200, 'Welcome');

export const MB = 1024 * 1024;

/**
 * A 200 of `megabytes` MB of JSON-looking data. `declared`: with a Content-Length; otherwise
 * chunked, so only counting what arrives can stop it.
 */
export function hugeBody(megabytes: number, declared: boolean): Fault {
  const chunk = Buffer.alloc(MB, 'a');
  const head = '{"success":true,"message":"ok","data":{"blob":"';
  const tail = '"}}';
  return {
    onRequest: ({ res }) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (declared) headers['content-length'] = String(head.length + megabytes * MB + tail.length);
      res.writeHead(200, headers);
      res.write(head);
      let sent = 0;
      const pump = (): void => {
        while (sent < megabytes) {
          sent++;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(tail);
      };
      pump();
    },
  };
}

/** `fault` for the first `times` attempts, then a 200 envelope carrying `data`. */
export function thenOk(fault: Fault, times: number, data: unknown): Fault {
  return {
    onRequest: (ctx) => (ctx.index < times ? fault.onRequest!(ctx) : json(ctx.res, 200, { success: true, message: 'ok', data })),
  };
}
