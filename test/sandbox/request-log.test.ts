// `pgw sandbox serve` logs each request on stderr like a dev server (time, method, path, status,
// ms, account); --quiet turns it off; no secret, query string or card number is ever logged.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { run } from '../../src/main.js';
import { loggablePath } from '../../src/sandbox/request-log.js';
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
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d POST \/pg\/orders\/ 200 \d+ms merchant$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d GET \/pg\/payments\/PR0000000000\/ 404 \d+ms merchant$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d POST \/pg\/orders\/ 40[01] \d+ms -$/));
    expect(r.stderr).toMatch(/GET \/pg\/payments\/411111\*+1111\//);
    expect(r.stderr).not.toContain(CARD);
    expect(r.stderr).not.toContain('token=');
    // The start-up block goes to stdout (--json); the secrets never reach the log.
    for (const secret of r.secrets) expect(r.stderr).not.toContain(secret);
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
