// The GET caches (src/sandbox/read-cache.ts) stay exact: a server whose cache is warm sees the next
// change at once, whether another connection, another process or the server itself made it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/sandbox/store.js';
import { sqlInAnotherProcess } from '../helpers/sqlite.js';
import { paidOrder, startHarness, type Harness } from './harness.js';


let h: Harness;
let other: Store;
beforeAll(async () => {
  h = await startHarness();
  other = openStore(h.dbPath);
});
afterAll(async () => {
  other.close();
  await h.close();
});

const get = (paymentId: string, as: 'merchant' | 'psp' = 'merchant', headers?: Record<string, string>) =>
  h.call('GET', `/pg/payments/${paymentId}/`, { as, headers });

/** A captured payment whose GET the server has answered (and so cached) twice. */
async function warmPayment(): Promise<string> {
  const { paymentId } = await paidOrder(h, '1000.00');
  for (let i = 0; i < 2; i++) expect((await get(paymentId)).body.data).toMatchObject({ refund: [], settlement: null, status: 'captured' });
  return paymentId;
}

/** SQL run by a separate `node` process on the sandbox's file (another process, not just another connection). */
function inAnotherProcess(sql: string, ...params: string[]): void {
  sqlInAnotherProcess(h.dbPath, [sql], params);
}

describe('changes committed by another connection or process', () => {
  it('a refund added by another connection appears in the next GET', async () => {
    const paymentId = await warmPayment();
    other.createRefund([h.merchant.merchant_id], { payment_id: paymentId, refund_amount: '100.00' });
    expect((await get(paymentId)).body.data.refund).toMatchObject([{ refund_amount: 100, refund_status: 'initiated' }]);
  });

  it('a settlement made by another connection appears in the next GET', async () => {
    const paymentId = await warmPayment();
    other.markSettled([h.merchant.merchant_id], { payment_uids: [paymentId], refund_uids: [], chargeback_uids: [] });
    const data = (await get(paymentId)).body.data;
    expect(data.settlement_status).toBe('SETTLED');
    expect(data.settlement).toMatchObject({ settlement_status: 'SETTLED' });
  });

  it('a status changed by another process appears in the next GET', async () => {
    const paymentId = await warmPayment();
    inAnotherProcess(`UPDATE payments SET status = 'failed', status_message = 'changed elsewhere' WHERE payment_id = ?`, paymentId);
    expect((await get(paymentId)).body.data).toMatchObject({ status: 'failed', status_message: 'changed elsewhere' });
  });

  describe('credentials', () => {
    let original: string;
    beforeAll(() => {
      original = h.merchant.client_secret;
    });
    afterEach(() => inAnotherProcess('UPDATE merchants SET client_secret = ? WHERE client_id = ?', original, h.merchant.client_id));

    it('a secret changed by another process: the old one is refused, the new one accepted', async () => {
      const paymentId = await warmPayment();
      const fresh = `${original}-rotated`;
      inAnotherProcess('UPDATE merchants SET client_secret = ? WHERE client_id = ?', fresh, h.merchant.client_id);
      expect((await get(paymentId)).body.error).toMatchObject({ code: 'ERR_AUTH_001' });
      const withFresh = await h.call('GET', `/pg/payments/${paymentId}/`, { as: 'none', headers: { 'x-client-id': h.merchant.client_id, 'x-client-secret': fresh } });
      expect(withFresh.status).toBe(200);
    });
  });

  it("a sub-merchant leaving its PSP (another process) takes its payments out of the PSP's reach", async () => {
    const list = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    const sub = list.body.data.results[0].id as string;
    const { paymentId } = await paidOrder(h, '100.00', { as: 'psp', headers: { 'x-merchant-id': sub } });
    for (let i = 0; i < 2; i++) expect((await get(paymentId, 'psp')).status).toBe(200);
    const parent = (other.merchant(sub)!.parent_id)!;
    try {
      inAnotherProcess('UPDATE merchants SET parent_id = NULL WHERE merchant_id = ?', sub);
      expect((await get(paymentId, 'psp')).body.error).toMatchObject({ code: 'ERR_PAYMENT_005' });
    } finally {
      inAnotherProcess('UPDATE merchants SET parent_id = ? WHERE merchant_id = ?', parent, sub);
    }
  });
});

describe("the server's own writes", () => {
  it('a refund it adds appears in the next GET', async () => {
    const paymentId = await warmPayment();
    expect((await h.call('POST', `/sandbox/payments/${paymentId}/refunds/`, { body: { amount: '250.00' } })).status).toBe(200);
    expect((await get(paymentId)).body.data.refund).toMatchObject([{ refund_amount: 250 }]);
  });

  it('a settlement it makes appears in the next GET', async () => {
    const paymentId = await warmPayment();
    expect((await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paymentId] } })).status).toBe(200);
    expect((await get(paymentId)).body.data.settlement_status).toBe('SETTLED');
  });

  it("a row changed on the store's own connection outside its write path is seen by the next read", () => {
    const merchant = h.merchant.merchant_id;
    const [paymentId] = other.seed(merchant, 1).payments;
    const read = () => JSON.parse(other.db.read(() => other.paymentJson([merchant], paymentId!))) as { status: string };
    expect([read().status, read().status]).toEqual(['captured', 'captured']);
    other.db.raw.prepare(`UPDATE payments SET status = 'failed' WHERE payment_id = ?`).run(paymentId);
    expect(read().status).toBe('failed');
  });

  it('after its reset, a payment it served is gone', async () => {
    const paymentId = await warmPayment();
    expect((await h.call('POST', '/sandbox/reset/', { body: {} })).status).toBe(200);
    expect((await get(paymentId)).status).toBe(404);
  });
});
