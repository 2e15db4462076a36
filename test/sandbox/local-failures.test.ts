// Issue 13 item 12: an unexpected failure of the embedded sandbox (a read-only or full database, a
// connection gone) is explained in the 500 it answers, naming the file; a network sandbox keeps
// its bare "Internal server error".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createSandboxServer } from '../../src/sandbox/server.js';
import { openStore } from '../../src/sandbox/store.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-local-failures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function answerOfBrokenStore(explain: boolean): Promise<{ status: number; error: { code: string; details?: Record<string, string> } }> {
  const dbPath = join(dir, `${explain}.db`);
  const store = openStore(dbPath);
  const account = store.db.get<{ client_id: string; client_secret: string }>('SELECT client_id, client_secret FROM merchants WHERE client_secret IS NOT NULL LIMIT 1')!;
  store.close(); // the file is gone from under the server: every request now fails unexpectedly
  const server = createSandboxServer({ store, baseUrl: () => '', now: () => new Date(), explainFailures: explain ? { database: dbPath } : undefined });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/pg/payments/PR1/`, {
      headers: { 'x-client-id': account.client_id, 'x-client-secret': account.client_secret, 'x-api-version': '3.0.0' },
    });
    const body = (await res.body.json()) as { error: { code: string; details?: Record<string, string> } };
    return { status: res.statusCode, error: body.error };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('an unexpected failure of the sandbox', () => {
  it('embedded: the 500 names the database file and the cause', async () => {
    const { status, error } = await answerOfBrokenStore(true);
    expect(status).toBe(500);
    expect(error.code).toBe('ERR_SERVICE_ERROR_000');
    expect(error.details?.database).toMatch(/true\.db$/);
    expect(error.details?.cause).toMatch(/EBADF|not open/i);
  });

  it('served to others: nothing internal in the answer', async () => {
    const { status, error } = await answerOfBrokenStore(false);
    expect(status).toBe(500);
    expect(error.details).toEqual({ error: 'An unexpected error occurred. Please try again later' });
  });
});
