// Issue 31 item 10 (d): a JSON body whose free text holds a lone surrogate ("\ud800", valid JSON,
// not valid Unicode) is stored with one U+FFFD in its place, what String.prototype.toWellFormed()
// gives, not three (the surrogate's three WTF-8 bytes, each read back as a replacement character).
// Surrogate pairs written as escapes stay the character they spell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
let refundId: string;
beforeAll(async () => {
  h = await startHarness();
  const { paymentId } = await paidOrder(h);
  refundId = (await h.call('POST', '/pg/refunds/', { body: { payment_id: paymentId, refund_amount: '1.00' } })).body.data.refund_id as string;
});
afterAll(() => h.close());

/** simulate-status with the body written as raw JSON text (escapes kept as the client wrote them). */
async function simulate(rawMessage: string): Promise<string> {
  const raw = `{"status":"FAILED","status_message":"${rawMessage}","bank_ref_num":"R\\udc00"}`;
  const r = await h.call('POST', `/pg/refunds/${refundId}/simulate-status/`, { raw, headers: { 'content-type': 'application/json' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (await h.call('GET', `/pg/refunds/${refundId}/`)).body.data.message as string;
}

describe('a lone surrogate in a JSON body', () => {
  it.each([
    ['a\\ud800b', 'a\ufffdb'],
    ['\\udfff', '\ufffd'],
    ['x\\ud800\\ud800y', 'x\ufffd\ufffdy'],
    ['\\udc00\\ud800', '\ufffd\ufffd'],
    // A pair is one character, not a surrogate: kept.
    ['\\ud83d\\ude00 ok', '\u{1f600} ok'],
  ])('"%s" is stored as %j', async (rawMessage, stored) => {
    expect(await simulate(rawMessage)).toBe(stored);
    expect((await h.call('GET', `/pg/refunds/${refundId}/`)).body.data.bank_ref_num).toBe('R\ufffd');
  });
});
