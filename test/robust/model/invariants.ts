// The invariants of docs/sandbox.md ("Invariants", issue 31), checked against the sandbox's real
// state after every step of the model test: read from its SQLite file on a read-only connection of
// the test's own (the oracle never goes through the API it checks, so no fault of the caller's
// fires on it), and from the API where the API's own answer is what is promised (an event's status).
import { breakdown, fmt } from '../stress-model.js';
import { COUNTING, paise } from './model.js';
import { ACCOUNTS, CALENDAR_END_MICROS, TREES, api, scopeOf, treeAccounts, treeOf, type Account, type Tree, type World } from './ops.js';
import { wallMicros } from '../../../src/monotonic.js';
import { signBody, signV2 } from '../../../src/webhook-signature.js';

// ---- per-account digests (I2, I3) ----------------------------------------------------------------

/** An account's rows: table → its rows, each as canonical JSON, sorted. */
export type Rows = Record<string, string[]>;

export interface Digest {
  rows: Record<string, Rows>;
  /** Each tree's clock offset from the machine (µs). */
  clocks: Record<Tree, number>;
}

/** Columns that say nothing of the data: row IDs of deliveries and attempts (internal) and the lease of an attempt on the wire. */
const INTERNAL: Record<string, ReadonlySet<string>> = {
  deliveries: new Set(['id', 'lease_until']),
  attempts: new Set(['id', 'delivery_id']),
};
/** Tables that are not an account's rows: bookkeeping, and the clock (compared as `clocks`). */
const NOT_ROWS = new Set(['ids', 'sandbox_clock', 'deliveries', 'attempts', 'pgw_snapshot']);

/** Every column of deliveries, its microsecond times read as REAL (near 9999 they pass 2^53: node:sqlite refuses the INTEGER). */
function deliveriesSql(w: World): string {
  const cols = w.tables().find((t) => t.name === 'deliveries')!.columns.map((c) => (MICROS_COLUMN.has(c) ? `CAST(d."${c}" AS REAL) AS "${c}"` : `d."${c}"`));
  return `SELECT ${cols.join(', ')}, e.merchant_id AS event_merchant FROM deliveries d LEFT JOIN events e ON e.id = d.event_id`;
}

const canon = (row: Record<string, unknown>, drop?: ReadonlySet<string>): Record<string, unknown> =>
  Object.fromEntries(
    Object.keys(row)
      .filter((k) => !drop?.has(k))
      .sort()
      .map((k) => [k, typeof row[k] === 'bigint' ? Number(row[k]) : row[k]]),
  );

const tablesOf = (w: World) => w.tables();

/**
 * Every account's rows, read in one transaction: each table with a merchant_id (a later migration's
 * too), the account's own row, and each event's deliveries with their attempts as one list (the
 * deliveries' and attempts' row IDs are internal and left out: an event must keep the same list).
 */
export function takeDigest(w: World): Digest {
  w.db.exec('BEGIN');
  try {
    const rows: Record<string, Rows> = {};
    const add = (merchantId: string, table: string, row: unknown) => {
      const acc = w.accountOf(merchantId) ?? `?${merchantId}`;
      ((rows[acc] ??= {})[table] ??= []).push(JSON.stringify(row));
    };
    for (const t of tablesOf(w)) {
      if (NOT_ROWS.has(t.name) || !t.columns.includes('merchant_id')) continue;
      for (const row of w.q(`SELECT * FROM "${t.name}"`).all() as Record<string, unknown>[]) {
        // A running `pgw listen`'s registration belongs to its process, not to the data: a reset
        // keeps it and a restore never brings one back (issue 45 starts and stops them).
        if (t.name === 'webhooks' && Number(row.listener) === 1) continue;
        add(String(row.merchant_id), t.name, canon(row));
      }
    }
    const attempts = new Map<number, unknown[]>();
    for (const a of w.q('SELECT * FROM attempts ORDER BY n, at, id').all() as Record<string, unknown>[]) {
      const k = Number(a.delivery_id);
      (attempts.get(k) ?? attempts.set(k, []).get(k)!).push(canon(a, INTERNAL.attempts));
    }
    for (const d of w.q(deliveriesSql(w)).all() as Record<string, unknown>[]) {
      const owner = d.event_merchant === null ? '?orphan' : String(d.event_merchant);
      const { event_merchant: _, ...row } = d;
      add(owner, 'deliveries', { ...canon(row, INTERNAL.deliveries), tries: attempts.get(Number(d.id)) ?? [] });
      attempts.delete(Number(d.id));
    }
    for (const [k, list] of attempts) for (const a of list) add('?orphan', 'attempts', { delivery_id: k, ...(a as object) });
    for (const acc of Object.keys(rows)) for (const t of Object.keys(rows[acc]!)) rows[acc]![t]!.sort();
    return { rows, clocks: w.treeOffsets() };
  } finally {
    w.db.exec('COMMIT');
  }
}

/** What an operation may change: its actor's scope (for a clock move, the actor's tree), and the faults of the credentials it sent. */
export interface Allowed {
  what: string;
  accounts: ReadonlySet<string>;
  faultsOf: Account | null;
  clockTrees: ReadonlySet<Tree>;
}

const rowsOf = (d: Digest, acc: string): Rows => d.rows[acc] ?? {};

/** The first row `a` has that `b` lacks, shortened. */
function firstMissing(a: string[] = [], b: string[] = []): string | undefined {
  const set = new Set(b);
  const row = a.find((x) => !set.has(x));
  return row === undefined ? undefined : row.length > 600 ? `${row.slice(0, 600)}…` : row;
}

/** How two sets of rows of one table differ, in a line. */
export function describeDiff(table: string, before: string[] = [], after: string[] = []): string {
  const gone = firstMissing(before, after);
  const added = firstMissing(after, before);
  return `${table}: ${before.length} → ${after.length} rows${gone ? `; lost or changed ${gone}` : ''}${added ? `; now has ${added}` : ''}`;
}

function tableDiffs(a: Rows, b: Rows): string[] {
  const out: string[] = [];
  for (const t of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[t] ?? [];
    const y = b[t] ?? [];
    if (x.length !== y.length || x.some((row, i) => row !== y[i])) out.push(describeDiff(t, x, y));
  }
  return out;
}

/** I2: nothing outside what the operation may change has changed (rows, and other trees' clocks). */
export function checkIsolation(before: Digest, after: Digest, allowed: Allowed, skip: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const acc of new Set([...Object.keys(before.rows), ...Object.keys(after.rows)])) {
    const a = rowsOf(before, acc);
    const b = rowsOf(after, acc);
    for (const t of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = a[t] ?? [];
      const y = b[t] ?? [];
      if (x.length === y.length && x.every((row, i) => row === y[i])) continue;
      if (allowed.accounts.has(acc) || (t === 'faults' && acc === allowed.faultsOf)) continue;
      out.push(`I2: ${allowed.what} changed ${acc}'s rows, outside its scope: ${describeDiff(t, x, y)}`);
    }
  }
  if (!skip.has('clock-offsets')) {
    for (const t of TREES) {
      if (before.clocks[t] !== after.clocks[t] && !allowed.clockTrees.has(t)) {
        out.push(`I2: ${allowed.what} moved the clock of ${t}'s tree (${treeAccounts(t).join(', ')}) by ${(after.clocks[t] - before.clocks[t]) / 1e6} s`);
      }
    }
  }
  return out;
}

/**
 * I3: after restoring a snapshot, the accounts it holds have exactly the rows they had when it was
 * saved, and every other account has the rows it had just before the restore.
 */
export function checkRestore(what: string, held: readonly Account[], saved: Partial<Record<Account, Rows>>, before: Digest, after: Digest): string[] {
  const out: string[] = [];
  for (const acc of ACCOUNTS) {
    const expected = held.includes(acc) ? (saved[acc] ?? {}) : rowsOf(before, acc);
    for (const d of tableDiffs(expected, rowsOf(after, acc))) {
      out.push(
        held.includes(acc)
          ? `I3: after ${what}, ${acc} (held by the snapshot) differs from when it was saved: ${d}`
          : `I3: ${what} changed ${acc}, which the snapshot does not hold: ${d}`,
      );
    }
  }
  for (const acc of Object.keys(after.rows).filter((a) => a.startsWith('?'))) {
    out.push(`I3: after ${what}, rows belong to no account: ${tableDiffs({}, rowsOf(after, acc)).join('; ')}`);
  }
  return out;
}

// ---- I1: money ----------------------------------------------------------------------------------

interface PayRow {
  payment_id: string;
  merchant_id: string;
  amount: string;
  status: string;
  settlement_id: string | null;
  fee: string | null;
  gst: string | null;
  net: string | null;
}
interface DebitRow {
  id: string;
  payment_id: string;
  amount: string;
  status: string;
  settlement_id: string | null;
}

const normal = (s: string) => (s === 'completed' || s === 'processed' ? 'refunded' : s.toLowerCase());

export function checkMoney(w: World): string[] {
  const out: string[] = [];
  const name = (merchantId: string) => w.accountOf(merchantId) ?? merchantId;
  const payments = w.q('SELECT payment_id, merchant_id, amount, status, settlement_id, fee, gst, net FROM payments').all() as PayRow[];
  const refunds = w.q('SELECT refund_id AS id, payment_id, amount, status, settlement_id FROM refunds').all() as DebitRow[];
  const chargebacks = w.q('SELECT chargeback_id AS id, payment_id, amount, status, settlement_id FROM chargebacks').all() as DebitRow[];
  const byPayment = new Map<string, { r: DebitRow[]; c: DebitRow[] }>();
  for (const r of refunds) (byPayment.get(r.payment_id) ?? byPayment.set(r.payment_id, { r: [], c: [] }).get(r.payment_id)!).r.push(r);
  for (const c of chargebacks) (byPayment.get(c.payment_id) ?? byPayment.set(c.payment_id, { r: [], c: [] }).get(c.payment_id)!).c.push(c);
  for (const p of payments) {
    const d = byPayment.get(p.payment_id);
    if (!d) continue;
    const refunded = d.r.filter((r) => COUNTING.has(normal(r.status))).reduce((s, r) => s + paise(r.amount), 0);
    const charged = d.c.reduce((s, c) => s + paise(c.amount), 0);
    const captured = p.status === 'captured' ? paise(p.amount) : 0;
    if (refunded + charged > captured) {
      out.push(
        `I1: payment ${p.payment_id} (${name(p.merchant_id)}, ${p.status} ${p.amount}): refunds in counting statuses ${fmt(refunded)} + chargebacks ${fmt(charged)} exceed the captured ${fmt(captured)} [${[
          ...d.r.map((r) => `${r.id} ${normal(r.status)} ${r.amount}`),
          ...d.c.map((c) => `${c.id} chargeback ${c.amount}`),
        ].join(', ')}]`,
      );
    }
  }
  // A settlement's figures are spec 4.6's rule over the rows it carries, and never negative.
  const settlements = w.q('SELECT id, merchant_id, settlement_amount, settlement_charges, settlement_gst FROM settlements').all() as {
    id: string;
    merchant_id: string;
    settlement_amount: string;
    settlement_charges: string;
    settlement_gst: string;
  }[];
  for (const s of settlements) {
    const ps = payments.filter((p) => p.settlement_id === s.id);
    const parts = ps.map((p) => ({ p, b: breakdown(paise(p.amount)) }));
    const rs = refunds.filter((r) => r.settlement_id === s.id);
    const cs = chargebacks.filter((c) => c.settlement_id === s.id);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const amount = sum(parts.map((x) => x.b.net)) - sum(rs.map((r) => paise(r.amount))) - sum(cs.map((c) => paise(c.amount)));
    const got = paise(s.settlement_amount);
    if (got !== amount) out.push(`I1: settlement ${s.id} (${name(s.merchant_id)}) reads ${s.settlement_amount}; its rows give ${fmt(amount)}`);
    if (got < 0) {
      out.push(
        `I1: settlement ${s.id} (${name(s.merchant_id)}) is negative: ${s.settlement_amount} [${[...ps.map((p) => `${p.payment_id} ${p.amount}`), ...rs.map((r) => `${r.id} refund ${r.amount}`), ...cs.map((c) => `${c.id} chargeback ${c.amount}`)].join(', ')}]`,
      );
    }
    if (paise(s.settlement_charges) !== sum(parts.map((x) => x.b.fee)) || paise(s.settlement_gst) !== sum(parts.map((x) => x.b.gst))) {
      out.push(`I1: settlement ${s.id} charges ${s.settlement_charges} / GST ${s.settlement_gst}; its payments give ${fmt(sum(parts.map((x) => x.b.fee)))} / ${fmt(sum(parts.map((x) => x.b.gst)))}`);
    }
    for (const { p, b } of parts) {
      if (paise(p.fee) !== b.fee || paise(p.gst) !== b.gst || paise(p.net) !== b.net) out.push(`I1: payment ${p.payment_id} in ${s.id}: fee/gst/net ${p.fee}/${p.gst}/${p.net}, the rule gives ${fmt(b.fee)}/${fmt(b.gst)}/${fmt(b.net)}`);
    }
  }
  // Every event's amounts are the object's.
  const pById = new Map(payments.map((p) => [p.payment_id, p]));
  const rById = new Map(refunds.map((r) => [r.id, r]));
  const sById = new Map(settlements.map((s) => [s.id, s]));
  const links = new Map(
    (w.q('SELECT l.link_id AS id, o.amount FROM links l JOIN orders o ON o.order_id = l.order_id').all() as { id: string; amount: string }[]).map((l) => [l.id, l.amount]),
  );
  for (const e of w.q('SELECT id, event_type, body FROM events').all() as { id: string; event_type: string; body: string }[]) {
    const data = (JSON.parse(e.body) as { data: any }).data;
    if (e.event_type === 'PAYMENT_REFUNDED' || e.event_type === 'REFUND_FAILED' || e.event_type === 'REFUND_STATUS_UPDATE') {
      for (const x of data.refunds ?? []) {
        const r = rById.get(x.refund_id);
        if (!r) continue;
        if (paise(x.refund_amount) !== paise(r.amount) || (x.amount !== undefined && paise(x.amount) !== paise(r.amount)) || x.payment_id !== r.payment_id) {
          out.push(`I1: ${e.event_type} ${e.id} says refund ${x.refund_id} of ${x.refund_amount} on ${x.payment_id}; the refund is ${r.amount} on ${r.payment_id}`);
        }
      }
    } else if (e.event_type === 'PAYMENT_SETTLED') {
      for (const x of data.settlements ?? []) {
        const s = sById.get(x.settlement_id);
        if (s && paise(x.settlement_amount) !== paise(s.settlement_amount)) out.push(`I1: PAYMENT_SETTLED ${e.id} says ${x.settlement_amount} for ${s.id}, which reads ${s.settlement_amount}`);
      }
    } else if (e.event_type === 'PAYMENT_SUCCESSFUL' || e.event_type === 'PAYMENT_FAILED') {
      const p = pById.get(data.payment_id);
      const amount = p?.amount ?? links.get(data.payment_id);
      if (amount !== undefined && paise(data.amount) !== paise(amount)) out.push(`I1: ${e.event_type} ${e.id} says ${data.amount} for ${data.payment_id}, which is ${amount}`);
    }
  }
  return out;
}

// ---- I4: deliveries -----------------------------------------------------------------------------

interface DeliveryRow {
  id: number;
  event_id: string;
  url: string;
  max_attempts: number;
  state: string;
  attempts: number;
  next_attempt_at: number | null;
}
interface AttemptRow {
  delivery_id: number;
  n: number;
  status: number | null;
}

function deliveriesByEvent(w: World): { events: { id: string; merchant_id: string; event_type: string }[]; ds: Map<string, (DeliveryRow & { tries: AttemptRow[] })[]> } {
  const events = w.q('SELECT id, merchant_id, event_type FROM events').all() as { id: string; merchant_id: string; event_type: string }[];
  const tries = new Map<number, AttemptRow[]>();
  for (const a of w.q('SELECT delivery_id, n, status FROM attempts ORDER BY n').all() as AttemptRow[]) {
    const k = Number(a.delivery_id);
    (tries.get(k) ?? tries.set(k, []).get(k)!).push(a);
  }
  const ds = new Map<string, (DeliveryRow & { tries: AttemptRow[] })[]>();
  for (const d of w.q('SELECT id, event_id, url, max_attempts, state, attempts, CAST(next_attempt_at AS REAL) AS next_attempt_at FROM deliveries ORDER BY id').all() as DeliveryRow[]) {
    (ds.get(d.event_id) ?? ds.set(d.event_id, []).get(d.event_id)!).push({ ...d, tries: tries.get(Number(d.id)) ?? [] });
  }
  return { events, ds };
}

/** I4's status of an event from its deliveries: pending while one is due, delivered once every address got a 200, failed otherwise. */
export function statusFromAttempts(ds: readonly (DeliveryRow & { tries: AttemptRow[] })[]): string {
  if (ds.length === 0) return 'no_address';
  if (ds.some((d) => d.next_attempt_at !== null)) return 'pending';
  const urls = [...new Set(ds.map((d) => d.url))];
  const ok = (u: string) => ds.some((d) => d.url === u && d.tries.some((t) => t.status === 200));
  return urls.every(ok) ? 'delivered' : 'failed';
}

/**
 * I4 after every step: each delivery's attempts are numbered 1..n, never more than its maximum,
 * none after a 200, and one is due unless it got a 200 or spent them; each event's status, as the
 * API answers it to its tree's account, is the function of its attempts; the API lists an event to
 * the accounts that may see it only (I2's "reveals").
 */
export async function checkDeliveries(w: World): Promise<string[]> {
  const out: string[] = [];
  const { events, ds } = deliveriesByEvent(w);
  for (const [eventId, list] of ds) {
    for (const d of list) {
      const ns = d.tries.map((t) => t.n);
      if (ns.some((n, i) => n !== i + 1) || ns.length !== Number(d.attempts)) out.push(`I4: event ${eventId}'s delivery to ${d.url} has attempts numbered ${ns.join(',')} (counted ${d.attempts})`);
      if (ns.length > d.max_attempts) out.push(`I4: event ${eventId}'s delivery to ${d.url} made ${ns.length} attempts, more than ${d.max_attempts}`);
      const ok = d.tries.findIndex((t) => t.status === 200);
      if (ok >= 0 && ok < d.tries.length - 1) out.push(`I4: event ${eventId}'s delivery to ${d.url} was tried again after a 200`);
      if (ok >= 0 && d.next_attempt_at !== null) out.push(`I4: event ${eventId}'s delivery to ${d.url} got a 200 and still has an attempt due`);
      // Retries stop at a 200, or when another attempt to the same address (a resend) got one.
      const answered = list.some((x) => x.url === d.url && x.tries.some((t) => t.status === 200));
      if (!answered && d.next_attempt_at === null && d.tries.length < d.max_attempts) {
        out.push(`I4: event ${eventId}'s delivery to ${d.url} stopped after ${d.tries.length} of ${d.max_attempts} attempts without a 200`);
      }
    }
  }
  out.push(...checkSignatures(w));
  const seen = new Map<string, string>();
  const trees = new Set(events.map((e) => treeOf(w.accountOf(e.merchant_id) ?? 'M1')));
  for (const t of TREES) {
    if (!trees.has(t)) continue;
    const res = await w.send(t, api.listEvents());
    if (res.status !== 200) {
      out.push(`I4: GET /sandbox/events/ as ${t} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      continue;
    }
    for (const e of res.body.data as { id: string; merchant_id: string; status: string }[]) {
      const acc = w.accountOf(e.merchant_id);
      if (!acc || !scopeOf(t).includes(acc)) out.push(`I2: GET /sandbox/events/ as ${t} lists ${e.id} of ${acc ?? e.merchant_id}`);
      seen.set(e.id, e.status);
    }
  }
  for (const e of events) {
    const expected = statusFromAttempts(ds.get(e.id) ?? []);
    const got = seen.get(e.id);
    if (got === undefined) out.push(`I4: event ${e.id} (${e.event_type} of ${w.accountOf(e.merchant_id) ?? e.merchant_id}) is not listed to its account`);
    else if (got !== expected) {
      const list = (ds.get(e.id) ?? []).map((d) => `${d.url.replace(/^.*\/r\/[^/]+\//, '')} [${d.tries.map((t) => t.status ?? 'x').join(',')}]${d.next_attempt_at !== null ? ' next due' : ''} (max ${d.max_attempts})`);
      out.push(`I4: event ${e.id} (${e.event_type} of ${w.accountOf(e.merchant_id) ?? e.merchant_id}) reads ${got}; its attempts say ${expected}: ${list.join('; ') || 'no deliveries'}`);
    }
  }
  return out;
}

/**
 * I4: the X-Webhook-Signature and -V2 an attempt keeps (issue 33 item 9) are those of its event's
 * body under its signer's Encryption Key, V2 over its own `t`: what `pgw events get` shows can be
 * checked with `pgw webhook verify`, and a restore or a migration never pairs them with another body.
 */
function checkSignatures(w: World): string[] {
  const out: string[] = [];
  const rows = w
    .q(
      `SELECT a.n, a.signature, a.signature_v2, d.url, e.id AS event_id, e.body, m.encryption_key AS k
         FROM attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id
         LEFT JOIN merchants m ON m.merchant_id = d.signer_id WHERE a.signature IS NOT NULL OR a.signature_v2 IS NOT NULL`,
    )
    .all() as { n: number; signature: string | null; signature_v2: string | null; url: string; event_id: string; body: string; k: string | null }[];
  for (const r of rows) {
    const where = `event ${r.event_id}'s attempt ${r.n} to ${r.url}`;
    if (r.k === null) {
      out.push(`I4: ${where} keeps a signature, but its signer has no Encryption Key`);
      continue;
    }
    if (r.signature !== signBody(r.k, r.body)) out.push(`I4: ${where} keeps X-Webhook-Signature ${r.signature}, not the HMAC of its body`);
    const t = /^t=(\d+),v2=/.exec(r.signature_v2 ?? '')?.[1];
    if (t === undefined || r.signature_v2 !== signV2(r.k, t, r.body)) out.push(`I4: ${where} keeps X-Webhook-Signature-V2 ${r.signature_v2}, not the HMAC of its t and body`);
  }
  return out;
}

/** I4 once every clock has run far enough: every delivery to an address got a 200 or spent its attempts. */
export function checkDeliveriesDone(w: World, trees: readonly Tree[]): string[] {
  const out: string[] = [];
  const { events, ds } = deliveriesByEvent(w);
  for (const e of events) {
    const acc = w.accountOf(e.merchant_id);
    if (!acc || !trees.includes(treeOf(acc))) continue;
    const list = ds.get(e.id) ?? [];
    for (const d of list) {
      const answered = list.some((x) => x.url === d.url && x.tries.some((t) => t.status === 200));
      if (d.next_attempt_at !== null || (!answered && d.tries.length < d.max_attempts)) {
        out.push(`I4: with its clock past every retry, event ${e.id} (${e.event_type} of ${acc}) has made ${d.tries.length} of ${d.max_attempts} attempts to ${d.url} without a 200${d.next_attempt_at !== null ? ', one still due' : ''}`);
      }
    }
  }
  return out;
}

// ---- I5: the calendar ---------------------------------------------------------------------------

const STAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?(?:Z|[+-]\d{2}:\d{2})?$/;

export function isCalendarStamp(v: string): boolean {
  const m = STAMP.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1970 || y > 9999) return false;
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && Number(m[4] ?? 0) < 24 && Number(m[5] ?? 0) < 60 && Number(m[6] ?? 0) < 60;
}

const TIME_COLUMN = /(^at$|_at$|_date$|_date_set$)/;
const MICROS_COLUMN = new Set(['first_at', 'next_attempt_at', 'lease_until']);
const TIME_KEY = /(_at|_time|_date)$/;

/** I5: every timestamp the sandbox wrote (columns, event bodies, each tree's clock) is a real date in 1970–9999. */
export function checkCalendar(w: World): string[] {
  const out: string[] = [];
  for (const t of tablesOf(w)) {
    if (t.name === 'ids') continue;
    for (const c of t.columns.filter((c) => TIME_COLUMN.test(c))) {
      const v = MICROS_COLUMN.has(c) && t.name === 'deliveries' ? `CAST("${c}" AS REAL)` : `"${c}"`;
      const rows = w.q(`SELECT ${v} AS v FROM "${t.name}" WHERE "${c}" IS NOT NULL`).all() as { v: unknown }[];
      for (const { v } of rows) {
        if (MICROS_COLUMN.has(c) && t.name === 'deliveries') {
          if (!(Number(v) >= 0 && Number(v) <= CALENDAR_END_MICROS)) out.push(`I5: ${t.name}.${c} holds ${v} µs, past the calendar`);
        } else if (typeof v === 'string' && !isCalendarStamp(v)) out.push(`I5: ${t.name}.${c} holds "${v}"`);
      }
    }
  }
  const walk = (id: string, x: unknown, key = ''): void => {
    if (Array.isArray(x)) x.forEach((y) => walk(id, y, key));
    else if (x !== null && typeof x === 'object') for (const [k, v] of Object.entries(x)) walk(id, v, k);
    else if (typeof x === 'string' && TIME_KEY.test(key) && !isCalendarStamp(x)) out.push(`I5: event ${id} body has ${key} "${x}"`);
  };
  for (const e of w.q('SELECT id, body FROM events').all() as { id: string; body: string }[]) walk(e.id, JSON.parse(e.body));
  const offsets = w.treeOffsets();
  const machine = wallMicros();
  for (const t of TREES) {
    const now = machine + offsets[t];
    if (!(now >= 0 && now <= CALENDAR_END_MICROS)) out.push(`I5: ${t}'s clock reads ${new Date(Math.floor(now / 1000)).toISOString()}, outside 1970–9999`);
  }
  return out;
}
