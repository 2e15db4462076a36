// IDs as people paste them, and what kind of resource an ID names (issue 22 items 1-2).
// The gateway's identifiers carry their kind in a two-letter prefix (spec 2.6-2.9: OD orders,
// PR payments and payment links, ST settlements, RF refunds, CB chargebacks; sub-merchants are
// digits, spec 2.10). A support agent pastes them from tickets and chat: several on one line,
// separated by commas, in lowercase, wrapped in quotes or followed by a full stop. pgw takes them
// as they come and, when the prefix already says the ID is of another kind, names the command
// that looks it up instead of sending a request that can only answer "not found".
import { UsageError } from '../errors.js';

export type IdKind = 'order' | 'payment' | 'link' | 'settlement' | 'refund' | 'chargeback' | 'merchant' | 'webhook' | 'vba';

interface KindInfo {
  /** "a refund" */
  label: string;
  /** "refunds" */
  plural: string;
  /** The verb that looks one up, or undefined when there is none. */
  command?: string;
  /** Where to look instead, when there is no verb of its own. */
  instead?: string;
}

export const KINDS: Record<IdKind, KindInfo> = {
  order: { label: 'an order', plural: 'orders', command: 'pgw order get' },
  payment: { label: 'a payment', plural: 'payments', command: 'pgw payment get' },
  link: { label: 'a payment link', plural: 'payment links', command: 'pgw link get' },
  settlement: { label: 'a settlement', plural: 'settlements', command: 'pgw settle get' },
  refund: { label: 'a refund', plural: 'refunds', command: 'pgw refund get' },
  chargeback: { label: 'a chargeback', plural: 'chargebacks', instead: 'chargebacks have no look-up of their own: they are listed in their payment and settlement (pgw settle get ST...)' },
  merchant: { label: 'a sub-merchant', plural: 'sub-merchants', command: 'pgw merchant get' },
  webhook: { label: 'a sandbox webhook registration', plural: 'sandbox webhook registrations', instead: 'pgw sandbox webhook list' },
  // vendor 11.7: a virtual_account_id is digits, as a sub-merchant's ID: no prefix tells them apart.
  vba: { label: 'a virtual bank account', plural: 'virtual bank accounts', command: 'pgw vba get' },
};

/** Prefix → the kind it names. PR names payments and payment links alike (spec 2.8). */
const PREFIXES: Record<string, IdKind> = { OD: 'order', PR: 'payment', ST: 'settlement', RF: 'refund', CB: 'chargeback', WH: 'webhook' };

/** The argument names of the verbs that take IDs → the kind each expects. */
const NAME_KINDS: Record<string, IdKind> = {
  order_id: 'order',
  payment_id: 'payment',
  '--payment-id': 'payment',
  link_id: 'link',
  settlement_id: 'settlement',
  refund_id: 'refund',
  merchant_id: 'merchant',
  '--order': 'order',
  '--refund': 'refund',
  '--chargeback': 'chargeback',
  virtual_account_id: 'vba',
  // vba payments --since <payment_id> (vendor 11.7.4 since_id)
  '--since': 'payment',
};

const PREFIXED = /^([A-Za-z]{2})([0-9]+)$/;

/** The kind an ID's form settles on its own: a known prefix and digits, or digits alone (a sub-merchant). */
export function kindOf(id: string): IdKind | undefined {
  const m = PREFIXED.exec(id);
  if (m) return PREFIXES[m[1]!.toUpperCase()];
  return /^[0-9]+$/.test(id) ? 'merchant' : undefined;
}

/** The kind a verb's argument expects, from its name (`payment_id`), or undefined for free-form IDs. */
export function expectedKind(name: string): IdKind | undefined {
  return NAME_KINDS[name];
}

/**
 * The kind of a mismatch, or undefined when the ID may be of the expected kind. Payment and link
 * IDs share PR, so neither settles the other. A bare digit string is a sub-merchant's ID only
 * where one is expected: elsewhere it is left to the gateway (a prefix may simply be missing).
 */
export function otherKind(id: string, expected: IdKind | undefined): IdKind | undefined {
  if (expected === undefined) return undefined;
  const kind = kindOf(id);
  if (kind === undefined || kind === expected) return undefined;
  if ((kind === 'payment' && expected === 'link') || kind === 'merchant') return undefined;
  return kind;
}

// Any form an ID of some kind takes: a two-letter prefix and digits (a prefix pgw does not know is
// still left to the gateway), digits alone (a sub-merchant), or a UUID (a settlement's
// settlement_id, spec 2.7). Anything else, `INV-7781` or `order-1042`, is no ID at all.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function mayBeAnId(id: string): boolean {
  return PREFIXED.test(id) || /^[0-9]+$/.test(id) || UUID.test(id);
}

/** A word as it can be pasted into a shell: quoted unless it holds only safe characters. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9._\/:@=+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * For the look-ups whose IDs have a known form: what that form is, and the search that finds the
 * resource by what people hold instead of its ID (the merchant's reference or invoice number, a
 * UTR). Sub-merchants are left out: a PSP's own merchant IDs may take any form.
 */
const SEARCHES: Partial<Record<IdKind, { form: string; search: (arg: string) => string; more?: (arg: string) => string }>> = {
  order: {
    form: 'OD…',
    search: (a) => `to find it by the merchant's own reference, pgw payment list --reference-id ${shellWord(a)}`,
    more: (a) => `by invoice number: pgw payment list --invoice-number ${shellWord(a)}; near references: pgw payment list --reference-id ${shellWord(`${a}*`)}`,
  },
  payment: {
    form: 'PR…',
    search: (a) => `to find it by the merchant's own reference, pgw payment list --reference-id ${shellWord(a)}`,
    more: (a) => `by invoice number: pgw payment list --invoice-number ${shellWord(a)}; near references: pgw payment list --reference-id ${shellWord(`${a}*`)}`,
  },
  link: { form: 'PR…', search: (a) => `to find its payments by the link's reference, pgw payment list --reference-id ${shellWord(a)}` },
  refund: { form: 'RF…', search: (a) => `to find refunds by the merchant's own reference, pgw refund list --reference-id ${shellWord(a)}` },
  settlement: { form: 'ST…', search: () => 'to find a settlement by its bank reference (UTR) or day, pgw settle list --all (see the utr column)' },
};

/**
 * The refusal of arguments that cannot be an ID of any kind where `expected` has a known form
 * (issue 33 item 5): `pgw order get INV-7781` would only answer "Order not found", so nothing is
 * sent and the search that finds it is named. undefined when every argument may be an ID.
 */
export function notAnIdError(ids: string[], expected: IdKind | undefined): UsageError | undefined {
  const search = expected === undefined ? undefined : SEARCHES[expected];
  if (!search) return undefined;
  const wrong = ids.filter((id) => !mayBeAnId(id));
  if (wrong.length === 0) return undefined;
  const label = KINDS[expected!].label;
  const what = wrong.length === 1 ? `${wrong[0]} is not ${label} ID (${search.form})` : `${wrong.join(', ')} are not ${KINDS[expected!].plural.replace(/s$/, '')} IDs (${search.form})`;
  const first = wrong[0]!;
  return new UsageError(`${what}: ${search.search(first)}`, {
    code: 'NOT_AN_ID',
    suggestion: search.more?.(first),
  });
}

/** "RF2411166365 is a refund: pgw refund get RF2411166365" (`ids` space-separated, `count` of them). */
export function kindSentence(ids: string, kind: IdKind, count = 1): string {
  const info = KINDS[kind];
  const what = count === 1 ? `is ${info.label}` : `are ${info.plural}`;
  return `${ids} ${what}: ${info.command ? `${info.command} ${ids}` : info.instead}`;
}

// Quotes and brackets around an ID, and the full stop or comma after it, come from the text it
// was copied out of. Only those: a slash or a leading dot is kept, so `../x` is still refused
// rather than quietly becoming another ID.
const QUOTES = '"\'`\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u00AB\u00BB\u2039\u203A()\\[\\]{}<>*';
const EDGES = new RegExp(`^[${QUOTES}]+|[${QUOTES}.,;:!?]+$`, 'gu');
// Commas, semicolons and any whitespace (no-break spaces from chat apps included) separate IDs.
const SEPARATORS = /[\s,;]+/u;

/**
 * One ID as pasted → the ID: surrounding punctuation dropped, a known prefix upper-cased
 * (`pr2411166365.` → `PR2411166365`). Anything else is kept as typed (a UUID keeps its case).
 */
export function cleanId(piece: string): string {
  const id = piece.replace(EDGES, '');
  const m = PREFIXED.exec(id);
  if (m && PREFIXES[m[1]!.toUpperCase()]) return `${m[1]!.toUpperCase()}${m[2]}`;
  return id;
}

/** Every ID in a pasted text: split on commas and whitespace, each cleaned; empty pieces dropped. */
export function splitPasted(text: string): string[] {
  return text
    .split(SEPARATORS)
    .map(cleanId)
    .filter((id) => id !== '');
}

/**
 * IDs on stdin or in a file: a JSON array of IDs (`pgw merchant list --query '[].id'`), or text,
 * one or more per line, `#` lines and blank lines skipped. `source` names where they came from.
 */
export function idsFromText(text: string, source: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return idsFromJson(trimmed, source);
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap(splitPasted);
}

function idsFromJson(text: string, source: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${source}: starts with "[" but is not a JSON array of IDs`);
  }
  if (!Array.isArray(value)) throw new UsageError(`${source}: not a JSON array of IDs`);
  return value.map((item, i) => {
    if (typeof item === 'string') return cleanId(item);
    if (typeof item === 'number' && Number.isSafeInteger(item) && item >= 0) return String(item);
    // Arrays are objects to typeof: name them first (`[["PR…"]]` is a nested list, not objects).
    if (Array.isArray(item)) {
      throw new UsageError(`${source}: item ${i + 1} of the JSON array is an array, not an ID`, {
        suggestion: "flatten it with --query, e.g. --query '[]'",
      });
    }
    const what = item !== null && typeof item === 'object' ? 'an object' : JSON.stringify(item);
    throw new UsageError(`${source}: item ${i + 1} of the JSON array is ${what}, not an ID`, {
      suggestion: item !== null && typeof item === 'object' ? "pick the IDs out with --query, e.g. --query '[].id'" : undefined,
    });
  });
}
