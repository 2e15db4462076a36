// A cached answer's envelope is kept as bytes (envelope.ts successBytes): the same bytes the
// generic path writes, handed out again for the same cached text, built anew when it changes.
import { describe, expect, it } from 'vitest';
import { successBody, successBytes } from '../../src/sandbox/envelope.js';
import { paidOrder, startHarness } from './harness.js';

describe('successBytes', () => {
  it('is JSON.stringify of the success envelope, byte for byte, non-ASCII included', () => {
    const json = JSON.stringify({ payment_id: 'PR1', buyer: { name: 'अमित Ünal' }, amount: 1500.5 });
    const bytes = successBytes('Payment retrieved', json);
    expect(bytes.equals(Buffer.from(JSON.stringify(successBody('Payment retrieved', JSON.parse(json)))))).toBe(true);
  });

  it('the same cached text gives the same bytes; changed text or another message, new ones', () => {
    const json = JSON.stringify({ payment_id: 'PR2', status: 'captured' });
    const first = successBytes('m', json);
    expect(successBytes('m', json)).toBe(first);
    const changed = successBytes('m', JSON.stringify({ payment_id: 'PR2', status: 'refunded' }));
    expect(changed).not.toBe(first);
    expect(JSON.parse(changed.toString()).data.status).toBe('refunded');
    expect(JSON.parse(successBytes('other', json).toString()).message).toBe('other');
  });

  it('a payment GET over HTTP answers with it, and a change shows at once', async () => {
    const h = await startHarness();
    try {
      const { paymentId } = await paidOrder(h, '1000.00');
      const first = await h.call('GET', `/pg/payments/${paymentId}/`);
      const again = await h.call('GET', `/pg/payments/${paymentId}/`);
      expect(again.body).toEqual(first.body);
      expect(first.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(first.body))));
      expect((await h.call('POST', `/sandbox/payments/${paymentId}/refunds/`, { body: { amount: '250.00' } })).status).toBe(200);
      expect((await h.call('GET', `/pg/payments/${paymentId}/`)).body.data.refund).toMatchObject([{ refund_amount: 250 }]);
    } finally {
      await h.close();
    }
  });
});
