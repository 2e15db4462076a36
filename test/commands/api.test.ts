// pgw api <METHOD> <path> through runCli, against undici MockAgent (no network, every stub used).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/run.js';
import { useGatewayStub } from '../helpers/gateway-stub.js';
import { buildApiRequest, parseMethod, parsePath, withQueryParams } from '../../src/commands/api/request.js';
import { jsonReason } from '../../src/safety/json-reason.js';
import { UsageError } from '../../src/errors.js';
import { PassThrough } from 'node:stream';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const SECRET = 'sekret-marker-1234';
const CARD = '4111111111111111';

const gw = useGatewayStub({ secret: SECRET });
const pgw = gw.pgw;

interface Seen {
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

function stub(method: string, path: string, status: number, body: unknown, seen: Seen[] = []) {
  gw.pool.intercept({ path, method }).reply((opts) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((opts.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = String(v);
    seen.push({ path: opts.path, headers, body: typeof opts.body === 'string' ? JSON.parse(opts.body) : undefined });
    return { statusCode: status, data: typeof body === 'string' ? body : JSON.stringify(body), responseOptions: { headers: { 'content-type': 'application/json' } } };
  });
  return seen;
}

const ok = (data: unknown) => ({ success: true, message: 'ok', data, extra_top_level: 1 });

function file(name: string, content: string): string {
  const path = join(gw.dir, name);
  writeFileSync(path, content);
  return path;
}

describe('pgw api: success', () => {
  it('GET prints the envelope data only, as JSON, with exit 0', async () => {
    const data = { payment_id: 'PR1', amount: '1500.00', unknown_field: { x: [1] } };
    const seen = stub('GET', '/pg/payments/PR1/', 200, ok(data));
    const r = await pgw(['api', 'get', '/pg/payments/PR1/']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(data);
    expect(r.stderr).toBe('');
    expect(seen[0]!.headers).toMatchObject({ 'x-client-id': 'cid', 'x-client-secret': SECRET, 'x-api-version': '3.0.0' });
  });

  it('prints pretty JSON in table mode too (a terminal)', async () => {
    stub('GET', '/pg/payments/PR1/', 200, ok({ a: 1 }));
    const r = await pgw(['api', 'GET', '/pg/payments/PR1/'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{\n  "a": 1\n}\n');
  });

  it('--query applies to the data and prints a string raw', async () => {
    stub('GET', '/pg/payments/PR1/', 200, ok({ payment_id: 'PR1' }));
    const r = await pgw(['api', 'GET', '/pg/payments/PR1/', '--query', 'payment_id']);
    expect(r.stdout).toBe('PR1\n');
  });

  it('POST sends the body of --data @file', async () => {
    const body = { amount: '10.00', currency: 'INR' };
    const seen = stub('POST', '/pg/orders/', 200, ok({ order_id: 'OD1' }));
    const r = await pgw(['api', 'POST', '/pg/orders/', '--data', `@${file('order.json', JSON.stringify(body))}`]);
    expect(r.code).toBe(0);
    expect(seen[0]!.body).toEqual(body);
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.stdout)).toEqual({ order_id: 'OD1' });
  });

  it('--data - reads the body from stdin', async () => {
    const seen = stub('PATCH', '/pg/orders/OD1/', 200, ok({ order_id: 'OD1' }));
    const r = await pgw(['api', 'patch', '/pg/orders/OD1/', '--data', '-'], { input: '{"invoice":{"number":"INV-1"}}' });
    expect(r.code).toBe(0);
    expect(seen[0]!.body).toEqual({ invoice: { number: 'INV-1' } });
  });

  it('--query-param is encoded and repeatable; -m sends X-Merchant-ID except on /partners/', async () => {
    const seen = stub('GET', '/partners/merchants/?page=2&name=a+%26+b&name=c', 200, ok({ count: 0, results: [] }));
    const r = await pgw(['api', 'GET', '/partners/merchants/', '--query-param', 'page=2', '--query-param', 'name=a & b', '--query-param', 'name=c', '-m', 'M1']);
    expect(r.code).toBe(0);
    expect(seen[0]!.headers).not.toHaveProperty('x-merchant-id');
    expect(seen[0]!.headers).not.toHaveProperty('x-api-version');
  });
});

describe('pgw api: errors', () => {
  it.each([
    [400, { success: false, error: { code: 'ERR_SERVICE_ERROR_000', message: 'Payment gateway error', details: { payment_uids: ['PR1 is not captured'] } } }, 1, 'Payment gateway error (ERR_SERVICE_ERROR_000)'],
    [401, { success: false, error: { code: 'ERR_AUTH_000', message: 'Missing credentials' } }, 4, 'Missing credentials'],
    [404, { success: false, error: { code: 'ERR_PAYMENT_005', message: 'Payment not found' } }, 5, 'Payment not found'],
    [200, { success: false, error: { code: 'ERR_SETTLEMENT_002', message: 'Settlement not found' } }, 5, 'Settlement not found'],
    [500, '<html>oops</html>', 1, 'gateway answered 500 Internal Server Error with a non-JSON body'],
  ])('%i %j → exit %i, stdout empty, one clear line on stderr', async (status, body, exit, message) => {
    stub('POST', '/pg/settlements/mark-settled/', status, body);
    const r = await pgw(['api', 'POST', '/pg/settlements/mark-settled/', '--data', `@${file('b.json', '{"payment_uids":["PR1"]}')}`, '-o', 'table']);
    expect(r.code).toBe(exit);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: ${message}`);
    expect(r.stderr).not.toContain('<html>');
  });

  it('JSON mode prints the error object on stderr', async () => {
    stub('GET', '/pg/payments/PR9/', 404, { success: false, error: { code: 'ERR_PAYMENT_005', message: 'Payment not found', details: { payment_id: 'PR9' } } });
    const r = await pgw(['api', 'GET', '/pg/payments/PR9/', '--json']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'ERR_PAYMENT_005', message: 'Payment not found (ERR_PAYMENT_005)', details: { payment_id: 'PR9' }, status: 404 },
    });
  });

  it('a connection failure is exit 3 (POST not retried)', async () => {
    gw.pool.intercept({ path: '/pg/orders/', method: 'POST' }).replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const r = await pgw(['api', 'POST', '/pg/orders/', '--data', `@${file('b.json', '{}')}`, '-o', 'table']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: could not connect to gw.test: connection refused');
  });
});

describe('pgw api: bad input exits 2 and sends nothing', () => {
  // No interceptors are registered and net connect is disabled: any request would fail the run
  // with exit 3, and assertNoPendingInterceptors guards the rest.
  it.each([
    [['api', 'FETCH', '/pg/x/'], 'invalid method "FETCH"'],
    [['api', 'GET', 'pg/payments/'], 'invalid path "pg/payments/"'],
    [['api', 'GET', 'https://evil.test/pg/'], 'give the path below the base address'],
    [['api', 'GET', '//evil.test/pg/'], 'must start with a single /'],
    [['api', 'POST', '/pg/orders/', '--data', '@/nonexistent/dir/order.json'], '--data: cannot read "/nonexistent/dir/order.json": no such file'],
    [['api', 'POST', '/pg/orders/', '--data', '{"amount":"1.00"}'], '--data takes @file.json or - (stdin)'],
    [['api', 'GET', '/pg/payments/', '--data', '-'], 'a GET request takes no body'],
    [['api', 'GET', '/pg/payments/', '--query-param', 'novalue'], '--query-param: "novalue" is not key=value'],
    [['api', 'GET'], "missing required argument 'path'"],
  ])('%j', async (argv, message) => {
    const r = await pgw([...argv, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it('malformed JSON in --data names the file and the place, without quoting the content', async () => {
    const path = file('bad.json', `{\n  "card_details": {"number": "${CARD}",}\n}`);
    const r = await pgw(['api', 'POST', '/pg/orders/', '--data', `@${path}`, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`--data: "${path}" is not valid JSON`);
    expect(r.stderr).toContain('line 2');
    expect(r.stderr).not.toContain(CARD);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('bad input in JSON mode is the JSON error object on stderr', async () => {
    const r = await pgw(['api', 'TRACE', '/pg/x/', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error.message).toBe('invalid method "TRACE": use GET, POST, PATCH, PUT, DELETE');
  });

  it('empty stdin for --data - is a usage error', async () => {
    const r = await pgw(['api', 'POST', '/pg/orders/', '--data', '-'], { input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data: stdin is empty');
  });
});

describe('pgw api: the secret and card data never appear', () => {
  const order = { amount: '10.00', card_details: { number: CARD, cvv: '123', cardholder_name: 'Asha', network: 'visa' } };

  it('--dry-run prints the redacted request on stdout and sends nothing', async () => {
    const r = await pgw(['api', 'POST', '/pg/orders/', '--data', `@${file('o.json', JSON.stringify(order))}`, '--dry-run', '-m', 'M7']);
    expect(r.code).toBe(0);
    const preview = JSON.parse(r.stdout);
    expect(preview).toMatchObject({
      method: 'POST',
      url: 'https://gw.test/pg/orders/',
      headers: { 'X-Client-ID': 'cid', 'X-Client-Secret': '[redacted]', 'X-Merchant-ID': 'M7', 'X-API-Version': '3.0.0' },
      body: { amount: '10.00', card_details: { number: '411111******1111', cardholder_name: 'Asha', network: 'visa' } },
    });
    const all = r.stdout + r.stderr;
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(CARD);
    expect(all).not.toMatch(/cvv/i);
  });

  it('--verbose logs to stderr, redacted; stdout stays data only', async () => {
    stub('POST', '/pg/orders/', 200, ok({ order_id: 'OD1', echo: order, note: `you sent ${SECRET}` }));
    const r = await pgw(['api', 'POST', '/pg/orders/', '--data', `@${file('o.json', JSON.stringify(order))}`, '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> POST https://gw.test/pg/orders/');
    expect(r.stderr).toContain('> X-Client-Secret: [redacted]');
    expect(r.stderr).toMatch(/< 200 OK \(\d+ ms\)/);
    expect(r.stderr).toContain('411111******1111');
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain(CARD);
    expect(r.stderr).not.toMatch(/cvv/i);
    expect(JSON.parse(r.stdout).order_id).toBe('OD1');
  });

  it('PGW_DEBUG=1 turns verbose on too', async () => {
    stub('GET', '/pg/payments/PR1/', 200, ok({}));
    const r = await pgw(['api', 'GET', '/pg/payments/PR1/'], { env: { PGW_DEBUG: '1' } });
    expect(r.stderr).toContain('> GET https://gw.test/pg/payments/PR1/');
    expect(r.stderr).not.toContain(SECRET);
  });

  it('an error that echoes the secret is redacted on stderr', async () => {
    stub('GET', '/pg/payments/PR1/', 400, { success: false, error: { code: 'ERR_X', message: `bad ${SECRET}`, details: { header: SECRET } } });
    const r = await pgw(['api', 'GET', '/pg/payments/PR1/', '--verbose', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: bad [redacted] (ERR_X)');
    expect(r.stderr).not.toContain(SECRET);
  });
});

describe('pgw api over the real default transport', () => {
  it('--timeout reaches the core: a silent gateway is exit 3 within the limit', async () => {
    const server = createServer(() => {}); // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const started = performance.now();
      const r = await runCli(['api', 'GET', '/pg/payments/PR1/', '--timeout', '150', '-o', 'table'], {
        env: { PGW_CONFIG_DIR: gw.dir, PGW_BASE_URL: base, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: SECRET },
      });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('error: request timed out after 150 ms');
      expect(r.stderr).not.toContain(SECRET);
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('request building without commander', () => {
  it.each(['get', 'Post', 'PATCH', 'put', 'delete'])('method %s is accepted', (m) => {
    expect(parseMethod(m)).toBe(m.toUpperCase());
  });

  it.each(['HEAD', 'OPTIONS', '', 'G ET'])('method %j is refused', (m) => {
    expect(() => parseMethod(m)).toThrow(UsageError);
  });

  it.each(['/pg/x/', '/partners/merchants/?page=1'])('path %s is accepted', (p) => {
    expect(parsePath(p)).toBe(p);
  });

  it.each(['pg/x', '', '//host/x', 'http://host/x', '/a b/'])('path %j is refused', (p) => {
    expect(() => parsePath(p)).toThrow(UsageError);
  });

  it('appends query params to a path that already has a query', () => {
    expect(withQueryParams('/x/?a=1', ['b=2', 'c=x=y'])).toBe('/x/?a=1&b=2&c=x%3Dy');
    expect(withQueryParams('/x/', [])).toBe('/x/');
    expect(withQueryParams('/x/', ['empty='])).toBe('/x/?empty=');
  });

  it('jsonReason drops quoted input and gives line and column', () => {
    expect(jsonReason(`Unexpected token 'h', "hello 4111"... is not valid JSON`, 'hello 4111111111111111')).toBe('unexpected character near line 1');
    expect(jsonReason('Expected double-quoted property name in JSON at position 9', '{\n  "a":1,}')).toBe('Expected double-quoted property name at line 2, column 8');
    expect(jsonReason('Unexpected end of JSON input', '{"a":1')).toBe('Unexpected end of JSON input');
  });

  it('jsonReason never repeats any of the input, even the tail excerpt of newer V8 messages', () => {
    const text = '{"pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",\n"cvv": "987", "n": x}';
    let message = '';
    try {
      JSON.parse(text);
    } catch (err) {
      message = (err as Error).message;
    }
    const reason = jsonReason(message, text);
    expect(reason).not.toMatch(/87|x}|"/);
    expect(reason).toBe('unexpected character near line 2');
  });

  it('buildApiRequest reads stdin for -', async () => {
    const stdin = new PassThrough();
    stdin.end('[1,2]');
    expect(await buildApiRequest({ method: 'delete', path: '/x/', data: '-' }, stdin)).toEqual({ method: 'DELETE', path: '/x/', body: [1, 2] });
  });
});
