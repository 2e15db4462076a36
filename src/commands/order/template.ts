// --print-template: a complete example body for the chosen way of collecting (spec 2.1-2.5), in the
// API version's spelling, that passes validation as printed. The flags given are applied on top.
import type { ApiMajor } from './body.js';
import type { JsonObject } from './read-json.js';

export interface TemplateChoice {
  mode?: string;
  mop?: string;
  upiFlow?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The sandbox's test card (a number ending 0002 is declined there); CVV and expiry are examples. */
function exampleCard(now: Date): JsonObject {
  return {
    number: '4111111111111111',
    cardholder_name: 'Asha Verma',
    expiry_month: '12',
    expiry_year: String(now.getUTCFullYear() + 3),
    cvv: '123',
    network: 'visa',
    nickname: 'Personal Visa',
    identifier: 'customer-0001',
  };
}

export function orderTemplate(choice: TemplateChoice, major: ApiMajor, now: Date): JsonObject {
  const today = `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`;
  const body: JsonObject = {
    amount: '1500.00',
    currency: 'INR',
    reference_id: `order-${today.replace(/-/g, '')}-0001`,
    return_url: 'https://merchant.example/orders/return',
    buyer: {
      name: 'Asha Verma',
      email: 'asha@example.com',
      phone: '+919876543210',
      address: { line_1: '12 MG Road', line_2: 'Flat 4B', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' },
      ip_address: '203.0.113.10',
      user_agent: 'Mozilla/5.0',
    },
    product: {
      name: 'Handwoven silk scarf',
      description: 'Pure silk, 180 x 70 cm',
      type_of_goods: 'physical_goods',
      hs_code: '62141000',
      hs_code_description: 'Shawls, scarves of silk',
    },
    invoice: { number: `INV-${today.slice(0, 4)}-0001`, date: today },
  };
  const mode = choice.mode?.toLowerCase() ?? (choice.mop || choice.upiFlow ? 's2s' : 'hosted_payment');
  if (mode !== 's2s') {
    body.collection_mode = 'hosted_payment';
    if (choice.mop) body.mop_type = choice.mop;
    return body;
  }
  body.collection_mode = 's2s';
  const mop = (choice.mop ?? 'upi').toLowerCase();
  body.mop_type = mop;
  if (mop === 'credit_card' || mop === 'debit_card') {
    body.card_details = exampleCard(now);
  } else if (mop === 'upi') {
    const flow = choice.upiFlow?.toLowerCase() ?? 'intent';
    body.upi_flow_type = flow;
    if (major !== 3 && flow === 'collection') body.vpa = 'asha@okbank';
  }
  if (major !== 3) body.mop_type = mop.toUpperCase();
  return body;
}
