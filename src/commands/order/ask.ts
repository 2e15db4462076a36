// In a terminal, the missing required fields of a create-order body are asked for, grouped (how the
// buyer pays first, then order, buyer, address, product, invoice, card), in a fixed order. Each
// answer is checked as it is given with the shared schema itself: the answer is put into the body
// and the body validated, so a prompt can never accept what the gateway's rules refuse. Card
// number and CVV are masked; the number must pass the Luhn check and gives the network; a sandbox
// offers its test cards.
import type { Context } from '../../context.js';
import type { Prompter, Validate } from '../../prompts.js';
import { CARD_NETWORKS, GOODS_TYPES, MOP_TYPES, type Problem } from '../../api/schemas/index.js';
import { getPath, normaliseAmount, setPath, type ApiMajor } from './body.js';
import { fullProblems, isMissing, problemsOf, type OrderSchema } from './check.js';
import type { JsonObject } from './read-json.js';
import { TEST_CARDS, luhnValid, networkOf, testCardLabel } from './card-number.js';
import { generateReferenceId } from '../link/body.js';

const compactDate = (d: Date) => `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;

type Group = 'Payment' | 'Order' | 'Buyer' | 'Buyer address' | 'Product' | 'Invoice' | 'Card';

export interface AskField {
  path: string;
  group: Group;
  label: string;
  kind?: 'input' | 'password' | 'select';
  choices?: (body: JsonObject, major: ApiMajor) => readonly string[];
  /** What each choice means, shown next to it. */
  describe?: Record<string, string>;
  default?: string | ((body: JsonObject, test: TestDefaults) => string | undefined);
  clean?: (answer: string) => string;
}

/**
 * What a question may offer beyond the field's own default (issue 33 item 12): on a sandbox
 * profile, values a tester accepts (the demo buyer, a product, an invoice number, the sandbox's
 * return page), so Enter through the flow makes a valid order. On production there are none
 * (`demo` false): a default there would be wrong data about a real buyer or sale. A generated
 * reference_id and currency INR are offered everywhere: they describe no one.
 */
export interface TestDefaults {
  /** A sandbox profile (not production): the demo buyer and test data are offered. */
  demo: boolean;
  /** pgw's own sandbox's return page (GET /return/), when its address is known. */
  returnPage?: string;
  now: Date;
}

export const NO_TEST_DEFAULTS: TestDefaults = { demo: false, now: new Date(0) };

/** The sandbox's demo buyer, as `order create --print-template` shows it (template.ts). */
const demo = (value: string) => (_body: JsonObject, test: TestDefaults) => (test.demo ? value : undefined);

const trim = (v: string) => v.trim();
const cardMops = (major: ApiMajor) => (major === 3 ? ['upi', 'credit_card', 'debit_card'] : ['UPI', 'CREDIT_CARD', 'DEBIT_CARD']);

/** How the buyer pays: asked first, since it decides what else is needed. */
export const MODE_FIELD: AskField = {
  path: 'collection_mode',
  group: 'Payment',
  label: 'How will the buyer pay?',
  kind: 'select',
  choices: () => ['hosted_payment', 's2s'],
  describe: {
    hosted_payment: 'hosted checkout page: the buyer picks the method (UPI, card, ...)',
    s2s: 'server to server: you collect UPI or card details and send them',
  },
};

const last4 = (body: JsonObject) => String(getPath(body, 'card_details.number') ?? '').slice(-4);

/** In the order asked. Paths outside this list cannot be asked for and are reported instead. */
export const FIELDS: AskField[] = [
  {
    path: 'mop_type',
    group: 'Payment',
    label: 'Method of payment',
    kind: 'select',
    choices: (body, major) => (getPath(body, 'collection_mode') === 's2s' ? cardMops(major) : MOP_TYPES.map((m) => (major === 3 ? m : m.toUpperCase()))),
  },
  {
    path: 'upi_flow_type',
    group: 'Payment',
    label: 'UPI flow',
    kind: 'select',
    choices: () => ['intent', 'collection'],
    describe: { intent: 'a upi:// link and QR code the buyer opens in a UPI app', collection: "a collect request sent to the buyer's UPI address" },
  },
  { path: 'vpa', group: 'Payment', label: "Buyer's UPI address (VPA, username@bank)", default: demo('asha@okbank') },
  { path: 'amount', group: 'Order', label: 'Amount in rupees (e.g. 1500.00)', default: demo('100.00'), clean: (v) => String(normaliseAmount(v.trim())) },
  { path: 'currency', group: 'Order', label: 'Currency', default: 'INR', clean: (v) => v.trim().toUpperCase() },
  // Generated as from flags alone (create.ts fillDefaults): on every profile, it names no one.
  { path: 'reference_id', group: 'Order', label: 'Your reference for the order (reference_id)', default: () => generateReferenceId() },
  { path: 'return_url', group: 'Order', label: 'Return address after payment (return_url)', default: (_b, test) => (test.demo ? test.returnPage : undefined) },
  { path: 'buyer.name', group: 'Buyer', label: 'Buyer name', default: demo('Asha Verma') },
  { path: 'buyer.email', group: 'Buyer', label: 'Buyer email', default: demo('asha@example.com') },
  { path: 'buyer.phone', group: 'Buyer', label: 'Buyer phone with country code (e.g. +919876543210)', default: demo('+919876543210') },
  { path: 'buyer.address.line_1', group: 'Buyer address', label: 'Address line 1', default: demo('12 MG Road') },
  { path: 'buyer.address.city', group: 'Buyer address', label: 'City', default: demo('Bengaluru') },
  { path: 'buyer.address.state', group: 'Buyer address', label: 'State', default: demo('Karnataka') },
  { path: 'buyer.address.postal_code', group: 'Buyer address', label: 'Postal code (6 characters)', default: demo('560001') },
  { path: 'product.name', group: 'Product', label: 'Product name', default: demo('Sandbox test plan') },
  // A service needs no HS code: one question fewer on Enter.
  { path: 'product.type_of_goods', group: 'Product', label: 'Type of goods', kind: 'select', choices: () => GOODS_TYPES, default: demo('service') },
  { path: 'product.hs_code', group: 'Product', label: 'HS code (up to 8 digits)', default: demo('62141000') },
  {
    path: 'invoice.number',
    group: 'Invoice',
    label: 'Invoice number',
    // INV, the sandbox's date and the reference: unique with the reference, letters and digits only.
    default: (body, test) => (test.demo ? `INV${compactDate(test.now)}${String(getPath(body, 'reference_id') ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 13).toUpperCase()}` : undefined),
  },
  { path: 'card_details.number', group: 'Card', label: 'Card number', kind: 'password', clean: (v) => v.replace(/[\s-]/g, '') },
  {
    path: 'card_details.cardholder_name',
    group: 'Card',
    label: 'Name on the card',
    default: (body, test) => (test.demo && typeof getPath(body, 'buyer.name') === 'string' ? String(getPath(body, 'buyer.name')) : undefined),
  },
  {
    path: 'card_details.expiry_month',
    group: 'Card',
    label: 'Expiry month (MM, or MM/YY as printed on the card)',
    default: demo('12'),
    clean: (v) => printedExpiry(v)?.month ?? (/^[1-9]$/.test(v.trim()) ? `0${v.trim()}` : v.trim()),
  },
  { path: 'card_details.expiry_year', group: 'Card', label: 'Expiry year (YYYY)', default: (_b, test) => (test.demo ? String(test.now.getUTCFullYear() + 3) : undefined) },
  { path: 'card_details.cvv', group: 'Card', label: 'CVV', kind: 'password', clean: trim },
  { path: 'card_details.network', group: 'Card', label: 'Card network', kind: 'select', choices: () => CARD_NETWORKS },
  {
    path: 'card_details.nickname',
    group: 'Card',
    label: 'Card nickname (the buyer sees it on the saved card)',
    default: (body) => `${String(getPath(body, 'card_details.network') ?? 'card')} ending ${last4(body)}`,
  },
  {
    path: 'card_details.identifier',
    group: 'Card',
    label: 'Customer identifier (your ID for the buyer)',
    default: (body) => (typeof getPath(body, 'buyer.email') === 'string' ? String(getPath(body, 'buyer.email')) : undefined),
  },
  { path: 'card_details.token', group: 'Card', label: 'Saved card token' },
];

const HEADINGS: Record<Group, string> = {
  Payment: 'Payment',
  Order: 'Order',
  Buyer: 'Buyer',
  'Buyer address': 'Buyer address',
  Product: 'Product',
  Invoice: 'Invoice',
  Card: 'Card (number and CVV are hidden as you type)',
};

const keyOf = (p: Problem) => `${p.path}\u0000${p.message}`;

/** The answer goes into a copy of the body; refused if it has a problem of its own or causes a new one. */
export function answerValidator(schema: OrderSchema, body: JsonObject, field: AskField): Validate {
  const before = new Set(problemsOf(schema, body).map(keyOf));
  return (answer) => {
    const value = (field.clean ?? trim)(answer);
    const probe = structuredClone(body);
    setPath(probe, field.path, value);
    // `12/24` at the month: the year comes with it and is checked with it (an expired card is said here).
    const printed = field.path === 'card_details.expiry_month' ? printedExpiry(answer) : undefined;
    if (printed) setPath(probe, 'card_details.expiry_year', printed.year);
    const after = problemsOf(schema, probe);
    const own = after.find((p) => p.path === field.path || (printed !== undefined && p.path === 'card_details.expiry_year'));
    if (own) return own.message;
    // The schema checks the shape; a typo in a card number is caught here, before the gateway.
    if (field.path === 'card_details.number' && !luhnValid(value)) return 'is not a card number: the check digit does not match (Luhn); check the digits';
    const caused = after.find((p) => !isMissing(p) && !before.has(keyOf(p)));
    return caused ? `${caused.path}: ${caused.message}` : true;
  };
}

/**
 * One question. `current` (an edit at the review) is the default instead of the field's own; a
 * hidden field being edited says that Enter keeps it (`keepHint`).
 */
export async function ask(
  prompter: Prompter,
  field: AskField,
  body: JsonObject,
  major: ApiMajor,
  validate: Validate,
  edit: { current?: string; keepHint?: boolean } = {},
  test: TestDefaults = NO_TEST_DEFAULTS,
): Promise<string> {
  const fallback = edit.current ?? (typeof field.default === 'function' ? field.default(body, test) : field.default);
  if (field.kind === 'select') {
    // What a choice means is its description: shown under the list for the one highlighted.
    const choices = field.choices!(body, major).map((value) => ({ name: value, value, description: field.describe?.[value] }));
    return prompter.select({ message: field.label, choices, default: fallback && choices.some((c) => c.value === fallback) ? fallback : undefined });
  }
  if (field.kind === 'password') return prompter.password({ message: edit.keepHint ? `${field.label} (Enter keeps the current one)` : field.label, validate });
  return prompter.input({ message: field.label, default: fallback, validate });
}

/** `12/24`, `12/2029`, `3 / 27` at the month question: the card's expiry as printed on it. */
const PRINTED_EXPIRY = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/;

/** MM/YY → { month: "12", year: "2024" }, or undefined. */
export function printedExpiry(text: string): { month: string; year: string } | undefined {
  const m = PRINTED_EXPIRY.exec(text);
  if (!m) return undefined;
  return { month: m[1]!.padStart(2, '0'), year: m[2]!.length === 2 ? `20${m[2]}` : m[2]! };
}

const ENTER_NUMBER = 'enter';

/** A sandbox offers its test cards (and says which one fails); the number is then not typed. */
async function pickTestCard(prompter: Prompter, body: JsonObject): Promise<boolean> {
  const choice = await prompter.select({
    message: 'Test card, or your own',
    choices: [...TEST_CARDS.map((c) => ({ name: testCardLabel(c), value: c.number as string })), { name: 'enter a card number (hidden as you type)', value: ENTER_NUMBER }],
  });
  if (choice === ENTER_NUMBER) return false;
  setPath(body, 'card_details.number', choice);
  return true;
}

export interface AskOptions {
  /** The profile is a sandbox: offer its test cards. */
  sandbox?: boolean;
  /** Ask how the buyer pays first when neither the file nor a flag said. */
  askMode?: boolean;
  /** What the questions may offer as defaults (none beyond the fields' own when absent). */
  test?: TestDefaults;
}

/**
 * Ask for every missing field this list knows, one at a time, re-checking after each answer (an
 * answer can make another field required: s2s needs mop_type, a card method needs card_details).
 * Fields it cannot ask for stay missing, for the caller's final validation to report.
 */
export async function askMissing(ctx: Context, schema: OrderSchema, body: JsonObject, major: ApiMajor, opts: AskOptions = {}): Promise<void> {
  const prompter = await ctx.loadPrompter();
  const asked = new Set<string>();
  let group: Group | undefined;
  const heading = (g: Group) => {
    if (g !== group) ctx.io.err(`\n${HEADINGS[g]}\n`);
    group = g;
  };
  if (opts.askMode && getPath(body, 'collection_mode') === undefined) {
    heading('Payment');
    setPath(body, 'collection_mode', await ask(prompter, MODE_FIELD, body, major, () => true));
  }
  for (;;) {
    const missing = new Set(fullProblems(schema, body, true).filter(isMissing).map((p) => p.path));
    const field = FIELDS.find((f) => missing.has(f.path) && !asked.has(f.path));
    if (!field) return;
    asked.add(field.path);
    heading(field.group);
    if (field.path === 'card_details.number' && opts.sandbox && (await pickTestCard(prompter, body))) {
      noteNetwork(ctx, body);
      continue;
    }
    const answer = await ask(prompter, field, body, major, answerValidator(schema, body, field), {}, opts.test);
    setPath(body, field.path, (field.clean ?? trim)(answer));
    if (field.path === 'card_details.number') noteNetwork(ctx, body);
    const printed = field.path === 'card_details.expiry_month' ? printedExpiry(answer) : undefined;
    if (printed) {
      // The year came with the month: not asked again.
      setPath(body, 'card_details.expiry_year', printed.year);
      ctx.io.err(`  expiry year: ${printed.year}\n`);
    }
  }
}

/** The network follows from the number: set it (unless given) and say so, instead of asking. */
function noteNetwork(ctx: Context, body: JsonObject): void {
  if (getPath(body, 'card_details.network') !== undefined) return;
  const network = networkOf(String(getPath(body, 'card_details.number') ?? ''));
  if (!network) return;
  setPath(body, 'card_details.network', network);
  ctx.io.err(`  network: ${network} (from the number)\n`);
}
