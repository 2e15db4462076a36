// Issue 33 item 12: on a sandbox profile every question of the interactive `order create` offers a
// default a tester accepts (the demo buyer, a product, an invoice number, a generated reference,
// the sandbox's own return page), so Enter through the flow creates a valid order. On production
// only a generated reference and currency INR are offered: a buyer, address, product, amount or
// return address there would be wrong data.
import { describe, expect, it } from 'vitest';
import { ACCEPT_DEFAULT, fakePrompter, type Answer, type FakePrompter } from '../../helpers/fake-prompter.js';
import { PUBLIC_BASE_URLS } from '../../../src/config/types.js';
import { useMock, useSandbox, useWorkspace } from './helpers.js';

const ws = useWorkspace();
const sb = useSandbox(ws);
const mock = useMock(ws);

/** Enter at every question: `n` times the default. */
const enter = (n: number) => fakePrompter(...Array.from({ length: n }, (): Answer => ACCEPT_DEFAULT));

const defaultOf = (p: FakePrompter, text: string) => p.asked.find((q) => q.message.includes(text))?.default;

describe('Enter through the interactive order create', () => {
  it('on a sandbox: every question has a default, and the order is created with them', async () => {
    // mode, amount, currency, reference, return_url, 3 buyer, 4 address, product name, goods, invoice, send
    const prompter = enter(16);
    const r = await sb.pgw(['order', 'create', '--json'], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    prompter.assertDone();
    expect(prompter.asked).toHaveLength(16);
    // Every input asked had a default (selects have their first choice or a named one).
    for (const q of prompter.asked.filter((x) => x.kind === 'input')) expect(q.default, q.message).toBeTruthy();
    expect(defaultOf(prompter, 'return_url')).toBe(`${sb.sandbox.baseUrl}/return/`);
    expect(defaultOf(prompter, 'Type of goods')).toBe('service');
    const { order_id } = JSON.parse(r.stdout);
    const order = JSON.parse((await sb.pgw(['order', 'get', order_id, '--json'])).stdout);
    expect(order.buyer.name).toBe('Asha Verma');
    expect(order.buyer.email).toBe('asha@example.com');
    expect(order.buyer.address.postal_code).toBe('560001');
    expect(order.reference_id).toMatch(/^[a-z0-9]{13}$/);
    expect(order.amount).toBe('100.00');
    // The invoice number carries the reference: unique with it.
    expect(String(order.invoice?.number ?? defaultOf(prompter, 'Invoice number'))).toContain(order.reference_id.toUpperCase());
  });

  it('the sandbox return page shows what the buyer brought back', async () => {
    const res = await fetch(`${sb.sandbox.baseUrl}/return/?order_id=OD1&payment_id=PR2&status=captured&x=<b>`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Back from the payment: captured');
    expect(html).toContain('PR2');
    expect(html).not.toContain('<b>');
  });

  it('on production: a reference and INR are offered, no buyer, amount, product, invoice or return address', async () => {
    const prompter = fakePrompter(
      { kind: 'select', message: 'How will the buyer pay', answer: 'hosted_payment' },
      { message: 'Amount', answer: '250' },
      { message: 'Currency', answer: ACCEPT_DEFAULT },
      { message: 'reference_id', answer: ACCEPT_DEFAULT },
      { message: 'return_url', answer: 'https://shop.example/r' },
      { message: 'Buyer name', answer: 'Ravi Kumar' },
      { message: 'Buyer email', answer: 'ravi@example.com' },
      { message: 'Buyer phone', answer: '+919812345678' },
      { message: 'Address line 1', answer: '4 Park Street' },
      { message: 'City', answer: 'Kolkata' },
      { message: 'State', answer: 'West Bengal' },
      { message: 'Postal code', answer: '700016' },
      { message: 'Product name', answer: 'E-book' },
      { kind: 'select', message: 'Type of goods', answer: 'digital_goods' },
      { message: 'Invoice number', answer: 'INV-77' },
    );
    // --dry-run: nothing is sent (and no confirmation asked); the questions are the same.
    const r = await mock.pgw(['order', 'create', '--dry-run', '--json'], { tty: true, prompter, env: { PGW_BASE_URL: PUBLIC_BASE_URLS.production } });
    expect(r.code, r.stderr).toBe(0);
    prompter.assertDone();
    expect(defaultOf(prompter, 'Currency')).toBe('INR');
    expect(defaultOf(prompter, 'reference_id')).toMatch(/^[a-z0-9]{13}$/);
    for (const text of ['Amount', 'return_url', 'Buyer name', 'Buyer email', 'Buyer phone', 'Address line 1', 'City', 'State', 'Postal code', 'Product name', 'Type of goods', 'Invoice number']) {
      expect(defaultOf(prompter, text), text).toBeUndefined();
    }
    expect(JSON.parse(r.stdout).body.buyer.name).toBe('Ravi Kumar');
  });
});
