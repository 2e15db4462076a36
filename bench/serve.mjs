// A `pgw sandbox serve` on a free port and a fresh database, with the merchant's credentials in
// the environment pgw reads (PGW_BASE_URL, PGW_CLIENT_ID, PGW_CLIENT_SECRET). Started with
// --quiet unless `requestLog`: the figures are the server's, not its request log's (the
// throughput section measures the log separately, for reference).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGW, cleanEnv, startJsonServer, timedRun } from './proc.mjs';

export async function startSandbox({ requestLog = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-bench-serve-'));
  const quiet = requestLog ? [] : ['--quiet'];
  const server = startJsonServer([process.execPath, PGW, 'sandbox', 'serve', '--port', '0', '--json', ...quiet, '--db', join(dir, 'bench.db')], {
    env: cleanEnv({ PGW_CONFIG_DIR: dir }),
  });
  const info = await server.info;
  const merchant = info.accounts.find((a) => !a.psp);
  const env = cleanEnv({
    PGW_CONFIG_DIR: dir,
    PGW_BASE_URL: info.base_url,
    PGW_CLIENT_ID: merchant.client_id,
    PGW_CLIENT_SECRET: merchant.client_secret,
  });
  return {
    dir,
    baseUrl: info.base_url,
    env,
    headers: { 'x-client-id': merchant.client_id, 'x-client-secret': merchant.client_secret, 'x-api-version': '3.0.0' },
    /** N captured payments in one transaction, through the CLI (`pgw sandbox seed --payments N --json`). */
    seed(count) {
      return JSON.parse(timedRun([process.execPath, PGW, 'sandbox', 'seed', '--payments', String(count), '--json'], { env }).stdout);
    },
    /** Stops the server; resolves with its peak RSS in bytes. */
    async stop() {
      try {
        return await server.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
