// Issue 21 item 14 through the built binary: `refund get` sends the refund and its settlement
// look-up together; when the refund is not found the answer is printed at once, and the other
// request, no longer awaited, is abandoned when the run ends: never retried against the embedded
// sandbox that has stopped, never waited for on a gateway that is slow to answer it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnPgw } from '../helpers/spawn.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-abandon-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('refund get of an unknown refund (issue 21 item 14)', () => {
  it('embedded: not found at once; the settlement look-up is not retried after the sandbox stops', async () => {
    const r = await spawnPgw(['-v', 'refund', 'get', 'RF0000000000', '-o', 'table'], { env: { PGW_CONFIG_DIR: dir } });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/error: Refund not found \(ERR_REFUND_003\)/);
    expect(r.stderr).not.toMatch(/retry \d of \d/);
    expect(r.stderr).not.toMatch(/connection failed/);
  });

  it('a gateway that holds the settlement answer: pgw ends without waiting for it', async () => {
    const held: ServerResponse[] = [];
    const server: Server = createServer((req, res) => {
      if ((req.url ?? '').includes('/settlement/')) {
        held.push(res); // answered only after pgw has exited
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: 'ERR_REFUND_003', message: 'Refund not found', details: { refund_id: 'RF0000000000 not found' } } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // With --timeout 600000 pgw would otherwise sit on the held request far past the spawn's limit.
      const r = await spawnPgw(['--timeout', '600000', 'refund', 'get', 'RF0000000000', '-o', 'table'], {
        env: { PGW_CONFIG_DIR: dir, PGW_BASE_URL: base, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_abandon_1' },
        timeoutMs: 60_000,
      });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/Refund not found/);
    } finally {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
