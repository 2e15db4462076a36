// In a terminal, the missing required fields of a create-order body are asked for, grouped (order,
// buyer, address, product, invoice, card), in a fixed order. Each answer is checked as it is given
// with the shared schema itself: the answer is put into the body and the body validated, so a
// prompt can never accept what the gateway's rules refuse. Card number and CVV are masked.
import type { Context } from '../../context.js';
import type { Prompter, Validate } from '../../prompts.js';
import { CARD_NETWORKS, GOODS_TYPES, MOP_TYPES, type Problem } from '../../api/schemas/index.js';
import { getPath, normaliseAmount, setPath, type ApiMajor } from './body.js';
import { fullProblems, isMissing, problemsOf, type OrderSchema } from './check.js';
import type { JsonObject } from './read-json.js';

type Group = 'Order' | 'Buyer' | 'Buyer address' | 'Product' | 'Invoice' | 'Card';

interface AskField {
  path: string;
  group: Group;
  label: string;
  kind?: 'input' | 'password' | 'select';
  choices?: (body: JsonObject, major: ApiMajor) => readonly string[];
  default?: string;
  clean?: (answer: string) => string;
}

const trim = (v: string) => v.trim();
const cardMops = (major: ApiMajor) => (major === 3 ? ['upi', 'credit_card', 'debit_card'] : ['UPI', 'CREDIT_CARD', 'DEBIT_CARD']);

/** In the order asked. Paths outside this list cannot be asked for and are reported instead. */
const FIELDS: AskField[] = [
  { path: 'amount', group: 'Order', label: 'Amount in rupees (e.g. 1500.00)', clean: (v) => String(normaliseAmount(v.trim())) },
  { path: 'currency', group: 'Order', label: 'Currency', default: 'INR', clean: (v) => v.trim().toUpperCase() },
  { path: 'reference_id', group: 'Order', label: 'Your reference for the order (reference_id)' },
  { path: 'return_url', group: 'Order', label: 'Return address after payment (return_url)' },
  {
    path: 'mop_type',
    group: 'Order',
    label: 'Method of payment',
    kind: 'select',
    choices: (body, major) => (getPath(body, 'collection_mode') === 's2s' ? cardMops(major) : MOP_TYPES.map((m) => (major === 3 ? m : m.toUpperCase()))),
  },
  { path: 'upi_flow_type', group: 'Order', label: 'UPI flow', kind: 'select', choices: () => ['intent', 'collection'] },
  { path: 'vpa', group: 'Order', label: "Buyer's UPI address (VPA, username@bank)" },
  { path: 'buyer.name', group: 'Buyer', label: 'Buyer name' },
  { path: 'buyer.email', group: 'Buyer', label: 'Buyer email' },
  { path: 'buyer.phone', group: 'Buyer', label: 'Buyer phone with country code (e.g. +919876543210)' },
  { path: 'buyer.address.line_1', group: 'Buyer address', label: 'Address line 1' },
  { path: 'buyer.address.city', group: 'Buyer address', label: 'City' },
  { path: 'buyer.address.state', group: 'Buyer address', label: 'State' },
  { path: 'buyer.address.postal_code', group: 'Buyer address', label: 'Postal code (6 characters)' },
  { path: 'product.name', group: 'Product', label: 'Product name' },
  { path: 'product.type_of_goods', group: 'Product', label: 'Type of goods', kind: 'select', choices: () => GOODS_TYPES },
  { path: 'product.hs_code', group: 'Product', label: 'HS code (up to 8 digits)' },
  { path: 'invoice.number', group: 'Invoice', label: 'Invoice number' },
  { path: 'card_details.number', group: 'Card', label: 'Card number', kind: 'password', clean: (v) => v.replace(/[\s-]/g, '') },
  { path: 'card_details.cardholder_name', group: 'Card', label: 'Name on the card' },
  { path: 'card_details.expiry_month', group: 'Card', label: 'Expiry month (MM)', clean: (v) => (/^[1-9]$/.test(v.trim()) ? `0${v.trim()}` : v.trim()) },
  { path: 'card_details.expiry_year', group: 'Card', label: 'Expiry year (YYYY)' },
  { path: 'card_details.cvv', group: 'Card', label: 'CVV', kind: 'password', clean: trim },
  { path: 'card_details.network', group: 'Card', label: 'Card network', kind: 'select', choices: () => CARD_NETWORKS },
  { path: 'card_details.nickname', group: 'Card', label: 'Card nickname' },
  { path: 'card_details.identifier', group: 'Card', label: 'Customer identifier for the card' },
  { path: 'card_details.token', group: 'Card', label: 'Saved card token' },
];

const HEADINGS: Record<Group, string> = {
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
    const probe = structuredClone(body);
    setPath(probe, field.path, (field.clean ?? trim)(answer));
    const after = problemsOf(schema, probe);
    const own = after.find((p) => p.path === field.path);
    if (own) return own.message;
    const caused = after.find((p) => !isMissing(p) && !before.has(keyOf(p)));
    return caused ? `${caused.path}: ${caused.message}` : true;
  };
}

async function ask(prompter: Prompter, field: AskField, body: JsonObject, major: ApiMajor, validate: Validate): Promise<string> {
  if (field.kind === 'select') {
    const choices = field.choices!(body, major).map((value) => ({ name: value, value }));
    return prompter.select({ message: field.label, choices });
  }
  if (field.kind === 'password') return prompter.password({ message: field.label, validate });
  return prompter.input({ message: field.label, default: field.default, validate });
}

/**
 * Ask for every missing field this list knows, one at a time, re-checking after each answer (an
 * answer can make another field required: s2s needs mop_type, a card method needs card_details).
 * Fields it cannot ask for stay missing, for the caller's final validation to report.
 */
export async function askMissing(ctx: Context, schema: OrderSchema, body: JsonObject, major: ApiMajor): Promise<void> {
  const prompter = await ctx.loadPrompter();
  const asked = new Set<string>();
  let group: Group | undefined;
  for (;;) {
    const missing = new Set(fullProblems(schema, body, true).filter(isMissing).map((p) => p.path));
    const field = FIELDS.find((f) => missing.has(f.path) && !asked.has(f.path));
    if (!field) return;
    asked.add(field.path);
    if (field.group !== group) {
      group = field.group;
      ctx.io.err(`\n${HEADINGS[group]}\n`);
    }
    const answer = await ask(prompter, field, body, major, answerValidator(schema, body, field));
    setPath(body, field.path, (field.clean ?? trim)(answer));
  }
}
