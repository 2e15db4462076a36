// A write authenticates once (issue 23): with the account the fault check read as the request
// arrived (faults.ts), not with a second read once its body is in (pipeline.ts `answer`). A GET
// still reads the account again inside its one snapshot; production, which checks no faults,
// authenticates a write itself; wrong credentials are refused as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createSandboxServer } from '../../src/sandbox/server.js';
import { openStore, type Store } from '../../src/sandbox/store.js';
import { orderBody } from './harness.js';

let dir: string;
let store: Store;
let lookUps: number;
let stop: (() => Promise<void>) | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-write-auth-'));
  store = openStore(join(dir, 'sandbox.db'));
  lookUps = 0;
  const authenticate = store.authenticate;
  store.authenticate = (clientId, secret) => {
    lookUps++;
    return authenticate(clientId, secret);
  };
});
afterEach(async () => {
  await stop?.();
  stop = undefined;
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(production = false): Promise<string> {
  const server = createSandboxServer({ store, baseUrl: () => '', now: () => new Date(), production });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function headers(secret?: string): Record<string, string> {
  const merchant = store.accounts().find((a) => !a.psp)!;
  return { 'x-client-id': merchant.client_id, 'x-client-secret': secret ?? merchant.client_secret, 'x-api-version': '3.0.0', 'content-type': 'application/json' };
}

async function create(base: string, secret?: string): Promise<{ status: number; body: { data?: { order_id: string }; error?: { code: string } } }> {
  const res = await request(`${base}/pg/orders/`, { method: 'POST', headers: headers(secret), body: JSON.stringify(orderBody()) });
  return { status: res.statusCode, body: (await res.body.json()) as never };
}

describe('authenticating a write', () => {
  it('a create order looks its account up once: the fault check read it as the request arrived', async () => {
    const base = await serve();
    const created = await create(base);
    expect(created.status).toBe(201);
    expect(lookUps).toBe(1);
  });

  it('wrong credentials: 401 ERR_AUTH_001, nothing made', async () => {
    const base = await serve();
    const refused = await create(base, 'not-the-secret');
    expect(refused.status).toBe(401);
    expect(refused.body.error?.code).toBe('ERR_AUTH_001');
    expect(store.db.get<{ n: number }>('SELECT count(*) AS n FROM orders')!.n).toBe(0);
  });

  it('a GET reads its account again inside its snapshot, with the handler', async () => {
    const base = await serve();
    const orderId = (await create(base)).body.data!.order_id;
    lookUps = 0;
    const res = await request(`${base}/pg/orders/${orderId}/`, { headers: headers() });
    expect(res.statusCode).toBe(200);
    await res.body.text();
    expect(lookUps).toBe(2);
  });

  it('production checks no faults: a write authenticates itself, once', async () => {
    const base = await serve(true);
    expect((await create(base)).status).toBe(201);
    expect(lookUps).toBe(1);
    expect((await create(base, 'not-the-secret')).status).toBe(401);
  });
});
