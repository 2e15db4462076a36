// In a terminal, order create asks for the missing required fields, grouped, each answer checked
// with the shared schema as it is given; card number and CVV through the masked prompt. The
// orders go to the sandbox over real HTTP.
import { describe, expect, it } from 'vitest';
import { ACCEPT_DEFAULT, fakePrompter, interrupt } from '../../helpers/fake-prompter.js';
import { CARD_NUMBER, CVV, orderFlags, orderJson, useMock, useSandbox, useWorkspace } from './helpers.js';

const ws = useWorkspace();
const sb = useSandbox(ws);
const mock = useMock(ws);

/** orderFlags() without the flags (and their values) named. */
function flagsWithout(...names: string[]): string[] {
  const all = orderFlags();
  const out: string[] = [];
  for (let i = 0; i < all.length; i += 2) if (!names.includes(all[i]!)) out.push(all[i]!, all[i + 1]!);
  return out;
}

const year = new Date().getUTCFullYear();
const MODE = { kind: 'select', message: 'How will the buyer pay', answer: 'hosted_payment' } as const;
const SEND = { kind: 'select', message: 'Send this order', answer: 'send' } as const;

describe('missing fields are asked for in a terminal', () => {
  it('everything, grouped, in the order of the request; the answers make the order', async () => {
    const prompter = fakePrompter(
      MODE,
      { message: 'Amount', answer: '250' },
      { message: 'Currency', answer: ACCEPT_DEFAULT },
      { message: 'reference_id', answer: `ref-prompt-${Date.now()}` },
      { message: 'return_url', answer: 'https://merchant.example/r' },
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
      SEND,
    );
    const r = await sb.pgw(['order', 'create', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    const { order_id } = JSON.parse(r.stdout);
    // Groups are announced on stderr in order.
    const headings = ['Order', 'Buyer', 'Buyer address', 'Product', 'Invoice'].map((h) => r.stderr.indexOf(`\n${h}\n`));
    expect(headings.every((i) => i >= 0)).toBe(true);
    expect([...headings].sort((a, b) => a - b)).toEqual(headings);
    expect(prompter.asked.find((q) => q.message.startsWith('Currency'))!.default).toBe('INR');
    // What was answered is what the sandbox stored (amount normalised).
    const paid = JSON.parse((await sb.pgw(['sandbox', 'pay', order_id, '--json'])).stdout);
    expect(paid.order.amount).toBe('250.00');
  });

  it('only what is missing: the flags given are not asked again', async () => {
    const prompter = fakePrompter(MODE, { message: 'Buyer email', answer: 'a@example.com' }, { message: 'City', answer: 'Pune' }, SEND);
    const r = await sb.pgw(['order', 'create', ...flagsWithout('--buyer-email', '--city'), '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(prompter.asked.map((q) => q.message)).toEqual(['How will the buyer pay?', 'Buyer email', 'City', 'Send this order?']);
  });

  it('an answer the schema refuses is refused at the prompt with its message, and asked again', async () => {
    const prompter = fakePrompter(
      MODE,
      { message: 'Postal code', answer: '11000', rejectedWith: 'must be 6 characters' },
      { message: 'Postal code', answer: '110001' },
      SEND,
    );
    const r = await sb.pgw(['order', 'create', ...flagsWithout('--postal-code'), '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(prompter.asked[1]!.rejections).toEqual(['must be 6 characters']);
  });

  it.each([
    ['Amount', '--amount', '10.123', 'at most 2 decimals'],
    ['Buyer email', '--buyer-email', 'asha@', 'valid email'],
    ['Buyer phone', '--buyer-phone', '98765', 'country code'],
    ['City', '--city', 'Delhi 6', 'alphabetic'],
    ['return_url', '--return-url', 'merchant.example', 'http:// or https://'],
  ])('%s: the same rule as the schema', async (message, flag, bad, why) => {
    const good: Record<string, string> = { '--amount': '10.12', '--buyer-email': 'a@b.in', '--buyer-phone': '+919876543210', '--city': 'Delhi', '--return-url': 'https://m.example/' };
    const scripted = fakePrompter(MODE, { message, answer: bad, rejectedWith: why }, { message, answer: good[flag]! });
    const r = await mock.pgw(['order', 'create', ...flagsWithout(flag), '--dry-run', '--json'], { tty: true, prompter: scripted });
    scripted.assertDone();
    expect(r.code).toBe(0);
  });

  it('s2s without a method: asks for it, then for what it needs (UPI flow)', async () => {
    const prompter = fakePrompter(
      { kind: 'select', message: 'Method of payment', answer: 'upi' },
      { kind: 'select', message: 'UPI flow', answer: 'intent' },
      SEND,
    );
    const r = await sb.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).intent_uri).toMatch(/^upi:\/\//);
    expect(prompter.asked[0]!.choices).toEqual(['upi', 'credit_card', 'debit_card']);
  });

  it('API 2.x: the method choices are uppercase and collection asks for the VPA', async () => {
    const prompter = fakePrompter(
      { kind: 'select', message: 'Method of payment', answer: 'UPI' },
      { kind: 'select', message: 'UPI flow', answer: 'collection' },
      { message: 'VPA', answer: 'ravi', rejectedWith: 'username@bank' },
      { message: 'VPA', answer: 'ravi@okhdfc' },
      SEND,
    );
    const r = await sb.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--api-version', '2.0.0', '-o', 'table'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(prompter.asked[0]!.choices).toEqual(['UPI', 'CREDIT_CARD', 'DEBIT_CARD']);
    expect(r.stdout).toContain('Collect request sent to ravi@okhdfc');
  });
});

describe('card details at the prompt', () => {
  it('number and CVV are asked masked (password), checked, and never shown', async () => {
    const prompter = fakePrompter(
      { kind: 'select', message: 'Test card', answer: 'enter' },
      { kind: 'password', message: 'Card number', answer: '4111', rejectedWith: '12-19 digits' },
      { kind: 'password', message: 'Card number', answer: CARD_NUMBER.replace(/(\d{4})/g, '$1 ').trim() },
      { kind: 'input', message: 'Name on the card', answer: 'Asha Verma' },
      { kind: 'input', message: 'Expiry month', answer: '1' },
      { kind: 'input', message: 'Expiry year', answer: String(year - 1), rejectedWith: 'current year or later' },
      { kind: 'input', message: 'Expiry year', answer: String(year + 1) },
      { kind: 'password', message: 'CVV', answer: '12', rejectedWith: '3-4 digits' },
      { kind: 'password', message: 'CVV', answer: CVV },
      { kind: 'input', message: 'Card nickname', answer: 'Mine' },
      { kind: 'input', message: 'Customer identifier', answer: 'cust-9' },
    );
    const r = await sb.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--dry-run', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Card (number and CVV are hidden as you type)');
    const sent = JSON.parse(r.stdout).body.card_details;
    expect(sent).toMatchObject({ number: '400005******5556', expiry_month: '01', network: 'visa' });
    expect(sent).not.toHaveProperty('cvv');
    expect(r.stdout + r.stderr).not.toContain(CARD_NUMBER);
    expect(r.stdout + r.stderr).not.toMatch(new RegExp(`\\b${CVV}\\b`));
  });

  it.skipIf(new Date().getUTCMonth() === 0)('an expiry year that makes the month past is refused at the year', async () => {
    const prompter = fakePrompter(
      { message: 'Test card', answer: 'enter' },
      { message: 'Card number', answer: CARD_NUMBER },
      { message: 'Name on the card', answer: 'Asha Verma' },
      { message: 'Expiry month', answer: '01' },
      { message: 'Expiry year', answer: String(year), rejectedWith: 'card_details.expiry_month: the card has expired' },
      { message: 'Expiry year', answer: String(year + 1) },
      { message: 'CVV', answer: CVV },
      { message: 'Card nickname', answer: 'Mine' },
      { message: 'Customer identifier', answer: 'cust-9' },
    );
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'debit_card', '--dry-run', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
  });

  it('--card-file - from a terminal is refused: typing would echo the number', async () => {
    const prompter = fakePrompter();
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--card-file', '-'], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--card-file - needs the card JSON piped in');
    prompter.assertDone();
  });
});

describe('a wrong flag, the review, the test cards', () => {
  it('a wrong flag value is said once by its flag, then asked for with the rest', async () => {
    const prompter = fakePrompter(MODE, { message: 'Amount', answer: '250' });
    const r = await mock.pgw(['order', 'create', ...flagsWithout('--amount'), '--amount', '12.345', '--dry-run', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^--amount: .*2 decimals.*: asked for below$/m);
    expect(r.stderr).not.toContain('problems');
    expect(JSON.parse(r.stdout).body.amount).toBe('250.00');
  });

  it('the review offers Send, Edit, Cancel; Edit re-asks one field; Cancel sends nothing (exit 2)', async () => {
    const prompter = fakePrompter(
      MODE,
      { message: 'City', answer: 'Pune' },
      { kind: 'select', message: 'Send this order', answer: 'edit' },
      { kind: 'select', message: 'Which field', answer: 'buyer.address.city' },
      { message: 'City', answer: 'Mumbai' },
      { kind: 'select', message: 'Send this order', answer: 'cancel' },
    );
    const r = await sb.pgw(['order', 'create', ...flagsWithout('--city'), '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('cancelled: nothing was sent');
    const review = prompter.asked.find((q) => q.message === 'Send this order?')!;
    expect(review.choices).toEqual(['send', 'edit', 'cancel']);
    // The review shows the edited value the second time.
    const reviews = r.stderr.split('Review the order');
    expect(reviews[1]).toMatch(/buyer\.address\.city\s+Pune/);
    expect(reviews[2]).toMatch(/buyer\.address\.city\s+Mumbai/);
  });

  it('a sandbox offers its test cards, says which fails, and the network follows from the number', async () => {
    const prompter = fakePrompter(
      { kind: 'select', message: 'Test card', answer: '4000000000000002' },
      { message: 'Name on the card', answer: 'Asha Verma' },
      { message: 'Expiry month', answer: '12' },
      { message: 'Expiry year', answer: String(year + 2) },
      { message: 'CVV', answer: '123' },
      { message: 'Card nickname', answer: ACCEPT_DEFAULT },
      { message: 'Customer identifier', answer: ACCEPT_DEFAULT },
      SEND,
    );
    const r = await sb.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--acs-out', ws.file('t.html', {}), '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
    const cards = prompter.asked[0]!;
    expect(cards.choices).toEqual(['4111111111111111', '5555555555554444', '6521000000000007', '4000000000000002', 'enter']);
    expect(r.stderr).toContain('network: visa (from the number)');
    expect(prompter.asked.map((q) => q.message)).not.toContain('Card network');
    expect(r.stderr).toMatch(/Review the order[\s\S]*card_details\.number\s+400000\*+0002/);
    expect(r.stdout + r.stderr).not.toContain('4000000000000002');
    // The defaults explain themselves: the nickname from the card, the identifier from the buyer.
    expect(prompter.asked.find((q) => q.message.startsWith('Card nickname'))!.default).toBe('visa ending 0002');
    expect(prompter.asked.find((q) => q.message.startsWith('Customer identifier'))!.default).toBe('asha@example.com');
  });

  it('a number that fails the Luhn check is refused at the prompt', async () => {
    const prompter = fakePrompter(
      { kind: 'select', message: 'Test card', answer: 'enter' },
      { kind: 'password', message: 'Card number', answer: '4111111111111112', rejectedWith: 'Luhn' },
      { kind: 'password', message: 'Card number', answer: '4111111111111111' },
      { message: 'Name on the card', answer: 'Asha Verma' },
      { message: 'Expiry month', answer: '12' },
      { message: 'Expiry year', answer: String(year + 2) },
      { message: 'CVV', answer: '123' },
      { message: 'Card nickname', answer: 'Mine' },
      { message: 'Customer identifier', answer: 'c-1' },
    );
    const r = await mock.pgw(['order', 'create', ...orderFlags(), '--mode', 's2s', '--mop', 'credit_card', '--dry-run', '--json'], { tty: true, prompter });
    prompter.assertDone();
    expect(r.code).toBe(0);
  });
});

describe('when nothing is asked', () => {
  it('a wrong value in --file is not a question: exit 2 naming it and what the file lacks, in one refusal', async () => {
    const prompter = fakePrompter();
    const body = orderJson({ amount: '0' });
    delete (body.buyer as Record<string, unknown>).name;
    const r = await mock.pgw(['order', 'create', '--file', ws.file('bad.json', body), '-o', 'table'], { tty: true, prompter });
    prompter.assertDone();
    expect(prompter.asked).toEqual([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: invalid order: 2 problems\n  amount: must be greater than 0\n  buyer\.name: required\nhint: /);
  });

  it('--file - spends stdin: no prompts, exit 2', async () => {
    const prompter = fakePrompter();
    const body = orderJson();
    delete (body.buyer as Record<string, unknown>).email;
    const r = await mock.pgw(['order', 'create', '--file', '-', '-o', 'table'], { tty: true, prompter, input: JSON.stringify(body) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('buyer.email: required');
    prompter.assertDone();
  });

  it('Ctrl-C at a prompt: exit 130, nothing sent', async () => {
    const prompter = fakePrompter(MODE, { message: 'Buyer name', answer: interrupt() });
    const r = await mock.pgw(['order', 'create', ...flagsWithout('--buyer-name')], { tty: true, prompter });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
  });
});
