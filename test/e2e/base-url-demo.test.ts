// Issue 22 item 12 (the commands run in-process): `pgw sandbox serve` on a free port, then `pgw
// --base-url <it> ...` on the built-in profiles sends the demo account of the profile's kind (the
// same database, as the embedded profile uses) and says so on stderr; credentials from the
// environment win; a serve on another database is explained, not a mystery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
const served: ChildProcess[] = [];

async function serve(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--quiet', ...args], { cwd: ROOT, env: { ...process.env, PGW_CONFIG_DIR: dir } });
  served.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', () => reject(new Error('serve exited early')));
  });
  return (JSON.parse(line) as { base_url: string }).base_url;
}

let base: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-base-url-'));
  base = await serve([]);
}, 30_000);
afterAll(async () => {
  for (const child of served) {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

const pgw = (args: string[], env: Record<string, string> = {}) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir, ...env } });

describe('--base-url at a pgw sandbox on this machine', () => {
  it('uses the demo merchant account for profile local, and says so', async () => {
    const seeded = await pgw(['--base-url', base, 'sandbox', 'seed', '--json']);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stderr).toMatch(/note: http:\/\/127\.0\.0\.1:\d+ is on this machine and profile local has no credentials: using the demo merchant account/);
    const payment = JSON.parse(seeded.stdout).payments[0] as string;
    const r = await pgw(['--base-url', base, 'payment', 'get', payment, '--json', '--query', 'payment_id']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(payment);
  }, 60_000);

  it('uses the demo PSP account for profile local-psp', async () => {
    const r = await pgw(['-p', 'local-psp', '--base-url', base, 'merchant', 'list', '--json', '--query', 'length(@)']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('using the demo PSP account');
  }, 30_000);

  it('credentials from the environment win (no note)', async () => {
    const r = await pgw(['--base-url', base, 'payment', 'get', 'PR0000000001', '-o', 'table'], { PGW_CLIENT_ID: 'someone', PGW_CLIENT_SECRET: 'not-the-demo' });
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain('note:');
  }, 30_000);

  it('a serve on another database: the note says how to pass its credentials', async () => {
    const other = await serve(['--db', join(dir, 'other.db')]);
    const r = await pgw(['--base-url', other, 'payment', 'get', 'PR0000000001', '-o', 'table']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('a serve with --db has its own: set PGW_CLIENT_ID and PGW_CLIENT_SECRET');
  }, 60_000);
});
