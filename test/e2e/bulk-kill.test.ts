// Issue 21 item 4 through the built binary: `merchant create --file --results` killed with SIGKILL
// while a create is in flight. The attempt was on disk before the request left, so `--resume`
// holds that merchant back as uncertain (exit 6) instead of creating it a second time, and sends
// the ones never tried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, spawnPgw } from '../helpers/spawn.js';
import { jsonl, merchantBody } from '../commands/merchant/helpers.js';

let dir: string;
let server: Server;
let base: string;
/** brand_name → how many creates the gateway received for it. */
const received = new Map<string, number>();
/** Called when the create to hang arrives (its response is never sent). */
let onHang: (() => void) | undefined;
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-bulk-kill-'));
  let next = 500;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      // The list a file run reads for duplicates before sending (duplicates.ts): none yet.
      if (req.method === 'GET') {
        const page = { count: 0, page: 1, page_size: 1000, next: null, previous: null, results: [] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'fetched', data: page }));
        return;
      }
      const brand = (JSON.parse(body || '{}') as { company_details?: { brand_name?: string } }).company_details?.brand_name ?? '?';
      received.set(brand, (received.get(brand) ?? 0) + 1);
      if (brand === 'Kill 2' && onHang) {
        hanging.push(res);
        onHang();
        return;
      }
      const data = { id: String(next++), brand_name: brand, kyc_status: 'PENDING' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'sub-merchant created successfully', data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ PGW_CONFIG_DIR: dir, PGW_BASE_URL: base, PGW_CLIENT_ID: 'psp', PGW_CLIENT_SECRET: 'sk_bulk_kill_1' });

describe('a bulk create killed while a create is in flight (issue 21 item 4)', () => {
  it('--resume never sends that merchant again: it is held back as uncertain; the rest are created', async () => {
    const input = join(dir, 'm.jsonl');
    writeFileSync(input, jsonl([1, 2, 3, 4].map((n) => merchantBody(`Kill ${n}`))));
    const results = join(dir, 'r.jsonl');

    const child = spawn(process.execPath, [BIN, 'merchant', 'create', '--file', input, '--results', results, '--json'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', ...env() },
    });
    child.stdout.resume();
    child.stderr.resume();
    onHang = () => child.kill('SIGKILL');
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, sig) => resolve(sig)));
    onHang = undefined;
    expect(signal).toBe('SIGKILL');
    expect(Object.fromEntries(received)).toEqual({ 'Kill 1': 1, 'Kill 2': 1 });
    // The file says line 2 was attempted, with no outcome.
    const records = readFileSync(results, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.at(-1)).toMatchObject({ line: 2, brand_name: 'Kill 2', attempt: true });

    const resumed = await spawnPgw(['merchant', 'create', '--file', input, '--resume', results, '--json'], { env: env() });
    expect(resumed.code, resumed.stderr).toBe(6);
    const statuses = JSON.parse(resumed.stdout) as { line: number; status: string; error?: { message: string } }[];
    expect(statuses.map((s) => s.status)).toEqual(['already_created', 'uncertain', 'created', 'created']);
    expect(statuses[1]!.error!.message).toMatch(/in flight/);
    expect(Object.fromEntries(received)).toEqual({ 'Kill 1': 1, 'Kill 2': 1, 'Kill 3': 1, 'Kill 4': 1 });

    // Resuming again still never sends it blindly.
    const again = await spawnPgw(['merchant', 'create', '--file', input, '--resume', results, '--json'], { env: env() });
    expect(again.code).toBe(6);
    expect(received.get('Kill 2')).toBe(1);
  });
});
