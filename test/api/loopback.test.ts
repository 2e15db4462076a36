// The node:http transport of the in-process sandbox (src/api/loopback.ts), driven through the one
// HTTP core as the embedded profile drives it: answers, headers, bodies, keep-alive, and the same
// failures, with the same messages, as undici gives (test/api/client-network.test.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { createClient } from '../../src/api/client.js';
import { createLoopbackDispatcher, type LoopbackDispatcher } from '../../src/api/loopback.js';
import type { ClientOptions, HttpMethod } from '../../src/api/types.js';
import { ExitCode, InterruptedError, NetworkError, NotFoundError, exitCodeFor } from '../../src/errors.js';

const TIMEOUT = 200;

let server: Server;
let base: string;
let loopback: LoopbackDispatcher;
let connections = 0;
const hits: Record<string, number> = {};
const bodies: { method: string; contentLength?: string; body: string }[] = [];
const timers = new Set<NodeJS.Timeout>();

const json = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string | string[]> = {}) => {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
};

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/ok/': (_req, res) => json(res, 200, { success: true, message: 'ok', data: { fine: true, text: 'ünïcødé ✓' } }),
  '/echo/': (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      bodies.push({ method: req.method!, contentLength: req.headers['content-length'], body });
      json(res, 200, { success: true, message: 'ok', data: { headers: req.headers } });
    });
  },
  '/missing/': (_req, res) =>
    json(res, 404, { success: false, error: { code: 'ERR_PAYMENT_005', message: 'Payment not found', details: { payment_id: 'x not found' } } }),
  '/dup-headers/': (_req, res) => json(res, 200, { success: true, message: 'ok', data: {} }, { 'x-dup': ['a', 'b'] }),
  '/slow-headers/': () => {},
  '/slow-body/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":true,');
  },
  '/trickle/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":true,"data":"');
    const t = setInterval(() => res.write('x'), 40);
    timers.add(t);
  },
  '/reset/': (req) => req.socket.destroy(),
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
    if (path !== '/echo/') req.resume();
    (routes[path] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await loopback?.close();
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  for (const k of Object.keys(hits)) delete hits[k];
  bodies.length = 0;
  await loopback?.close();
  loopback = createLoopbackDispatcher();
  connections = 0;
});

function client(over: Partial<ClientOptions> = {}) {
  return createClient({
    baseUrl: base,
    clientId: 'cid',
    clientSecret: 'sekret-marker-1234',
    apiVersion: '3.0.0',
    timeoutMs: TIMEOUT,
    dispatcher: loopback as unknown as Dispatcher,
    userAgent: 'pgw/test',
    sleep: async () => {},
    ...over,
  });
}

async function failure(method: HttpMethod, path: string, over: Partial<ClientOptions> = {}) {
  const err = await client(over)
    .request({ method, path, body: method === 'GET' ? undefined : { a: 1 } })
    .then(() => undefined, (e: unknown) => e);
  return err as NetworkError;
}

describe('the loopback transport through the HTTP core', () => {
  it('reads an answer: status, envelope, UTF-8 text', async () => {
    const res = await client().send<{ fine: boolean; text: string }>({ method: 'GET', path: '/ok/' });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ fine: true, text: 'ünïcødé ✓' });
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('sends the gateway headers and a JSON body with its length', async () => {
    const data = await client({ merchantId: 'M1' }).request<{ headers: Record<string, string> }>({ method: 'POST', path: '/echo/', body: { amount: '1.00', name: 'ü' } });
    expect(bodies).toEqual([{ method: 'POST', contentLength: String(Buffer.byteLength('{"amount":"1.00","name":"ü"}')), body: '{"amount":"1.00","name":"ü"}' }]);
    expect(data.headers).toMatchObject({ 'x-client-id': 'cid', 'x-client-secret': 'sekret-marker-1234', 'x-merchant-id': 'M1', 'content-type': 'application/json', 'user-agent': 'pgw/test' });
  });

  it('a gateway error is the typed error, as with undici', async () => {
    const err = await client().request({ method: 'GET', path: '/missing/' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(exitCodeFor(err)).toBe(ExitCode.notFound);
  });

  it('repeated headers are joined as undici’s are', async () => {
    const res = await client().send({ method: 'GET', path: '/dup-headers/' });
    expect(res.headers['x-dup']).toBe('a, b');
  });

  it('keeps the connection alive across a run’s requests', async () => {
    for (let i = 0; i < 5; i++) await client().request({ method: 'GET', path: '/ok/' });
    await Promise.all(Array.from({ length: 4 }, () => client().request({ method: 'GET', path: '/ok/' })));
    expect(hits['/ok/']).toBe(9);
    expect(connections).toBeLessThanOrEqual(4);
  });

  it.each(['/slow-headers/', '/slow-body/', '/trickle/'])('%s times out as NetworkError (exit 3), not retried', async (path) => {
    const err = await failure('GET', path);
    expect(err).toBeInstanceOf(NetworkError);
    expect(exitCodeFor(err)).toBe(ExitCode.network);
    expect(err.message).toMatch(/^request timed out after 200 ms \(127\.0\.0\.1:\d+\)$/);
    expect(hits[path]).toBe(1);
  });

  it('a connection reset before the answer: GET retried 3 times, POST sent once', async () => {
    const err = await failure('GET', '/reset/');
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toMatch(/^connection to 127\.0\.0\.1:\d+ closed before the response was complete$/);
    expect(hits['/reset/']).toBe(4);
    delete hits['/reset/'];
    expect(await failure('POST', '/reset/')).toBeInstanceOf(NetworkError);
    expect(hits['/reset/']).toBe(1);
  });

  it('a connection dropped in the middle of the body is a NetworkError', async () => {
    const err = await failure('GET', '/mid-body/', { retry: { maxRetries: 0 } });
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toContain('closed before the response was complete');
  });

  it('connection refused names the host', async () => {
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    const err = await failure('GET', '/ok/', { baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 1 } });
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(`could not connect to 127.0.0.1:${port}: connection refused`);
  });

  it('Ctrl-C ends a request in flight', async () => {
    const stop = new AbortController();
    const pending = client({ timeoutMs: 5000, signal: stop.signal }).request({ method: 'GET', path: '/slow-headers/' });
    setTimeout(() => stop.abort('SIGINT'), 30);
    const err = await pending.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
  });
});
