import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_BASE_URL, startEmbedded, type EmbeddedSandbox } from '../../src/sandbox/embedded.js';
import { DEFAULT_SANDBOX_PORT } from '../../src/sandbox/serve.js';
import { orderBody } from './harness.js';

/** pgw's own way in: the in-process dispatcher (src/sandbox/in-process.ts). */
async function call(sandbox: EmbeddedSandbox, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) {
  const res = await sandbox.dispatcher().request({ origin: EMBEDDED_BASE_URL, path, method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let text = '';
  for await (const chunk of res.body as AsyncIterable<Buffer>) text += chunk.toString();
  return { statusCode: res.statusCode, json: JSON.parse(text) as any };
}

const dir = mkdtempSync(join(tmpdir(), 'pgw-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startEmbedded', () => {
  it('creates the config directory 0700 and the database 0600, and answers in the process', async () => {
    const dbPath = join(dir, 'cfg', 'pgw', 'sandbox.db');
    const sandbox = await startEmbedded(dbPath);
    try {
      expect(statSync(join(dir, 'cfg', 'pgw')).mode & 0o777).toBe(0o700);
      expect(statSync(dbPath).mode & 0o777).toBe(0o600);
      expect(sandbox.baseUrl).toBe(EMBEDDED_BASE_URL);
      const merchant = sandbox.account('merchant');
      const psp = sandbox.account('psp');
      expect(merchant.merchant_id).not.toBe(psp.merchant_id);
      const headers = { 'x-client-id': merchant.client_id, 'x-client-secret': merchant.client_secret, 'content-type': 'application/json' };
      const created = await call(sandbox, 'POST', '/pg/orders/', headers, orderBody());
      const order = created.json;
      expect(created.statusCode).toBe(201);
      // Page addresses point at `pgw sandbox serve` on its default port, which opens the same file.
      const l = (await call(sandbox, 'POST', '/sandbox/payment-links/', headers, { order_id: order.data.order_id })).json;
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
      const seed = (await call(a, 'POST', '/sandbox/seed/', headers, {})).json;
      const seen = await call(b, 'GET', `/pg/payments/${seed.data.payments[0]}/`, headers);
      expect(seen.statusCode).toBe(200);
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

  it('close() closes the database: a request after it fails', async () => {
    const s = await startEmbedded(join(dir, 'closing.db'));
    const m = s.account('merchant');
    const headers = { 'x-client-id': m.client_id, 'x-client-secret': m.client_secret };
    expect((await call(s, 'GET', '/pg/payments/PR0000000000/', headers)).statusCode).toBe(404);
    await s.close();
    expect((await call(s, 'GET', '/pg/payments/PR0000000000/', headers)).statusCode).toBe(500);
  });
});
