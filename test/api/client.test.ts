// The HTTP core against undici MockAgent: no network, and every stub must be used.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { createClient } from '../../src/api/client.js';
import type { ClientOptions } from '../../src/api/types.js';
import { AuthError, ExitCode, GatewayError, NetworkError, NotFoundError, UsageError, exitCodeFor } from '../../src/errors.js';

const BASE = 'https://gw.test';
const SECRET = 'sekret-marker-1234';
const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };

let agent: MockAgent;
let pool: ReturnType<MockAgent['get']>;

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  pool = agent.get(BASE);
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

function setup(over: Partial<ClientOptions> = {}) {
  const delays: number[] = [];
  const client = createClient({
    baseUrl: BASE,
    clientId: 'cid',
    clientSecret: SECRET,
    apiVersion: '3.0.0',
    timeoutMs: 5000,
    dispatcher: agent,
    userAgent: 'pgw/test',
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...over,
  });
  return { client, delays };
}

interface Seen {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function lower(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers && typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((v, k) => (out[k.toLowerCase()] = v));
  } else if (headers && typeof headers === 'object') {
    for (const [k, v] of Object.entries(headers as Record<string, string>)) out[k.toLowerCase()] = String(v);
  }
  return out;
}

/** Reply with an envelope and record what was sent. */
function expectCall(method: string, path: string, status: number, data: unknown, seen: Seen[] = [], headers: Record<string, string> = {}) {
  pool.intercept({ path, method }).reply((opts) => {
    seen.push({ path: opts.path, method: opts.method, headers: lower(opts.headers), body: typeof opts.body === 'string' ? opts.body : undefined });
    return { statusCode: status, data: typeof data === 'string' ? data : JSON.stringify(data), responseOptions: { headers: { 'content-type': 'application/json', ...headers } } };
  });
  return seen;
}

const ok = (data: unknown) => ({ success: true, message: 'ok', data });
const fail = (code: string, message: string) => ({ success: false, error: { code, message, details: { payment_id: 'PR1' } } });

describe('headers per path kind (spec part 5)', () => {
  it('/pg/ sends the client pair, X-API-Version and X-Merchant-ID, no Content-Type without a body', async () => {
    const seen = expectCall('GET', '/pg/payments/PR1/', 200, ok({ payment_id: 'PR1' }));
    await setup({ merchantId: 'M42' }).client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(seen[0]!.headers).toMatchObject({
      'x-client-id': 'cid',
      'x-client-secret': SECRET,
      'x-api-version': '3.0.0',
      'x-merchant-id': 'M42',
      'user-agent': 'pgw/test',
      accept: 'application/json',
    });
    expect(seen[0]!.headers).not.toHaveProperty('content-type');
  });

  it('/partners/ sends the client pair only, even with a merchant set', async () => {
    const seen = expectCall('GET', '/partners/merchants/', 200, ok({ count: 0, results: [] }));
    await setup({ merchantId: 'M42' }).client.request({ method: 'GET', path: '/partners/merchants/' });
    const h = seen[0]!.headers;
    expect(h['x-client-id']).toBe('cid');
    expect(h['x-client-secret']).toBe(SECRET);
    expect(h).not.toHaveProperty('x-api-version');
    expect(h).not.toHaveProperty('x-merchant-id');
  });

  it('/sandbox/ has no X-API-Version but keeps X-Merchant-ID', async () => {
    const seen = expectCall('POST', '/sandbox/pay/', 200, ok({}));
    await setup({ merchantId: 'M42' }).client.request({ method: 'POST', path: '/sandbox/pay/', body: { a: 1 } });
    expect(seen[0]!.headers).not.toHaveProperty('x-api-version');
    expect(seen[0]!.headers['x-merchant-id']).toBe('M42');
  });

  it('no X-Merchant-ID without a merchant', async () => {
    const seen = expectCall('GET', '/pg/payments/PR1/', 200, ok({}));
    await setup().client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(seen[0]!.headers).not.toHaveProperty('x-merchant-id');
  });

  it('sends a JSON body with Content-Type', async () => {
    const seen = expectCall('POST', '/pg/orders/', 200, ok({ order_id: 'OD1' }));
    await setup().client.request({ method: 'POST', path: '/pg/orders/', body: { amount: '10.00', currency: 'INR' } });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body!)).toEqual({ amount: '10.00', currency: 'INR' });
  });

  it('sends no credentials it does not have, and the gateway answer is an auth error', async () => {
    const seen = expectCall('GET', '/pg/payments/PR1/', 401, { success: false, error: { code: 'ERR_AUTH_000', message: 'Missing credentials', details: { authentication: 'missing' } } });
    const err = await setup({ clientId: undefined, clientSecret: undefined }).client.request({ method: 'GET', path: '/pg/payments/PR1/' }).catch((e: unknown) => e);
    expect(seen[0]!.headers).not.toHaveProperty('x-client-id');
    expect(seen[0]!.headers).not.toHaveProperty('x-client-secret');
    expect(err).toBeInstanceOf(AuthError);
    expect(exitCodeFor(err)).toBe(ExitCode.auth);
  });

  it('encodes query parameters and skips undefined ones', async () => {
    const seen: Seen[] = [];
    pool.intercept({ path: (p) => p.startsWith('/partners/merchants/'), method: 'GET' }).reply((opts) => {
      seen.push({ path: opts.path, method: opts.method, headers: {} });
      return { statusCode: 200, data: JSON.stringify(ok([])), responseOptions: JSON_HEADERS };
    });
    await setup().client.request({ method: 'GET', path: '/partners/merchants/', query: { q: 'a b&c=é', page: 2, all: true, skip: undefined } });
    expect(seen[0]!.path).toBe('/partners/merchants/?q=a+b%26c%3D%C3%A9&page=2&all=true');
  });

  it('keeps a path prefix of the base URL', async () => {
    const seen = expectCall('GET', '/api/pg/payments/PR1/', 200, ok({}));
    await setup({ baseUrl: `${BASE}/api/` }).client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(seen).toHaveLength(1);
  });
});

describe('envelope', () => {
  it('returns data unchanged, unknown fields included', async () => {
    const data = { payment_id: 'PR1', amount: '1500.00', future_field: { nested: [1, 'x', null] }, n: 12.5 };
    expectCall('GET', '/pg/payments/PR1/', 200, { ...ok(data), trace_id: 't-1' });
    const { client } = setup();
    expect(await client.request({ method: 'GET', path: '/pg/payments/PR1/' })).toEqual(data);
  });

  it('send() returns status, headers and the whole envelope', async () => {
    expectCall('GET', '/pg/payments/PR1/', 200, { ...ok({ a: 1 }), trace_id: 't-1' }, [], { 'x-request-id': 'r1' });
    const res = await setup().client.send({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('r1');
    expect(res.envelope).toEqual({ success: true, message: 'ok', data: { a: 1 }, trace_id: 't-1' });
    expect(res.data).toEqual({ a: 1 });
  });

  it('a 204 gives null data', async () => {
    pool.intercept({ path: '/pg/thing/1/', method: 'DELETE' }).reply(204, '');
    expect(await setup().client.request({ method: 'DELETE', path: '/pg/thing/1/' })).toBeNull();
  });

  it.each([
    ['a non-JSON body', 'hello'],
    ['an object without success', JSON.stringify({ foo: 1 })],
    ['an array', JSON.stringify([1, 2])],
    ['an empty body', ''],
  ])('a 200 with %s is an unexpected response (exit 1)', async (_label, body) => {
    pool.intercept({ path: '/pg/payments/PR1/', method: 'GET' }).reply(200, body);
    const err = await setup().client.request({ method: 'GET', path: '/pg/payments/PR1/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toMatch(/^unexpected response from the gateway: 200 OK/);
  });
});

describe('errors by status and code', () => {
  const noRetry = { retry: { maxRetries: 0 } };
  it.each([
    [400, fail('ERR_SERVICE_ERROR_000', 'Payment gateway error'), GatewayError, 1],
    [401, fail('ERR_AUTH_001', 'Invalid credentials'), AuthError, 4],
    [403, { detail: 'forbidden' }, AuthError, 4],
    [404, { detail: 'Not found.' }, NotFoundError, 5],
    [429, { detail: 'Too many requests' }, GatewayError, 1],
    [500, fail('PAYMENT_GATEWAY_API_ERROR', 'Payment gateway API error'), GatewayError, 1],
    [503, '', GatewayError, 1],
    [504, '', GatewayError, 1],
    [400, fail('ERR_PAYMENT_005', 'Payment not found'), NotFoundError, 5],
    [400, fail('ERR_SETTLEMENT_002', 'Settlement not found'), NotFoundError, 5],
    [200, fail('ERR_PAYMENT_005', 'Payment not found'), NotFoundError, 5],
    [200, fail('PAYMENT_GATEWAY_VALIDATION_ERROR', 'Invalid payment_status'), GatewayError, 1],
  ])('%i %j', async (status, body, type, exit) => {
    expectCall('GET', '/pg/payments/PR1/', status, body);
    const err = await setup(noRetry).client.request({ method: 'GET', path: '/pg/payments/PR1/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(type);
    expect(exitCodeFor(err)).toBe(exit);
    expect((err as GatewayError).status).toBe(status);
  });

  it('a 502 HTML page becomes one clear line, no HTML', async () => {
    pool.intercept({ path: '/pg/payments/PR1/', method: 'GET' }).reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { headers: { 'content-type': 'text/html' } });
    const err = await setup(noRetry).client.request({ method: 'GET', path: '/pg/payments/PR1/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toBe('gateway answered 502 Bad Gateway with a non-JSON body (text/html)');
  });

  it('carries code, details and message from the envelope', async () => {
    expectCall('GET', '/pg/payments/PR9/', 404, fail('ERR_PAYMENT_005', 'Payment not found'));
    const err = (await setup().client.request({ method: 'GET', path: '/pg/payments/PR9/' }).catch((e: unknown) => e)) as NotFoundError;
    expect(err.code).toBe('ERR_PAYMENT_005');
    expect(err.details).toEqual({ payment_id: 'PR1' });
    expect(err.message).toContain('Payment not found');
  });

  it('redacts the secret from an error that echoes it', async () => {
    expectCall('POST', '/pg/orders/', 400, fail('ERR_X', `bad secret ${SECRET}`));
    const err = (await setup().client.request({ method: 'POST', path: '/pg/orders/', body: {} }).catch((e: unknown) => e)) as GatewayError;
    expect(JSON.stringify({ m: err.message, d: err.details })).not.toContain(SECRET);
    expect(err.message).toContain('[redacted]');
  });
});

describe('retries', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });

  it('GET is retried on 503 with backoff, then succeeds', async () => {
    const seen: Seen[] = [];
    expectCall('GET', '/pg/payments/PR1/', 503, '', seen);
    expectCall('GET', '/pg/payments/PR1/', 502, '', seen);
    expectCall('GET', '/pg/payments/PR1/', 504, '', seen);
    expectCall('GET', '/pg/payments/PR1/', 200, ok({ payment_id: 'PR1' }), seen);
    const { client, delays } = setup();
    expect(await client.request({ method: 'GET', path: '/pg/payments/PR1/' })).toEqual({ payment_id: 'PR1' });
    expect(seen).toHaveLength(4);
    expect(delays).toEqual([375, 750, 1500]); // 500·2^n at 75% (random 0.5)
  });

  it('GET gives up after 3 retries (4 attempts)', async () => {
    const seen: Seen[] = [];
    for (let i = 0; i < 4; i++) expectCall('GET', '/pg/payments/PR1/', 503, '', seen);
    const { client, delays } = setup();
    const err = await client.request({ method: 'GET', path: '/pg/payments/PR1/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).status).toBe(503);
    expect(seen).toHaveLength(4);
    expect(delays).toHaveLength(3);
  });

  it('GET is retried on a connection error', async () => {
    pool.intercept({ path: '/pg/payments/PR1/', method: 'GET' }).replyWithError(refused());
    expectCall('GET', '/pg/payments/PR1/', 200, ok({ ok: 1 }));
    const { client, delays } = setup();
    expect(await client.request({ method: 'GET', path: '/pg/payments/PR1/' })).toEqual({ ok: 1 });
    expect(delays).toHaveLength(1);
  });

  it('GET connection errors end as NetworkError (exit 3) after 3 retries', async () => {
    pool.intercept({ path: '/pg/payments/PR1/', method: 'GET' }).replyWithError(refused()).times(4);
    const { client, delays } = setup();
    const err = await client.request({ method: 'GET', path: '/pg/payments/PR1/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(exitCodeFor(err)).toBe(ExitCode.network);
    expect((err as Error).message).toBe('could not connect to gw.test: connection refused');
    expect(delays).toHaveLength(3);
  });

  it('GET is not retried on 500 or 400', async () => {
    const seen = expectCall('GET', '/pg/payments/PR1/', 500, fail('X', 'boom'));
    const { client, delays } = setup();
    await expect(client.request({ method: 'GET', path: '/pg/payments/PR1/' })).rejects.toBeInstanceOf(GatewayError);
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each([
    ['POST', 502],
    ['POST', 503],
    ['POST', 429],
    ['PATCH', 502],
    ['PATCH', 503],
  ] as const)('%s is never retried on %i', async (method, status) => {
    const seen = expectCall(method, '/pg/orders/OD1/', status, '');
    const { client, delays } = setup();
    await expect(client.request({ method, path: '/pg/orders/OD1/', body: { a: 1 } })).rejects.toBeInstanceOf(GatewayError);
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each(['POST', 'PATCH'] as const)('%s is never retried on a connection error', async (method) => {
    pool.intercept({ path: '/pg/orders/', method }).replyWithError(refused());
    const { client, delays } = setup();
    await expect(client.request({ method, path: '/pg/orders/', body: {} })).rejects.toBeInstanceOf(NetworkError);
    expect(delays).toEqual([]);
  });

  it('honours Retry-After in seconds', async () => {
    expectCall('GET', '/pg/payments/PR1/', 429, '', [], { 'retry-after': '2' });
    expectCall('GET', '/pg/payments/PR1/', 200, ok({}));
    const { client, delays } = setup();
    await client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(delays).toEqual([2000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 4000).toUTCString();
    expectCall('GET', '/pg/payments/PR1/', 503, '', [], { 'retry-after': at });
    expectCall('GET', '/pg/payments/PR1/', 200, ok({}));
    const { client, delays } = setup();
    await client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(delays[0]).toBeGreaterThan(2000);
    expect(delays[0]).toBeLessThanOrEqual(4000);
  });

  it('caps Retry-After (default 10 s, or maxRetryAfterMs)', async () => {
    expectCall('GET', '/pg/payments/PR1/', 429, '', [], { 'retry-after': '3600' });
    expectCall('GET', '/pg/payments/PR1/', 429, '', [], { 'retry-after': '3600' });
    expectCall('GET', '/pg/payments/PR1/', 200, ok({}));
    const a = setup();
    await a.client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(a.delays).toEqual([10_000, 10_000]);

    expectCall('GET', '/pg/payments/PR1/', 429, '', [], { 'retry-after': '3600' });
    expectCall('GET', '/pg/payments/PR1/', 200, ok({}));
    const b = setup({ retry: { maxRetryAfterMs: 1234 } });
    await b.client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(b.delays).toEqual([1234]);
  });
});

describe('verbose log and preview', () => {
  const card = { number: '4111111111111111', cvv: '123', cardholder_name: 'Asha', expiry_month: '12', expiry_year: '2030', network: 'visa' };

  it('logs request and response with the secret, card number and CVV redacted', async () => {
    expectCall('POST', '/pg/orders/', 200, ok({ order_id: 'OD1', echo: { card_details: card }, note: `secret ${SECRET}` }));
    const lines: string[] = [];
    const { client } = setup({ log: (l) => lines.push(l) });
    await client.request({ method: 'POST', path: '/pg/orders/', body: { amount: '10.00', card_details: card } });
    const log = lines.join('\n');
    expect(log).toContain('> POST https://gw.test/pg/orders/');
    expect(log).toContain('> X-Client-Secret: [redacted]');
    expect(log).toContain('> X-Client-ID: cid');
    expect(log).toMatch(/< 200 OK \(\d+ ms\)/);
    expect(log).toContain('411111******1111');
    expect(log).toContain('"order_id": "OD1"');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain('4111111111111111');
    expect(log).not.toMatch(/cvv/i);
  });

  it('logs retries and failures as notes', async () => {
    expectCall('GET', '/pg/payments/PR1/', 503, '');
    expectCall('GET', '/pg/payments/PR1/', 200, ok({}));
    const lines: string[] = [];
    await setup({ log: (l) => lines.push(l) }).client.request({ method: 'GET', path: '/pg/payments/PR1/' });
    expect(lines).toContain('* gateway answered 503: retry 1 of 3 in 375 ms');
    expect(lines.filter((l) => l.startsWith('> GET '))).toHaveLength(2);
  });

  it('preview() shows the request redacted and sends nothing', () => {
    const { client } = setup({ merchantId: 'M1' });
    const p = client.preview({ method: 'POST', path: '/pg/orders/', query: { x: 'y z' }, body: { amount: '10.00', card_details: card } });
    expect(p).toEqual({
      method: 'POST',
      url: 'https://gw.test/pg/orders/?x=y+z',
      headers: {
        'User-Agent': 'pgw/test',
        Accept: 'application/json',
        'X-Client-ID': 'cid',
        'X-Client-Secret': '[redacted]',
        'X-API-Version': '3.0.0',
        'X-Merchant-ID': 'M1',
        'Content-Type': 'application/json',
      },
      body: { amount: '10.00', card_details: { number: '411111******1111', cardholder_name: 'Asha', expiry_month: '12', expiry_year: '2030', network: 'visa' } },
    });
    expect(JSON.stringify(p)).not.toContain(SECRET);
  });

  it('preview() of a GET has no body', () => {
    expect(setup().client.preview({ method: 'GET', path: '/pg/payments/PR1/' })).not.toHaveProperty('body');
  });
});

describe('bad input', () => {
  it.each(['not a url', 'ftp://gw.test', 'https://gw.test/?a=1'])('base URL %j is a usage error', (baseUrl) => {
    expect(() => setup({ baseUrl })).toThrow(UsageError);
  });

  it('a path without a leading slash is a usage error, nothing sent', async () => {
    await expect(setup().client.request({ method: 'GET', path: 'pg/payments/' })).rejects.toBeInstanceOf(UsageError);
  });
});
