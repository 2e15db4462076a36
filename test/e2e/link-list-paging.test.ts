// Issue 21 item 13 (the commands run in-process): link list sends page and page_size on every
// request, --all included, as the vendor's client always does (beyond 3.2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
let server: Server;
let base: string;
const seen: URLSearchParams[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-link-pages-'));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url.searchParams);
    const page = Number(url.searchParams.get('page') ?? '1');
    const item = (n: number) => ({ payment_id: `PR10000000${String(n).padStart(2, '0')}`, status: 'active', amount: '10.00', currency: 'INR', created_at: '2026-11-20T10:00:00.000000Z' });
    const data = { count: 3, next: page < 3 ? `http://elsewhere.invalid/pg/payment-links/?page=${page + 1}` : null, previous: null, results: [item(page)] };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'ok', data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const pgw = (args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir, PGW_BASE_URL: base, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_pages_1' } });

describe('link list sends page and page_size (issue 21 item 13)', () => {
  it.each([
    [['link', 'list', '--all'], [['1', '100'], ['2', '100'], ['3', '100']]],
    [['link', 'list'], [['1', '10']]],
    [['link', 'list', '--page', '2'], [['2', '10']]],
    [['link', 'list', '--page-size', '25', '--all'], [['1', '25'], ['2', '25'], ['3', '25']]],
  ])('%j', async (args, expected) => {
    seen.length = 0;
    const r = await pgw([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(seen.map((q) => [q.get('page'), q.get('page_size')])).toEqual(expected);
  });
});
