// The envelope of every event kind (vendor 1.4, 1.7: each page's version and event_time form) and
// the canonical serialisation that is signed (vendor 1.2).
import { describe, expect, it } from 'vitest';
import { buildEnvelope } from '../../src/sandbox/store/outbox.js';
import { canonicalJson, signBody, verifySignature } from '../../src/webhook-signature.js';
import { EVENT_TYPES, type EventType } from '../../src/events.js';

const AT = '2026-11-21T10:00:00.123456Z';
const envelope = (type: EventType) => buildEnvelope({ type, merchant_id: 'M1', created_at: AT, data: { x: 1 } }, '6f1c2b1e-0000-4000-8000-000000000000');

describe('buildEnvelope', () => {
  it.each([
    ['PAYMENT_SUCCESSFUL', '2.0.0', '2026-11-21T10:00:00.123456Z'],
    ['PAYMENT_FAILED', '1.0', '2026-11-21 10:00:00Z'],
    ['PAYMENT_SETTLED', '1.0', '2026-11-21 10:00:00'],
    ['PAYMENT_REFUNDED', '1.0', '2026-11-21 10:00:00'],
    ['REFUND_FAILED', '3.0.0', '2026-11-21T10:00:00.123456'],
    ['REFUND_STATUS_UPDATE', '3.0.0', '2026-11-21T10:00:00.123456'],
    ['MERCHANT_APPROVED', '1.0', '2026-11-21 10:00:00'],
  ] as const)('%s: version %s, event_time %s', (type, version, time) => {
    expect(envelope(type)).toEqual({ event_type: type, event_time: time, version, sequence_number: '6f1c2b1e-0000-4000-8000-000000000000', data: { x: 1 } });
  });

  it('knows every event type', () => {
    for (const t of EVENT_TYPES) expect(envelope(t).version).toMatch(/^[0-9.]+$/);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level, no whitespace, non-ASCII and DEL as lowercase \\uXXXX (as json.dumps)', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: '₹ é' }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":"\\u20b9 \\u00e9","z":1}]},"b":1}');
    expect(canonicalJson({ s: 'line\nbreak "q" \u007f 😀' })).toBe('{"s":"line\\nbreak \\"q\\" \\u007f \\ud83d\\ude00"}');
  });

  it('a signature over it verifies by the raw body and by the fallback', () => {
    const body = canonicalJson({ event_type: 'X', data: { name: 'Aśha' } });
    const sig = signBody('k', body);
    expect(verifySignature('k', Buffer.from(body), sig)).toEqual({ ok: true, how: 'raw body' });
    expect(verifySignature('k', Buffer.from(JSON.stringify(JSON.parse(body), null, 2)), sig)).toEqual({ ok: true, how: 'sorted keys' });
    expect(verifySignature('other', Buffer.from(body), sig).ok).toBe(false);
  });

  it('the fallback refuses a body with a duplicate key at any depth; the raw-body check is unaffected (issue 31 item 7)', () => {
    const body = canonicalJson({ data: { amount: '10.00' }, event_type: 'PAYMENT_SUCCESSFUL' });
    const sig = signBody('k', body);
    // JSON.parse keeps the last value, so each of these re-serialises to the signed bytes.
    for (const [forged, name] of [
      [`{"event_type":"FORGED_EVENT",${body.slice(1)}`, /duplicate key "event_type", so the sorted-keys check is refused/],
      [`{"event\u005ftype":"FORGED_EVENT",${body.slice(1)}`, /duplicate key "event_type", so/],
      [body.replace('{"amount"', '{"amount":"99999.00","amount"'), /duplicate key "amount" \(in data\), so/],
    ] as const) {
      expect(canonicalJson(JSON.parse(forged))).toBe(body);
      const verdict = verifySignature('k', Buffer.from(forged), sig);
      expect(verdict.ok, forged).toBe(false);
      expect(verdict.ok ? '' : verdict.reason).toMatch(name);
    }
    // Signed as sent, duplicate and all: the raw bytes are what the signature covers.
    const signedDuplicate = '{"a":1,"a":2}';
    expect(verifySignature('k', Buffer.from(signedDuplicate), signBody('k', signedDuplicate))).toEqual({ ok: true, how: 'raw body' });
  });
});
