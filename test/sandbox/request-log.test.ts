// `pgw sandbox serve` logs each request on stderr like a dev server (time, method, path, status,
// ms, account); --quiet turns it off; no secret, query string or card number is ever logged.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { run } from '../../src/main.js';
import { loggablePath, requestLogger } from '../../src/sandbox/request-log.js';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tempConfigDir } from '../helpers/run.js';
import { orderBody } from './harness.js';

const CARD = '4111111111111111';

interface Account {
  name: string;
  psp: boolean;
  client_id: string;
  client_secret: string;
}

/** Runs `pgw sandbox serve` in-process, drives it with `drive`, then stops it. */
async function serve(extra: string[], drive: (base: string, accounts: Account[]) => Promise<void>): Promise<{ code: number; stderr: string; secrets: string[] }> {
  const config = tempConfigDir();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = '';
  let err = '';
  const stop = new AbortController();
  const secrets: string[] = [];
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (!out.includes('\n')) return;
    const { base_url, accounts } = JSON.parse(out) as { base_url: string; accounts: Account[] };
    secrets.push(...accounts.map((a) => a.client_secret));
    void drive(base_url, accounts).finally(() => setTimeout(() => stop.abort(), 50));
  });
  try {
    const code = await run(['sandbox', 'serve', '--port', '0', '--json', ...extra], { env: { PGW_CONFIG_DIR: config.dir }, stdin, stdout, stderr, signal: stop.signal });
    return { code, stderr: err, secrets };
  } finally {
    config.cleanup();
  }
}

const auth = (a: Account) => ({ 'content-type': 'application/json', 'x-client-id': a.client_id, 'x-client-secret': a.client_secret });

describe('sandbox serve request log', () => {
  it('one line per request: time, method, path, status, ms, account', async () => {
    const r = await serve([], async (base, accounts) => {
      const merchant = accounts.find((a) => !a.psp)!;
      await fetch(`${base}/pg/orders/`, { method: 'POST', headers: auth(merchant), body: JSON.stringify(orderBody()) });
      await fetch(`${base}/pg/payments/PR0000000000/?token=${CARD}`, { headers: auth(merchant) });
      await fetch(`${base}/pg/payments/${CARD}/`, { headers: auth(merchant) });
      await fetch(`${base}/pg/orders/`, { method: 'POST', body: '{}' });
    });
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d POST \/pg\/orders\/ 201 \d+ms merchant$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d GET \/pg\/payments\/PR0000000000\/ 404 \d+ms merchant$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d POST \/pg\/orders\/ 40[01] \d+ms -$/));
    expect(r.stderr).toMatch(/GET \/pg\/payments\/411111\*+1111\//);
    expect(r.stderr).not.toContain(CARD);
    expect(r.stderr).not.toContain('token=');
    // The start-up block goes to stdout (--json); the secrets never reach the log.
    for (const secret of r.secrets) expect(r.stderr).not.toContain(secret);
  });

  it('a request a fault failed names the account it failed for (the fault is that account\'s)', async () => {
    const r = await serve([], async (base, accounts) => {
      const merchant = accounts.find((a) => !a.psp)!;
      await fetch(`${base}/sandbox/faults/`, { method: 'POST', headers: auth(merchant), body: JSON.stringify({ route: 'GET /pg/payments/*/', status: 503, times: 1 }) });
      await fetch(`${base}/pg/payments/PR0000000000/`, { headers: auth(merchant) });
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d GET \/pg\/payments\/PR0000000000\/ 503 \d+ms merchant$/));
  });

  it('--quiet: no request lines', async () => {
    const r = await serve(['--quiet'], async (base, accounts) => {
      await fetch(`${base}/pg/payments/PR0000000000/`, { headers: auth(accounts[0]!) });
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('/pg/payments/');
  });

  it('paths are printed safe: grouped card numbers masked, control characters removed', () => {
    expect(loggablePath('/pg/payments/4111%201111%201111%201111/')).not.toContain('1111 1111 1111');
    expect(loggablePath('/x/%1b[31m/')).toBe('/x/[31m/');
    expect(loggablePath('/pg/orders/OD12345678901234/')).toBe('/pg/orders/OD12345678901234/');
    // An ID whose digits happen to pass the Luhn check stays whole.
    expect(loggablePath('/pg/orders/OD04026290606483/')).toBe('/pg/orders/OD04026290606483/');
  });
});

describe('request log writes', () => {
  // A busy server answers many requests per turn of the event loop: their lines go out in one
  // write (one syscall, one pass of the output guard), not one each.
  it('lines of the requests answered in one turn are written together, in order, at the end of the turn', async () => {
    const writes: string[] = [];
    const hook = requestLogger({ write: (text) => writes.push(text), now: () => new Date(2026, 10, 23, 9, 5, 7) });
    const answer = (method: string, url: string, status: number) => {
      const res = Object.assign(new EventEmitter(), { statusCode: status }) as unknown as ServerResponse;
      hook({ method, url } as IncomingMessage, res);
      (res as unknown as EventEmitter).emit('finish');
    };
    answer('GET', '/pg/payments/PR1/', 404);
    answer('POST', '/pg/orders/', 200);
    expect(writes).toEqual([]); // nothing until the turn ends
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n')).toEqual([expect.stringMatching(/^09:05:07 GET \/pg\/payments\/PR1\/ 404 \d+ms -$/), expect.stringMatching(/^09:05:07 POST \/pg\/orders\/ 200 \d+ms -$/)]);
    answer('GET', '/pg/orders/OD1/', 200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toMatch(/^09:05:07 GET \/pg\/orders\/OD1\/ 200 \d+ms -$/);
  });
});
