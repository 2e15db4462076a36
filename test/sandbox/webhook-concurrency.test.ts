// Two processes holding one database (two `pgw sandbox serve`, or serve and an embedded run): each
// delivery is made once, whoever records the event and whoever polls (the lease in outbox.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startServer, type RunningSandbox } from '../../src/sandbox/serve.js';
import { orderBody, startHarness, type Harness } from './harness.js';

let h: Harness;
let other: RunningSandbox;
let receiver: Server;
let url: string;
const bodies: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  h = await startHarness();
  other = await startServer({ port: 0, host: '127.0.0.1', dbPath: h.dbPath });
});
afterAll(async () => {
  await other.close();
  await h.close();
  await new Promise((r) => receiver.close(r));
});

async function payVia(base: string): Promise<void> {
  const headers = { 'x-client-id': h.merchant.client_id, 'x-client-secret': h.merchant.client_secret, 'content-type': 'application/json' };
  const order = (await (await request(`${base}/pg/orders/`, { method: 'POST', headers, body: JSON.stringify(orderBody()) })).body.json()) as any;
  await (await request(`${base}/sandbox/orders/${order.data.order_id}/pay/`, { method: 'POST', headers, body: JSON.stringify({ outcome: 'success' }) })).body.dump();
}

describe('one database, two processes', () => {
  it('each event reaches the address exactly once, whichever process records or polls it', async () => {
    await h.call('POST', '/sandbox/webhooks/', { body: { url } });
    const n = 12;
    await Promise.all(Array.from({ length: n }, (_, i) => payVia(i % 2 === 0 ? h.sandbox.baseUrl : other.baseUrl)));
    for (let i = 0; i < 500 && bodies.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    // Both processes poll each second: give them two rounds to send anything twice.
    await new Promise((r) => setTimeout(r, 2200));
    expect(bodies).toHaveLength(n);
    expect(new Set(bodies.map((b) => JSON.parse(b).sequence_number)).size).toBe(n);
    const events = (await h.call('GET', '/sandbox/events/?limit=100')).body.data as { attempts: number; status: string }[];
    expect(events).toHaveLength(n);
    for (const e of events) expect(e).toMatchObject({ attempts: 1, status: 'delivered' });
  });
});
