import { describe, expect, it } from 'vitest';
import { REDACTED, isCardNumber, maskCardData, maskCardNumber, redactBody, redactBodyText, redactHeaders, redactSecret, redactText } from '../../src/safety/redact.js';

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
      number: '4111111111111112', // not inside card_details, and not a card number (Luhn): an ordinary field
    };
    const out = maskCardData(body);
    expect(out).toEqual({
      amount: '10.00',
      card_details: { number: '411111******1111', cardholder_name: 'A B', expiry_month: '01' },
      nested: [{ card_details: { number: '555555******4444' } }],
      extra: { keep: true },
      number: '4111111111111112',
    });
    expect(body.card_details.cvv).toBe('123');
  });

  it('masks a card number under any key, at any depth, as a string or a number, grouped or not', () => {
    const body = {
      token_request: { pan: '4000001234567899', list: ['5555 5555 5555 4444', 378282246310005] },
      raw: '4000-0012-3456-7899',
    };
    expect(maskCardData(body)).toEqual({
      token_request: { pan: '400000******7899', list: ['555555******4444', '378282*****0005'] },
      raw: '400000******7899',
    });
    expect(maskCardData('4000001234567899')).toBe('400000******7899');
  });

  it('keeps what only looks like digits: IDs, amounts, phones, short or non-Luhn runs, text around a number', () => {
    const body = {
      payment_id: 'PR6164171854',
      amount: '1000000000000.00',
      phone: '+919876543210',
      reference_id: '4000001234567898', // 16 digits, fails the Luhn check
      short: '400000123456', // 12 digits
      long: '40000012345678990000', // 20 digits
      sentence: 'card 4000001234567899 declined', // text, not a value that is a card number
      spaced: '4000  0012 3456 7899', // two spaces: not one grouping
    };
    expect(maskCardData(body)).toEqual(body);
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

describe('card numbers inside printed text', () => {
  it('redactBody masks a card-number run inside any string; redactText in an address or message', () => {
    expect(redactBody({ note: 'tokenise 4000001234567899 please', id: 'PR4000001234567899X', ref: 'PR6164171854' })).toEqual({
      note: 'tokenise 400000******7899 please',
      id: 'PR4000001234567899X', // glued to letters: an identifier's digits, never a card (issue 13 item 17)
      ref: 'PR6164171854',
    });
    expect(redactText('http://gw.example/pg/x/?pan=4000001234567899&ref=4000001234567898', 'sk_x')).toBe(
      'http://gw.example/pg/x/?pan=400000******7899&ref=4000001234567898',
    );
    expect(redactText('rejected 4000001234567899 with sk_x', 'sk_x')).toBe('rejected 400000******7899 with [redacted]');
  });

  it('an order ID whose digits pass the Luhn check is never masked (issue 16: a listener printed one masked)', () => {
    expect(redactText('http://127.0.0.1:1/pg/orders/OD89809515405098/')).toBe('http://127.0.0.1:1/pg/orders/OD89809515405098/');
    expect(redactBody({ data: { order_id: 'OD89809515405098' } })).toEqual({ data: { order_id: 'OD89809515405098' } });
    expect(redactText('card 89809515405098')).toBe('card 898095****5098');
  });

  it('isCardNumber: 13-19 digits passing the Luhn check, groups of digits allowed', () => {
    expect(['4000001234567899', '4000 0012 3456 7899', '378282246310005', '6011111111111117', 4000001234567899].map(isCardNumber)).toEqual([true, true, true, true, true]);
    expect(['4000001234567898', '400000123456', '40000012345678990000', '4000  0012 3456 7899', ' ', 'PR6164171854', null, 12].map(isCardNumber)).toEqual([
      false, false, false, false, false, false, false, false,
    ]);
  });
});

