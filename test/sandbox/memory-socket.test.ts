// Issue 23: pgw's own requests reach its embedded sandbox over an in-memory connection
// (src/sandbox/memory-socket.ts) instead of a loopback socket. The same server answers, through
// the same pipeline: every answer is the one a TCP client gets, bodies included, with keep-alive.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedSandbox } from '../../src/sandbox/embedded.js';
import { createLoopbackDispatcher, type LoopbackDispatcher } from '../../src/api/loopback.js';
import { orderBody } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-memory-socket-'));
let sandbox: EmbeddedSandbox;
let memory: LoopbackDispatcher;
let tcp: LoopbackDispatcher;
let connections = 0;

beforeAll(async () => {
  sandbox = await startEmbedded(join(dir, 'sandbox.db'));
  memory = createLoopbackDispatcher(() => {
    connections++;
    return sandbox.connect!();
  });
  tcp = createLoopbackDispatcher();
});
afterAll(async () => {
  await memory.close();
  await tcp.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function send(d: LoopbackDispatcher, method: string, path: string, body?: unknown, auth = true) {
  const account = sandbox.account('merchant');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth) Object.assign(headers, { 'x-client-id': account.client_id, 'x-client-secret': account.client_secret });
  const r = await d.request({ origin: sandbox.baseUrl, path, method: method as 'GET', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let text = '';
  for await (const chunk of r.body as AsyncIterable<Buffer>) text += chunk.toString();
  return { status: r.statusCode, json: JSON.parse(text) as Record<string, any> };
}

describe('the in-memory connection to the embedded sandbox', () => {
  it('exists: the embedded sandbox hands out connections', () => {
    expect(typeof sandbox.connect).toBe('function');
  });

  it('creates an order with a body and reads it back, as over TCP', async () => {
    const created = await send(memory, 'POST', '/pg/orders/', orderBody());
    expect(created.json.success).toBe(true); // 200 or 201: whichever the sandbox answers over TCP too
    const id = created.json.data.order_id as string;
    const [viaMemory, viaTcp] = await Promise.all([send(memory, 'GET', `/pg/orders/${id}/`), send(tcp, 'GET', `/pg/orders/${id}/`)]);
    expect(viaMemory).toEqual(viaTcp);
    expect(viaMemory.json.data.order_id).toBe(id);
  });

  it.each([
    ['GET', '/pg/payments/PR0000000000/', undefined, true],
    ['GET', '/pg/payments/PR0000000000/', undefined, false],
    ['GET', '/no/such/path', undefined, true],
    ['DELETE', '/pg/orders/', undefined, true],
    ['POST', '/pg/orders/', { amount: 'ten' }, true],
  ])('%s %s answers as over TCP (errors included)', async (method, path, body, auth) => {
    const viaMemory = await send(memory, method, path, body, auth);
    const viaTcp = await send(tcp, method, path, body, auth);
    expect(viaMemory).toEqual(viaTcp);
    expect(viaMemory.status).toBeGreaterThanOrEqual(400);
  });

  it('keeps connections alive: 200 look-ups, 20 at a time, open at most 20', async () => {
    const before = connections;
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => send(memory, 'GET', '/pg/payments/PR0000000000/')));
      expect(answers.every((a) => a.status === 404)).toBe(true);
    }
    expect(connections - before).toBeLessThanOrEqual(20);
  });
});
