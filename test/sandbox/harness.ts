// Starts the sandbox on port 0 against a temp database and drives it over real HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startServer, type RunningSandbox, type ServeOptions } from '../../src/sandbox/serve.js';

export interface CallResult<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export type As = 'merchant' | 'psp' | 'none';

export interface Harness {
  sandbox: RunningSandbox;
  dbPath: string;
  dir: string;
  merchant: RunningSandbox['accounts'][number];
  psp: RunningSandbox['accounts'][number];
  call<T = any>(method: string, path: string, opts?: { body?: unknown; raw?: string | Buffer; as?: As; headers?: Record<string, string> }): Promise<CallResult<T>>;
  close(): Promise<void>;
}

export async function startHarness(opts: Partial<ServeOptions> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-sandbox-'));
  const dbPath = opts.dbPath ?? join(dir, 'sandbox.db');
  const sandbox = await startServer({ port: 0, host: '127.0.0.1', ...opts, dbPath });
  const merchant = sandbox.accounts.find((a) => !a.psp)!;
  const psp = sandbox.accounts.find((a) => a.psp)!;
  return {
    sandbox,
    dbPath,
    dir,
    merchant,
    psp,
    async call(method, path, o = {}) {
      const who = o.as ?? 'merchant';
      const account = who === 'psp' ? psp : merchant;
      const headers: Record<string, string> = {};
      if (who !== 'none') {
        headers['x-client-id'] = account.client_id;
        headers['x-client-secret'] = account.client_secret;
      }
      let body: string | Buffer | undefined = o.raw;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] = 'application/json';
      }
      Object.assign(headers, o.headers);
      const res = await request(`${sandbox.baseUrl}${path}`, { method: method as any, headers, body });
      const text = await res.body.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // pages and bare HTTP errors are not JSON
      }
      return { status: res.statusCode, headers: res.headers, body: parsed as any };
    },
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A valid v3 create-order body; override any part. */
export function orderBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '1000.00',
    currency: 'INR',
    reference_id: `ref-${Math.random().toString(36).slice(2, 10)}`,
    return_url: 'https://merchant.example/return',
    buyer: {
      name: 'Asha Verma',
      email: 'asha@example.com',
      phone: '+919876543210',
      address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' },
    },
    product: { name: 'Scarf', type_of_goods: 'physical_goods', hs_code: '62141000' },
    invoice: { number: 'INV-1', date: '2026-01-15' },
    ...over,
  };
}

/** Create an order and pay it; returns { orderId, paymentId, payment }. */
export async function paidOrder(h: Harness, amount = '1000.00', opts: { as?: As; headers?: Record<string, string>; outcome?: string } = {}) {
  const created = await h.call('POST', '/pg/orders/', { body: orderBody({ amount }), as: opts.as, headers: opts.headers });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const orderId = created.body.data.order_id as string;
  const paid = await h.call('POST', `/sandbox/orders/${orderId}/pay/`, {
    body: { outcome: opts.outcome ?? 'success' },
    as: opts.as,
    headers: opts.headers,
  });
  if (paid.status !== 200) throw new Error(`pay failed: ${JSON.stringify(paid.body)}`);
  return { orderId, paymentId: paid.body.data.payment_id as string, payment: paid.body.data };
}
