// What `pgw sandbox compare` compares of two answers to the same request (issue 46): what a client
// written from the docs could trip on, never a value that must differ between two gateways (IDs,
// times, generated references, amounts of other data). Pure: no I/O, no pgw imports, so every
// rule here is tested by tables (test/compare/shape.test.ts).
//
// An answer is reduced to its shape: per key, presence and JSON type; for the keys that carry an
// enum, the value; for the keys that carry an ID, the ID's form (`OD` + 14 digits). The elements
// of an array are merged into one shape (two gateways hold different data, so element counts,
// which optional keys each element has and which values a list shows are not comparable one to
// one), and compared only when both sides have elements.

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export interface Shape {
  types: Set<JsonType>;
  /** Object keys, merged over every object seen here. */
  keys: Map<string, Shape>;
  /** Array elements, merged; undefined while no array here had one. */
  items?: Shape;
  /** String values, kept only where the key is an enum (ENUM_KEYS). */
  values: Set<string>;
  /** ID forms (idForm), kept only where the key names an ID. */
  ids: Set<string>;
}

export type DifferenceKind = 'body' | 'status' | 'envelope' | 'code' | 'missing' | 'extra' | 'renamed' | 'type' | 'enum' | 'id';

export interface Difference {
  /** Where in the answer: `status`, `message`, `data.results[].amount`, `error.code`. */
  where: string;
  kind: DifferenceKind;
  /** What pgw's sandbox answered there, and the gateway: a type, a value, `present`, `missing`. */
  sandbox: string;
  gateway: string;
}

/** The answer of one side to one request, as compared. */
export interface Answer {
  status: number;
  /** The parsed body; undefined when it was not JSON. */
  json?: unknown;
  /** Content type when the body was not JSON (`text/html`), for the report. */
  contentType?: string;
}

/** Keys whose values are a documented vocabulary: compared by value. */
export const ENUM_KEYS = new Set([
  'status',
  'refund_status',
  'kyc_status',
  'settlement_status',
  'settlement_type',
  'collection_mode',
  'mop_type',
  'opted_mop_type',
  'currency',
  'settlement_currency',
  'transaction_currency',
  'type_of_goods',
  'payment_status',
  'verification_status',
]);

/**
 * Inside lists the two sides hold different data, so a value the sandbox's data did not happen to
 * show is not a difference when the docs name it (vendor 2.5, 3.1, 4.3, 6, 7.4; spec 2.7, 2.8):
 * a gateway value outside this and outside the sandbox's own values is.
 */
export const DOCUMENTED_VALUES: Record<string, readonly string[]> = {
  status: ['pending', 'captured', 'failed', 'cancelled', 'invalid', 'payment_pending', 'payment_successful', 'active', 'paid', 'expired', 'not_applicable', 'ready_for_settlement', 'settled'],
  refund_status: ['initiated', 'processing', 'refunded', 'failed', 'reversed', 'on_hold', 'bank_rejected_refund'],
  kyc_status: ['PENDING', 'IN_REVIEW', 'CHANGES_REQUESTED', 'APPROVED', 'REJECTED'],
  mop_type: ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr', 'wallet'],
  currency: ['INR', 'USD'],
  settlement_currency: ['INR', 'USD'],
  transaction_currency: ['INR'],
  settlement_type: ['capture', 'refund', 'chargeback'],
  collection_mode: ['hosted_payment', 's2s'],
  type_of_goods: ['digital_goods', 'physical_goods', 'service'],
};

/** References the caller chose (the same on both sides, or not comparable): not IDs of the gateway's. */
const NOT_ID_KEYS = new Set(['reference_id', 'merchant_reference_id', 'order_reference_id', 'refund_reference_id', 'request_id']);

export function isIdKey(key: string): boolean {
  return (key === 'id' || key === 'uid' || key.endsWith('_id')) && !NOT_ID_KEYS.has(key);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An ID's form, without its value: `OD+14 digits`, `10 digits`, `uuid`, `64 hex`; other text as
 * its runs of letters and digits (`sub-echo` → `a-a`), so two forms compare equal exactly when a
 * client's parsing of one would take the other.
 */
export function idForm(value: string): string {
  if (UUID.test(value)) return 'uuid';
  let m = /^([A-Z]{1,5})(\d+)$/.exec(value);
  if (m) return `${m[1]}+${m[2]!.length} digits`;
  if (/^\d+$/.test(value)) return `${value.length} digits`;
  if (/^[0-9a-f]{16,}$/.test(value)) return `${value.length} hex`;
  return `text ${value.replace(/[A-Z]+/g, 'A').replace(/[a-z]+/g, 'a').replace(/\d+/g, '9')}`;
}

export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'boolean' || t === 'number' || t === 'string' ? t : 'object';
}

function emptyShape(): Shape {
  return { types: new Set(), keys: new Map(), values: new Set(), ids: new Set() };
}

/** The shape of a JSON value, or `into` with it merged in. `key` is the name it sits under. */
export function shapeOf(value: unknown, key = '', into: Shape = emptyShape()): Shape {
  const type = jsonType(value);
  into.types.add(type);
  if (type === 'string') {
    if (ENUM_KEYS.has(key)) into.values.add(value as string);
    if (isIdKey(key)) into.ids.add(idForm(value as string));
  } else if (type === 'number' && isIdKey(key)) {
    into.ids.add(idForm(String(value)));
  } else if (type === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      let child = into.keys.get(k);
      if (!child) into.keys.set(k, (child = emptyShape()));
      shapeOf(v, k, child);
    }
  } else if (type === 'array') {
    for (const element of value as unknown[]) into.items = shapeOf(element, key, into.items);
  }
  return into;
}

const TYPE_ORDER: JsonType[] = ['object', 'array', 'string', 'number', 'boolean', 'null'];
const typesText = (types: Set<JsonType>): string => TYPE_ORDER.filter((t) => types.has(t)).join('|') || 'nothing';
const withoutNull = (types: Set<JsonType>): Set<JsonType> => new Set([...types].filter((t) => t !== 'null'));
const sameSet = <T>(a: Set<T>, b: Set<T>): boolean => a.size === b.size && [...a].every((x) => b.has(x));
const listText = (values: Iterable<string>, max = 3): string => {
  const all = [...values].sort();
  return all.length <= max ? all.join(', ') : `${all.slice(0, max).join(', ')}, +${all.length - max}`;
};

/** Key names read alike by a person: `reference_id`, `referenceId`, `ReferenceID`. */
const loose = (key: string): string => key.toLowerCase().replace(/[_\-\s]/g, '');

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * A key only the sandbox has and one only the gateway has at the same place are one difference
 * when their names are alike (case, underscores, a letter or two): a rename, reported once.
 */
function pairRenames(onlySandbox: string[], onlyGateway: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  const free = new Set(onlyGateway);
  for (const s of onlySandbox) {
    const match = [...free].find((g) => loose(g) === loose(s)) ?? [...free].find((g) => editDistance(loose(g), loose(s)) <= 2 && Math.min(g.length, s.length) > 3);
    if (match !== undefined) {
      pairs.push([s, match]);
      free.delete(match);
    }
  }
  return pairs;
}

const ENVELOPE_KEYS = new Set(['success', 'message', 'data', 'error']);

/** Differences between two shapes at `path`; `inList`: the shapes are merged list elements. */
function diffShapes(sandbox: Shape, gateway: Shape, path: string, key: string, inList: boolean, out: Difference[]): void {
  const sTypes = inList ? withoutNull(sandbox.types) : sandbox.types;
  const gTypes = inList ? withoutNull(gateway.types) : gateway.types;
  // In a list, a key null in every element of one side says nothing of its type.
  if (sTypes.size > 0 && gTypes.size > 0 && !sameSet(sTypes, gTypes)) {
    out.push({ where: path, kind: 'type', sandbox: typesText(sTypes), gateway: typesText(gTypes) });
  }
  if (sandbox.values.size > 0 && gateway.values.size > 0) {
    if (!inList) {
      if (!sameSet(sandbox.values, gateway.values)) out.push({ where: path, kind: 'enum', sandbox: listText(sandbox.values), gateway: listText(gateway.values) });
    } else {
      const known = new Set([...sandbox.values, ...(DOCUMENTED_VALUES[key] ?? [])]);
      const unknown = [...gateway.values].filter((v) => !known.has(v));
      if (unknown.length > 0) out.push({ where: path, kind: 'enum', sandbox: listText(sandbox.values), gateway: listText(unknown) });
    }
  }
  if (sandbox.ids.size > 0 && gateway.ids.size > 0) {
    const unlike = inList ? [...gateway.ids].filter((f) => !sandbox.ids.has(f)) : sameSet(sandbox.ids, gateway.ids) ? [] : [...gateway.ids];
    if (unlike.length > 0) out.push({ where: path, kind: 'id', sandbox: listText(sandbox.ids), gateway: listText(unlike) });
  }
  if (sandbox.types.has('object') && gateway.types.has('object')) diffKeys(sandbox, gateway, path, inList, out);
  if (sandbox.items && gateway.items) diffShapes(sandbox.items, gateway.items, `${path}[]`, key, true, out);
}

function diffKeys(sandbox: Shape, gateway: Shape, path: string, inList: boolean, out: Difference[]): void {
  const at = (k: string) => (path === '' ? k : `${path}.${k}`);
  const onlySandbox = [...sandbox.keys.keys()].filter((k) => !gateway.keys.has(k));
  const onlyGateway = [...gateway.keys.keys()].filter((k) => !sandbox.keys.has(k));
  const renames = pairRenames(onlySandbox, onlyGateway);
  const renamed = new Set(renames.flat());
  for (const [s, g] of renames) out.push({ where: at(s), kind: 'renamed', sandbox: s, gateway: g });
  const top = path === '';
  for (const k of onlySandbox) {
    if (renamed.has(k)) continue;
    const envelope = top && ENVELOPE_KEYS.has(k);
    out.push({ where: at(k), kind: envelope ? 'envelope' : 'missing', sandbox: envelope ? 'present' : typesText(sandbox.keys.get(k)!.types), gateway: 'missing' });
  }
  for (const k of onlyGateway) {
    if (renamed.has(k)) continue;
    const envelope = top && ENVELOPE_KEYS.has(k);
    out.push({ where: at(k), kind: envelope ? 'envelope' : 'extra', sandbox: 'missing', gateway: envelope ? 'present' : typesText(gateway.keys.get(k)!.types) });
  }
  for (const [k, s] of sandbox.keys) {
    const g = gateway.keys.get(k);
    if (g) diffShapes(s, g, at(k), k, inList, out);
  }
}

/** An error's code as text (vendor 9.2: one is an integer, 40350); undefined without one. */
function codeOf(body: Record<string, unknown>): string | undefined {
  const e = body.error;
  if (e === null || typeof e !== 'object') return undefined;
  const code = (e as Record<string, unknown>).code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : undefined;
}

/**
 * Every difference between the sandbox's answer and the gateway's to the same request, in the
 * order a person reads them: the body's kind, the status, the envelope, then each key.
 */
export function compareAnswers(sandbox: Answer, gateway: Answer): Difference[] {
  const out: Difference[] = [];
  const sJson = sandbox.json !== undefined;
  const gJson = gateway.json !== undefined;
  if (sandbox.status !== gateway.status) out.push({ where: 'status', kind: 'status', sandbox: String(sandbox.status), gateway: String(gateway.status) });
  if (!sJson || !gJson) {
    if (sJson !== gJson) out.push({ where: 'body', kind: 'body', sandbox: sJson ? 'JSON' : `not JSON${sandbox.contentType ? ` (${sandbox.contentType})` : ''}`, gateway: gJson ? 'JSON' : `not JSON${gateway.contentType ? ` (${gateway.contentType})` : ''}` });
    return out;
  }
  const s = sandbox.json as Record<string, unknown>;
  const g = gateway.json as Record<string, unknown>;
  if (jsonType(s) !== 'object' || jsonType(g) !== 'object') {
    if (jsonType(s) !== jsonType(g)) out.push({ where: 'body', kind: 'body', sandbox: jsonType(s), gateway: jsonType(g) });
    return out;
  }
  // A success on one side and a refusal on the other is one difference (and the refusal's code):
  // their bodies are different kinds of answer, and listing every key of each would bury it.
  if (typeof s.success === 'boolean' && typeof g.success === 'boolean' && s.success !== g.success) {
    out.push({ where: 'success', kind: 'envelope', sandbox: String(s.success), gateway: String(g.success) });
    if (codeOf(s) !== undefined || codeOf(g) !== undefined) out.push({ where: 'error.code', kind: 'code', sandbox: codeOf(s) ?? 'none', gateway: codeOf(g) ?? 'none' });
    return out;
  }
  // spec 7: the code is what a client branches on, compared by value; then everything by shape
  // (a code whose value differs is not reported again for its type: 40350 against ERR_…).
  const sCode = codeOf(s);
  const gCode = codeOf(g);
  const codeDiffers = sCode !== undefined && gCode !== undefined && sCode !== gCode;
  if (codeDiffers) out.push({ where: 'error.code', kind: 'code', sandbox: sCode, gateway: gCode });
  const shaped: Difference[] = [];
  diffShapes(shapeOf(s), shapeOf(g), '', '', false, shaped);
  out.push(...shaped.filter((d) => !(codeDiffers && d.where === 'error.code')));
  return out;
}
