// Issue 23: pgw's own requests reach its embedded sandbox in the process (src/sandbox/in-process.ts),
// with no socket and no HTTP parser. The same pipeline answers as `pgw sandbox serve` does: every
// answer must be the one a TCP client gets from a server on the same database, bodies, statuses
// and the headers a client reads included; and the failures a client must survive (a dropped
// answer, its own deadline) must look as they do over TCP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_BASE_URL, startEmbedded, type EmbeddedSandbox } from '../../src/sandbox/embedded.js';
import type { InProcessDispatcher } from '../../src/sandbox/in-process.js';
import { startServer, type RunningSandbox } from '../../src/sandbox/serve.js';
import { orderBody } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-in-process-'));
let embedded: EmbeddedSandbox;
let inProcess: InProcessDispatcher;
let tcp: RunningSandbox;

beforeAll(async () => {
  const dbPath = join(dir, 'sandbox.db');
  embedded = await startEmbedded(dbPath);
  inProcess = embedded.dispatcher();
  tcp = await startServer({ port: 0, host: '127.0.0.1', dbPath, publicBaseUrl: 'http://127.0.0.1:4010' });
});
afterAll(async () => {
  await inProcess.close();
  await embedded.close();
  await tcp.close();
  rmSync(dir, { recursive: true, force: true });
});

type Who = 'merchant' | 'psp' | 'none';
const READ_HEADERS = ['content-type', 'allow', 'retry-after', 'cache-control'];

function headersFor(who: Who, extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json', ...extra };
  if (who !== 'none') {
    const a = embedded.account(who);
    Object.assign(h, { 'X-Client-ID': a.client_id, 'X-Client-Secret': a.client_secret });
  }
  return h;
}

async function text(body: Dispatcher.ResponseData['body']): Promise<string> {
  let out = '';
  for await (const chunk of body as AsyncIterable<Buffer>) out += chunk.toString('utf8');
  return out;
}

interface Seen {
  status: number;
  headers: Record<string, unknown>;
  json: any;
}

async function viaInProcess(method: string, path: string, body?: string, who: Who = 'merchant', extra?: Record<string, string>): Promise<Seen> {
  const r = await inProcess.request({ origin: EMBEDDED_BASE_URL, path, method: method as 'GET', headers: headersFor(who, extra), body });
  return seen(r.statusCode, r.headers, await text(r.body));
}

async function viaTcp(method: string, path: string, body?: string, who: Who = 'merchant', extra?: Record<string, string>): Promise<Seen> {
  const r = await request(`${tcp.baseUrl}${path}`, { method: method as 'GET', headers: headersFor(who, extra), body });
  return seen(r.statusCode, r.headers, await r.body.text());
}

function seen(status: number, headers: Record<string, unknown>, raw: string): Seen {
  const picked: Record<string, unknown> = {};
  for (const name of READ_HEADERS) if (headers[name] !== undefined) picked[name] = headers[name];
  return { status, headers: picked, json: raw === '' ? undefined : JSON.parse(raw) };
}

describe('the in-process transport of the embedded sandbox', () => {
  it('listens on no port: nothing outside the process can reach it', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const other = await startEmbedded(join(dir, 'no-port.db'));
    try {
      expect(process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length).toBe(before);
      expect(other.baseUrl).toBe(EMBEDDED_BASE_URL);
      expect(new URL(other.baseUrl).port).toBe('');
    } finally {
      await other.close();
    }
  });

  it('creates an order with a body and reads it back: the same answer as over TCP', async () => {
    const created = await viaInProcess('POST', '/pg/orders/', JSON.stringify(orderBody()));
    expect(created.status).toBe(201);
    const id = created.json.data.order_id as string;
    const [a, b] = [await viaInProcess('GET', `/pg/orders/${id}/`), await viaTcp('GET', `/pg/orders/${id}/`)];
    expect(a).toEqual(b);
    expect(a.json.data.order_id).toBe(id);
  });

  it('carries text beyond ASCII both ways, byte for byte', async () => {
    const body = orderBody({ buyer: { ...(orderBody().buyer as object), name: 'Ünïcødé Åsha' }, product: { ...(orderBody().product as object), description: 'Chá ✓ 漢字' } });
    const created = await viaInProcess('POST', '/pg/orders/', JSON.stringify(body));
    expect(created.status).toBe(201);
    const [a, b] = [await viaInProcess('GET', `/pg/orders/${created.json.data.order_id}/`), await viaTcp('GET', `/pg/orders/${created.json.data.order_id}/`)];
    expect(a).toEqual(b);
    expect(JSON.stringify(a.json)).toContain('Ünïcødé Åsha');
    expect(JSON.stringify(a.json)).toContain('Chá ✓ 漢字');
  });

  it.each([
    ['GET', '/pg/payments/PR0000000000/', undefined, 'merchant'],
    ['GET', '/pg/payments/PR0000000000/', undefined, 'none'],
    ['GET', '/no/such/path', undefined, 'merchant'],
    ['GET', '/pg/orders', undefined, 'merchant'],
    ['DELETE', '/pg/orders/', undefined, 'merchant'],
    ['POST', '/pg/orders/', '{"amount":"ten"}', 'merchant'],
    ['POST', '/pg/orders/', '{not json', 'merchant'],
    ['GET', '/partners/merchants/', undefined, 'merchant'],
    ['GET', '/pg/payments/PR0000000000/?a=%zz', undefined, 'merchant'],
  ] as const)('%s %s (%s, as %s) answers as over TCP, errors included', async (method, path, body, who) => {
    const [a, b] = [await viaInProcess(method, path, body, who), await viaTcp(method, path, body, who)];
    expect(a).toEqual(b);
    expect(a.status).toBeGreaterThanOrEqual(400);
  });

  it('an unsupported X-API-Version is refused as over TCP', async () => {
    const [a, b] = [await viaInProcess('GET', '/pg/payments/PR0000000000/', undefined, 'merchant', { 'X-API-Version': '9.0.0' }), await viaTcp('GET', '/pg/payments/PR0000000000/', undefined, 'merchant', { 'X-API-Version': '9.0.0' })];
    expect(a).toEqual(b);
    expect(a.json.error.code).toBe('ERR_VERSION_000');
  });

  it('a body over 1 MiB is refused with 413, as over TCP', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) });
    const [a, b] = [await viaInProcess('POST', '/pg/orders/', big), await viaTcp('POST', '/pg/orders/', big)];
    expect(a).toEqual(b);
    expect(a.status).toBe(413);
  });

  it('many look-ups at once are all answered', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => viaInProcess('GET', '/pg/payments/PR0000000000/')));
    expect(answers.every((a) => a.status === 404 && a.json.error.code === 'ERR_PAYMENT_005')).toBe(true);
  });

  it('a dropped answer (a drop fault) fails as a reset connection does over TCP', async () => {
    const armed = await viaInProcess('POST', '/sandbox/faults/', JSON.stringify({ route: 'GET /pg/payments/*/', drop: true, times: 1 }));
    expect(armed.status).toBeLessThan(300);
    await expect(inProcess.request({ origin: EMBEDDED_BASE_URL, path: '/pg/payments/PR0000000000/', method: 'GET', headers: headersFor('merchant') })).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    // Used up: the next one is answered.
    expect((await viaInProcess('GET', '/pg/payments/PR0000000000/')).status).toBe(404);
  });

  it("the client's deadline ends a request the sandbox holds (a delay fault)", async () => {
    const armed = await viaInProcess('POST', '/sandbox/faults/', JSON.stringify({ route: 'GET /pg/payments/*/', delay_ms: 5000, times: 1 }));
    expect(armed.status).toBeLessThan(300);
    const controller = new AbortController();
    const pending = inProcess.request({ origin: EMBEDDED_BASE_URL, path: '/pg/payments/PR0000000000/', method: 'GET', headers: headersFor('merchant'), signal: controller.signal });
    const reason = new Error('request timed out after 50 ms');
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
    await viaInProcess('DELETE', '/sandbox/faults/');
  });

  it('refuses requests once closed', async () => {
    const d = embedded.dispatcher();
    await d.close();
    await expect(d.request({ origin: EMBEDDED_BASE_URL, path: '/pg/payments/PR0000000000/', method: 'GET', headers: headersFor('merchant') })).rejects.toThrow(/closed/);
  });
});
