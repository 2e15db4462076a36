// The CLI's HTTP core against the sandbox: the two halves agree on envelopes and error codes.
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { AuthError, GatewayError, NotFoundError } from '../../src/errors.js';
import { orderBody, startHarness, type Harness } from './harness.js';

let h: Harness;
const agent = new Agent();
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await agent.close();
  await h.close();
});

const client = (over: { clientSecret?: string; merchantId?: string; psp?: boolean } = {}) => {
  const account = over.psp ? h.psp : h.merchant;
  return createClient({
    baseUrl: h.sandbox.baseUrl,
    clientId: account.client_id,
    clientSecret: over.clientSecret ?? account.client_secret,
    apiVersion: '3.0.0',
    merchantId: over.merchantId,
    timeoutMs: 5000,
    dispatcher: agent,
    userAgent: 'pgw-test',
  });
};

describe('createClient ↔ sandbox', () => {
  it('create, pay, settle and read back', async () => {
    const c = client();
    const order = await c.request<{ order_id: string }>({ method: 'POST', path: '/pg/orders/', body: orderBody() });
    const payment = await c.request<{ payment_id: string }>({ method: 'POST', path: `/sandbox/orders/${order.order_id}/pay/`, body: { outcome: 'success' } });
    const settled = await c.request<{ settlement_amount: string }>({ method: 'POST', path: '/pg/settlements/mark-settled/', body: { payment_uids: [payment.payment_id] } });
    expect(settled.settlement_amount).toBe('941.00');
    const list = await client({ psp: true }).request<{ count: number }>({ method: 'GET', path: '/partners/merchants/', query: { page: 1, page_size: 10 } });
    expect(list.count).toBe(2);
  });

  it('maps sandbox errors to the typed errors', async () => {
    await expect(client().request({ method: 'GET', path: '/pg/payments/PR0000000000/' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client().request({ method: 'GET', path: '/pg/settlements/ST0000000000/' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client({ clientSecret: 'wrong' }).request({ method: 'GET', path: '/pg/payments/PR1/' })).rejects.toBeInstanceOf(AuthError);
    const err = await client()
      .request({ method: 'POST', path: '/pg/settlements/mark-settled/', body: { payment_uids: ['PR0'] } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe('ERR_SERVICE_ERROR_000');
    expect((err as GatewayError).details).toEqual({ payment_uids: ['PR0 not found'], refund_uids: [], chargeback_uids: [] });
  });
});
