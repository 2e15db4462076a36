// Found by the leak scan: a gateway whose *success* quotes the request back had the card number
// and CVV printed as they came (JSON output is the data unchanged). The HTTP core now scrubs a
// success of a request that carried card data, without touching what must arrive intact.
import { describe, expect, it } from 'vitest';
import { scrubCardData } from '../../src/safety/card-values.js';
import { CARD, CARD_MASKED, CVV } from './helpers-leak.js';

const card = { number: CARD, cvv: CVV };

describe('scrubCardData', () => {
  it('removes CVV keys, masks card numbers by key and in text, and replaces a lone CVV in text', () => {
    const echoed = {
      order_id: 'OD1',
      echo: { card_details: { number: CARD, cvv: CVV, network: 'visa' } },
      note: `received {"number":"${CARD}","cvv":"${CVV}"}`,
      list: [`card ${CARD}`, `code ${CVV}`],
    };
    expect(scrubCardData(echoed, card)).toEqual({
      order_id: 'OD1',
      echo: { card_details: { number: CARD_MASKED, network: 'visa' } },
      note: `received {"number":"${CARD_MASKED}","cvv":"***"}`,
      list: [`card ${CARD_MASKED}`, 'code ***'],
    });
  });

  it('leaves base64, IDs, amounts and timestamps that contain the CVV digits alone', () => {
    const data = {
      acs_template: Buffer.from(`<form>${'x'.repeat(40)}</form>`).toString('base64').replace(/.{3}$/, `${CVV}=`) + `a${CVV}b+${CVV}/`,
      order_id: `OD${CVV}0001`,
      amount: `${CVV}.00`,
      created_at: `2026-06-15T12:07:39.${CVV}123Z`,
      session_id: `sess_${CVV}a`,
    };
    expect(scrubCardData(data, card)).toEqual(data);
  });

  it('is the identity for a request without card data', () => {
    const data = { note: `${CARD} ${CVV}` };
    expect(scrubCardData(data, {})).toBe(data);
  });
});
