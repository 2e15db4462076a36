// pgw events wait (issue 42 item 6) and events list's `about` column, on the embedded default
// (in-process): exit 0 with the event once one matches, also one that happens while it waits;
// exit 3 when the time runs out, naming what it waited for; exit 6 on production, nothing sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run.js';

const config = tempConfigDir();
let server: Server;
let url: string;
let answer = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(answer).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  expect((await pgw(['sandbox', 'webhook', 'add', url, '--json'])).code).toBe(0);
});
afterAll(async () => {
  await new Promise((r) => (server.closeAllConnections(), server.close(r)));
  config.cleanup();
});

const pgw = (argv: string[], opts: { tty?: boolean; columns?: number } = {}) => runCli(argv, { env: { PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' }, ...opts });

describe('pgw events wait', () => {
  it('exits 0 with the event once it is delivered', async () => {
    const made = JSON.parse((await pgw(['trigger', 'PAYMENT_SUCCESSFUL', '--json'])).stdout);
    const r = await pgw(['events', 'wait', '--type', 'payment_successful', '--about', made.payment_id, '--status', 'delivered', '--timeout', '10s', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const event = JSON.parse(r.stdout);
    expect(event).toMatchObject({ event_type: 'PAYMENT_SUCCESSFUL', about: made.payment_id, status: 'delivered' });
    expect(event.payload.data.payment_id).toBe(made.payment_id);
  });

  it('waits for an event that happens while it waits', async () => {
    const waiting = pgw(['events', 'wait', '--type', 'PAYMENT_REFUNDED', '--timeout', '20s', '--json']);
    await new Promise((r) => setTimeout(r, 300));
    const made = JSON.parse((await pgw(['trigger', 'PAYMENT_REFUNDED', '--json'])).stdout);
    const r = await waiting;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).about).toBe(made.refund_id);
  });

  it('exit 3 when the time runs out, naming what it waited for and where the nearest event stands', async () => {
    answer = 500;
    try {
      const made = JSON.parse((await pgw(['trigger', 'PAYMENT_SUCCESSFUL', '--json'])).stdout);
      const r = await pgw(['events', 'wait', '--type', 'PAYMENT_SUCCESSFUL', '--about', made.payment_id, '--status', 'delivered', '--timeout', '1s']);
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`timed out after 1 s waiting for a PAYMENT_SUCCESSFUL event about ${made.payment_id} with status delivered`);
      expect(r.stderr).toMatch(/is pending \(1 attempts, last answer 500; next attempt at/);
      const j = await pgw(['events', 'wait', '--type', 'MERCHANT_APPROVED', '--timeout', '1s', '--json']);
      expect(j.code).toBe(3);
      expect(JSON.parse(j.stderr).error.code).toBe('TIMEOUT');
    } finally {
      answer = 200;
    }
  });

  it('refuses bad input (exit 2) and production (exit 6), sending nothing', async () => {
    expect((await pgw(['events', 'wait', '--timeout', '1s'])).code).toBe(2);
    expect((await pgw(['events', 'wait', '--type', 'NOT_AN_EVENT'])).code).toBe(2);
    const add = await runCli(['profile', 'add', 'live', '--env', 'production', '--base-url', 'https://gateway.example.invalid', '--client-id', 'live_id', '--client-secret-stdin'], {
      env: { PGW_CONFIG_DIR: config.dir },
      input: 'live-secret-123456\n',
    });
    expect(add.code, add.stderr).toBe(0);
    const prod = await pgw(['-p', 'live', 'events', 'wait', '--type', 'PAYMENT_SUCCESSFUL']);
    expect(prod.code).toBe(6);
    expect(prod.stderr).toContain('sandbox only');
  });
});

describe('pgw events list: what each event is about', () => {
  it('an about column at 80 columns, and about in JSON', async () => {
    const made = JSON.parse((await pgw(['trigger', 'PAYMENT_REFUNDED', '--json'])).stdout);
    const table = await pgw(['events', 'list', '--limit', '3'], { tty: true, columns: 80 });
    expect(table.stdout).toMatch(/│ about +│/);
    expect(table.stdout).toContain(made.refund_id);
    const listed = JSON.parse((await pgw(['events', 'list', '--about', made.refund_id, '--json'])).stdout);
    expect(listed[0]).toMatchObject({ event_type: 'PAYMENT_REFUNDED', about: made.refund_id });
  });
});
