import { describe, expect, it } from 'vitest';
import { REDACTED, maskCardData, maskCardNumber, redactBody, redactBodyText, redactHeaders, redactSecret } from '../../src/api/redact.js';

const SECRET = 'sekret-marker-1234';

describe('redactHeaders', () => {
  it('replaces the client secret entirely, whatever the case of the name', () => {
    const out = redactHeaders({ 'X-Client-ID': 'cid', 'X-Client-Secret': SECRET, 'x-client-secret': 'other', Accept: 'application/json' });
    expect(out).toEqual({ 'X-Client-ID': 'cid', 'X-Client-Secret': REDACTED, 'x-client-secret': REDACTED, Accept: 'application/json' });
  });

  it('removes the secret from other header values too', () => {
    expect(redactHeaders({ 'X-Echo': `a${SECRET}b` }, SECRET)).toEqual({ 'X-Echo': `a${REDACTED}b` });
  });

  it('does not modify its argument', () => {
    const h = { 'X-Client-Secret': SECRET };
    redactHeaders(h, SECRET);
    expect(h['X-Client-Secret']).toBe(SECRET);
  });
});

describe('redactSecret', () => {
  it.each([
    [`token ${SECRET} and ${SECRET}`, `token ${REDACTED} and ${REDACTED}`],
    ['nothing here', 'nothing here'],
  ])('%s', (input, expected) => {
    expect(redactSecret(input, SECRET)).toBe(expected);
  });

  it('leaves text alone when no secret is known', () => {
    expect(redactSecret('abc', undefined)).toBe('abc');
    expect(redactSecret('abc', '')).toBe('abc');
  });
});

describe('maskCardNumber', () => {
  it.each([
    ['4111111111111111', '411111******1111'],
    ['4111 1111 1111 1111', '411111******1111'],
    ['378282246310005', '378282*****0005'],
    ['123456789012', '123456**9012'], // 12 digits: 6 + 2 stars + 4
    ['12345', '*****'],
    [4111111111111111, '411111******1111'],
  ])('%s → %s', (input, expected) => {
    expect(maskCardNumber(input)).toBe(expected);
  });
});

describe('maskCardData', () => {
  it('masks card_details.number and removes cvv at any depth, keeping every other field', () => {
    const body = {
      amount: '10.00',
      card_details: { number: '4111111111111111', cvv: '123', cardholder_name: 'A B', expiry_month: '01' },
      nested: [{ card_details: { number: '5555555555554444', cvv: '9876' } }],
      extra: { cvv: '999', keep: true },
      number: '4111111111111111', // not inside card_details: an ordinary field
    };
    const out = maskCardData(body);
    expect(out).toEqual({
      amount: '10.00',
      card_details: { number: '411111******1111', cardholder_name: 'A B', expiry_month: '01' },
      nested: [{ card_details: { number: '555555******4444' } }],
      extra: { keep: true },
      number: '4111111111111111',
    });
    expect(body.card_details.cvv).toBe('123');
  });

  it('leaves saved-card bodies (token, no number) as they are', () => {
    const body = { card_details: { token: 'tok_1', identifier: 'id', network: 'visa' } };
    expect(maskCardData(body)).toEqual(body);
  });

  it('passes scalars and null through', () => {
    expect(maskCardData(null)).toBeNull();
    expect(maskCardData('x')).toBe('x');
  });
});

describe('redactBody / redactBodyText', () => {
  it('masks cards and removes the secret in strings and keys', () => {
    const out = redactBody({ note: `secret is ${SECRET}`, [SECRET]: 1, card_details: { number: '4111111111111111', cvv: '123' } }, SECRET);
    const text = JSON.stringify(out);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('"cvv"');
    expect(text).toContain('411111******1111');
  });

  it('cuts long non-JSON text and masks digit runs in it', () => {
    const html = `<html>${'x'.repeat(5000)} 4111111111111111 ${SECRET}</html>`;
    const out = redactBodyText(`card 4111111111111111 ${SECRET} ${html}`, SECRET, 100);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain('4111111111111111');
    expect(out.length).toBeLessThan(200);
  });

  it('pretty-prints JSON with card data masked', () => {
    const out = redactBodyText(JSON.stringify({ card_details: { number: '4111111111111111', cvv: '123' } }), SECRET);
    expect(JSON.parse(out)).toEqual({ card_details: { number: '411111******1111' } });
  });
});
