import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbedded } from '../../src/sandbox/embedded.js';
import { DEFAULT_SANDBOX_PORT } from '../../src/sandbox/serve.js';
import { orderBody } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startEmbedded', () => {
  it('creates the config directory 0700 and the database 0600, and serves on 127.0.0.1', async () => {
    const dbPath = join(dir, 'cfg', 'pgw', 'sandbox.db');
    const sandbox = await startEmbedded(dbPath);
    try {
      expect(statSync(join(dir, 'cfg', 'pgw')).mode & 0o777).toBe(0o700);
      expect(statSync(dbPath).mode & 0o777).toBe(0o600);
      expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
      const merchant = sandbox.account('merchant');
      const psp = sandbox.account('psp');
      expect(merchant.merchant_id).not.toBe(psp.merchant_id);
      const headers = { 'x-client-id': merchant.client_id, 'x-client-secret': merchant.client_secret, 'content-type': 'application/json' };
      const created = await request(`${sandbox.baseUrl}/pg/orders/`, { method: 'POST', headers, body: JSON.stringify(orderBody()) });
      const order = (await created.body.json()) as any;
      expect(created.statusCode).toBe(201);
      // Page addresses point at `pgw sandbox serve` on its default port, which opens the same file.
      const link = await request(`${sandbox.baseUrl}/sandbox/payment-links/`, { method: 'POST', headers, body: JSON.stringify({ order_id: order.data.order_id }) });
      const l = (await link.body.json()) as any;
      expect(l.data.payment_link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${DEFAULT_SANDBOX_PORT}/p/`));
    } finally {
      await sandbox.close();
    }
  });

  it('keeps the data and credentials across runs; two at once share them', async () => {
    const dbPath = join(dir, 'shared.db');
    const a = await startEmbedded(dbPath);
    const b = await startEmbedded(dbPath);
    try {
      expect(b.account('merchant')).toEqual(a.account('merchant'));
      const m = a.account('merchant');
      const headers = { 'x-client-id': m.client_id, 'x-client-secret': m.client_secret, 'content-type': 'application/json' };
      const seed = (await (await request(`${a.baseUrl}/sandbox/seed/`, { method: 'POST', headers, body: '{}' })).body.json()) as any;
      const seen = await request(`${b.baseUrl}/pg/payments/${seed.data.payments[0]}/`, { headers });
      expect(seen.statusCode).toBe(200);
      await seen.body.dump();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const c = await startEmbedded(dbPath);
    try {
      expect(c.account('psp').client_secret).toBe(a.account('psp').client_secret);
    } finally {
      await c.close();
      await c.close(); // idempotent
    }
  });

  it('close() stops the server', async () => {
    const s = await startEmbedded(join(dir, 'closing.db'));
    await s.close();
    await expect(request(`${s.baseUrl}/pg/payments/x/`)).rejects.toThrow();
  });
});
