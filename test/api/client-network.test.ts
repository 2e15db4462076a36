// Timeouts and broken connections against a real node:http server on 127.0.0.1 (MockAgent's delay
// does not trigger undici's timeouts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { createClient } from '../../src/api/client.js';
import type { ClientOptions, HttpMethod } from '../../src/api/types.js';
import { ExitCode, NetworkError, exitCodeFor } from '../../src/errors.js';

const SECRET = 'sekret-marker-1234';
const TIMEOUT = 200;

let server: Server;
let base: string;
let agent: Agent;
const hits: Record<string, number> = {};
const timers = new Set<NodeJS.Timeout>();

function later(ms: number, fn: () => void): void {
  const t = setInterval(fn, ms);
  timers.add(t);
}

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/ok/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, message: 'ok', data: { fine: true } }));
  },
  // Never answers within the limit: headers timeout.
  '/slow-headers/': () => {},
  // Headers, a piece of body, then silence: body timeout.
  '/slow-body/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":true,');
  },
  // A byte every 40 ms: never idle long enough for bodyTimeout, but longer than the deadline.
  '/trickle/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":true,"data":"');
    later(40, () => res.write('x'));
  },
  '/reset/': (req) => req.socket.destroy(),
  // Promises 1000 bytes, sends a few, then the connection drops.
  '/mid-body/': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"success":true,"data":{');
    setTimeout(() => req.socket.destroy(), 20);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    hits[path] = (hits[path] ?? 0) + 1;
    req.resume();
    (routes[path] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await agent?.destroy();
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  for (const k of Object.keys(hits)) delete hits[k];
  await agent?.destroy();
  agent = new Agent({ keepAliveTimeout: 10 });
});

function client(over: Partial<ClientOptions> = {}) {
  return createClient({
    baseUrl: base,
    clientId: 'cid',
    clientSecret: SECRET,
    apiVersion: '3.0.0',
    timeoutMs: TIMEOUT,
    dispatcher: agent,
    userAgent: 'pgw/test',
    sleep: async () => {},
    ...over,
  });
}

async function failure(method: HttpMethod, path: string, over: Partial<ClientOptions> = {}) {
  const started = performance.now();
  const err = await client(over)
    .request({ method, path, body: method === 'GET' ? undefined : { a: 1 } })
    .then(() => undefined, (e: unknown) => e);
  return { err: err as NetworkError, ms: performance.now() - started };
}

describe('against a real server', () => {
  it('a normal answer works (the harness itself is sound)', async () => {
    expect(await client().request({ method: 'GET', path: '/ok/' })).toEqual({ fine: true });
  });

  it.each(['/slow-headers/', '/slow-body/', '/trickle/'])('%s times out quickly as NetworkError (exit 3), not retried', async (path) => {
    const { err, ms } = await failure('GET', path);
    expect(err).toBeInstanceOf(NetworkError);
    expect(exitCodeFor(err)).toBe(ExitCode.network);
    expect(err.message).toMatch(/^request timed out after 200 ms \(127\.0\.0\.1:\d+\)$/);
    expect(ms).toBeLessThan(1500);
    expect(hits[path]).toBe(1);
  });

  it('a POST that times out is a NetworkError and is sent once', async () => {
    const { err } = await failure('POST', '/slow-headers/');
    expect(err).toBeInstanceOf(NetworkError);
    expect(hits['/slow-headers/']).toBe(1);
  });

  it('a connection reset before the answer: GET retried 3 times, then NetworkError', async () => {
    const { err, ms } = await failure('GET', '/reset/');
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/^connection to 127\.0\.0\.1:\d+ closed before the response was complete$/);
    expect(hits['/reset/']).toBe(4);
    expect(ms).toBeLessThan(1500);
  });

  it.each(['POST', 'PATCH'] as const)('a connection reset on %s is not retried', async (method) => {
    const { err } = await failure(method, '/reset/');
    expect(err).toBeInstanceOf(NetworkError);
    expect(hits['/reset/']).toBe(1);
  });

  it('a connection dropped in the middle of the body is a NetworkError', async () => {
    const { err } = await failure('GET', '/mid-body/', { retry: { maxRetries: 0 } });
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('closed before the response was complete');
    expect(hits['/mid-body/']).toBe(1);
  });

  it('connection refused names the host, not the secret', async () => {
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    const { err } = await failure('GET', '/ok/', { baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 1 } });
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(`could not connect to 127.0.0.1:${port}: connection refused`);
    expect(JSON.stringify({ m: err.message, s: err.suggestion })).not.toContain(SECRET);
  });

  it('verbose notes the failure without the secret', async () => {
    const lines: string[] = [];
    await failure('POST', '/reset/', { log: (l) => lines.push(l) });
    expect(lines.some((l) => l.startsWith('* connection to 127.0.0.1'))).toBe(true);
    expect(lines.join('\n')).not.toContain(SECRET);
  });
});
