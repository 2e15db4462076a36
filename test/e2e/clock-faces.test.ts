// issue 42 item 5, the processes: a clock move answers only after every attempt that fell due has
// been made, under `pgw mcp` (an agent advances a week and at once asks which webhooks failed)
// and over `pgw sandbox serve`, while both processes hold the same database and either may be the
// one making an attempt. The answer says what the move caused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { callTool, mcpProcess, type McpSession } from '../helpers/mcp.js';
import { killServes, startServe, type ServeProcess } from '../helpers/serve-process.js';

const tmp = tempConfigDir();
const env = { PGW_CONFIG_DIR: tmp.dir, PATH: process.env.PATH ?? '' };
let receiver: Server;
let hits = 0;
let serve: ServeProcess;
let mcp: McpSession;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await runCli(['sandbox', 'webhook', 'add', url, '--json'], { env })).code).toBe(0);
  // A serve on the same database: its once-a-second look for due work races the mover's.
  serve = await startServe(tmp.dir, '0');
  mcp = await mcpProcess(['mcp'], env);
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await serve?.stop();
  killServes();
  await new Promise((r) => receiver.close(r));
  tmp.cleanup();
});

describe('a clock move, answered once what fell due happened', () => {
  it('under pgw mcp: advance 7d, then the failed events are listed at once, and the move named them', async () => {
    const made = await callTool(mcp.client, 'sandbox_trigger', { event: 'PAYMENT_SUCCESSFUL' });
    expect(made.isError, made.text).toBe(false);
    const paymentId = made.data.payment_id as string;
    const moved = await callTool(mcp.client, 'sandbox_clock_advance', { duration: '7d' });
    expect(moved.isError, moved.text).toBe(false);
    const failed = await callTool(mcp.client, 'events_list', { status: 'failed', about: paymentId });
    const items = failed.data.items as { id: string; attempts: number; about: string }[];
    expect(items.map((e) => [e.about, e.attempts])).toEqual([[paymentId, 5]]);
    const caused = moved.data.caused as { events_failed: { id: string }[]; deliveries: { attempted: number } };
    expect(caused.events_failed.map((e) => e.id)).toEqual([items[0]!.id]);
    expect(moved.text).toMatch(/caused: \d+ webhook attempts? \(0 delivered, \d+ failed\); 1 event now failed/);
  }, 60_000);

  it('over sandbox serve: POST /sandbox/clock/ answers after the retries, with caused', async () => {
    const account = serve.accounts.find((a) => !a.psp)!;
    const headers = { 'x-client-id': account.client_id, 'x-client-secret': account.client_secret, 'content-type': 'application/json' };
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await request(`${serve.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.body.json()) as { data: any };
    };
    const made = (await runCli(['trigger', 'PAYMENT_FAILED', '--json'], { env })).stdout;
    const paymentId = JSON.parse(made).payment_id as string;
    const before = hits;
    const moved = (await call('POST', '/sandbox/clock/', { advance_seconds: 3600 })).data;
    const atAnswer = hits;
    const failed = (await call('GET', `/sandbox/events/?status=failed&about=${paymentId}`)).data as { id: string; attempts: number }[];
    expect(failed.map((e) => e.attempts)).toEqual([5]);
    expect(moved.caused.events_failed.map((e: { id: string }) => e.id)).toEqual([failed[0]!.id]);
    expect(moved.caused.deliveries.attempted).toBeGreaterThanOrEqual(4);
    expect(atAnswer - before).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
