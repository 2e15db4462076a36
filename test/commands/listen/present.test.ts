// What pgw listen prints of an event, and which profiles it registers on.
import { describe, expect, it } from 'vitest';
import { eventIdParts, eventLine, jsonLine, parseEvent } from '../../../src/commands/listen/present.js';
import { listenMode } from '../../../src/commands/listen/mode.js';
import { createTheme } from '../../../src/output/theme.js';

const plain = createTheme(false);

describe('jsonLine', () => {
  it('prints the body byte for byte when there is nothing to hide', () => {
    const raw = '{"event_type":"PAYMENT_SUCCESSFUL",  "data":{"payment_id":"PR0000000001","amount":10}}';
    expect(jsonLine(Buffer.from(raw), 'sekret')).toBe(`${raw}\n`);
  });

  it('a multi-line body becomes one line', () => {
    expect(jsonLine(Buffer.from('{\n "event": "X"\n}'), undefined)).toBe('{"event":"X"}\n');
  });

  it('never prints a card number, a CVV or the client secret a sender included', () => {
    const raw = JSON.stringify({ event: 'X', data: { card: { number: '4111111111111111', cvv: '123' }, note: 'pan 5555555555554444', echo: 'client-secret-xyz' } });
    const line = jsonLine(Buffer.from(raw), 'client-secret-xyz');
    expect(line).not.toContain('4111111111111111');
    expect(line).not.toContain('5555555555554444');
    expect(line).not.toContain('"123"');
    expect(line).not.toContain('client-secret-xyz');
    expect(JSON.parse(line).event).toBe('X');
  });

  it('a body that is not JSON is printed as a JSON string, masked', () => {
    expect(JSON.parse(jsonLine(Buffer.from('card 4111111111111111'), undefined)).body).not.toContain('4111111111111111');
  });
});

describe('eventLine', () => {
  it('names the IDs the event carries (inside data.settlements[] and data.refunds[] too), and strips control characters a sender put in them', () => {
    const parsed = parseEvent(Buffer.from(JSON.stringify({ event_type: 'PAYMENT_SETTLED', data: { settlements: [{ settlement_id: 'ST0000000001\u001b[2J', settlement_utr: 'U1' }] } })));
    expect(eventIdParts(parsed.envelope)).toEqual(['settlement_id=ST0000000001[2J']);
    const at = new Date(2026, 0, 2, 3, 4, 5);
    expect(eventLine(at, parsed, { ok: true, status: 204, ms: 7 }, plain)).toBe('03:04:05  PAYMENT_SETTLED     settlement_id=ST0000000001[2J  → 204 (7 ms)\n');
    expect(eventLine(at, parseEvent(Buffer.from('nope')), undefined, plain)).toBe('03:04:05  (not JSON)\n');
    const refunded = parseEvent(Buffer.from(JSON.stringify({ event_type: 'PAYMENT_REFUNDED', data: { refunds: [{ refund_id: 'RF1', payment_request_id: 'PR1', payment_id: 'PR1', order_id: 'OD1' }] } })));
    expect(eventIdParts(refunded.envelope)).toEqual(['refund_id=RF1', 'payment_id=PR1', 'order_id=OD1']);
  });

  it('marks whether the signature verified, when the key is known', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5);
    const ok = parseEvent(Buffer.from(JSON.stringify({ event_type: 'PAYMENT_FAILED', data: { payment_id: 'PR1' } })));
    expect(eventLine(at, ok, undefined, plain, undefined, 'ok')).toBe('03:04:05  PAYMENT_FAILED      signed ✓  payment_id=PR1\n');
    expect(eventLine(at, ok, undefined, plain, undefined, 'bad')).toBe('03:04:05  PAYMENT_FAILED      BAD SIGNATURE  payment_id=PR1\n');
    expect(eventLine(at, ok, undefined, plain, undefined, 'unsigned')).toBe('03:04:05  PAYMENT_FAILED      UNSIGNED  payment_id=PR1\n');
  });

  it('never wraps on a terminal: the last IDs give way, never the event, the first ID or the forward', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5);
    const failed = parseEvent(Buffer.from(JSON.stringify({ event_type: 'PAYMENT_FAILED', data: { payment_id: 'PR0506629512', link_id: 'PR7365497655', order_id: 'OD12464831701086' } })));
    const wide = eventLine(at, failed, undefined, plain);
    expect(wide).toBe('03:04:05  PAYMENT_FAILED      payment_id=PR0506629512  link_id=PR7365497655  order_id=OD12464831701086\n');
    expect(eventLine(at, failed, undefined, plain, 200)).toBe(wide);
    expect(eventLine(at, failed, undefined, plain, 80)).toBe('03:04:05  PAYMENT_FAILED      payment_id=PR0506629512  link_id=PR7365497655\n');
    const forwarded = eventLine(at, failed, { ok: true, status: 204, ms: 7 }, plain, 80);
    expect(forwarded).toBe('03:04:05  PAYMENT_FAILED      payment_id=PR0506629512  → 204 (7 ms)\n');
    expect(forwarded.length - 1).toBeLessThanOrEqual(80);
  });
});

describe('listenMode', () => {
  const p = (env: 'embedded' | 'sandbox' | 'production', baseUrl?: string) => ({ name: 'x', env, baseUrl });
  it('registers on the embedded sandbox and on a sandbox served on this machine', () => {
    expect(listenMode(p('embedded')).kind).toBe('sandbox');
    expect(listenMode(p('sandbox', 'http://127.0.0.1:4010')).kind).toBe('sandbox');
    expect(listenMode(p('sandbox', 'http://localhost:8000')).kind).toBe('sandbox');
    expect(listenMode(p('sandbox', 'http://[::1]:4010')).kind).toBe('sandbox');
  });
  it('only receives on production, the gateway\'s own sandbox, and sandboxes on other machines', () => {
    expect(listenMode(p('production', 'https://api-pacb.eximpe.com')).kind).toBe('receiver');
    expect(listenMode(p('production', 'http://127.0.0.1:4010')).kind).toBe('receiver');
    expect(listenMode(p('sandbox', 'https://api-pacb-uat.eximpe.com')).kind).toBe('receiver');
    expect(listenMode(p('sandbox', 'http://10.0.0.5:4010')).kind).toBe('receiver');
  });
});
