// The durable webhook outbox (issue 19, vendor 1.1): an event is written in the same transaction
// as the change it announces, with the exact bytes that will be sent and one delivery per address
// registered at that moment. Deliveries are made by whichever process holds the database
// (webhooks.ts); each attempt is a row, and the next one is due on the sandbox clock, so a
// restarted `sandbox serve`, or the next pgw run to open the file, carries on where it stopped.
import { canonicalJson } from '../../webhook-signature.js';
import { EVENT_FORMS, eventAbout as aboutOf, formatEventTime, type EventEnvelope, type EventType } from '../../events.js';
import { stamp } from '../db.js';
import { SandboxError, eventNotFound } from '../errors.js';
import { newEventId, newUuid } from '../ids.js';
import type { Core, SandboxEvent, Scope } from './core.js';
import { CLOCK_MAX_MICROS, MICROS, clockOffsets, clockRoot } from './clock.js';
import { forwardDecisions, onePerAddress, type Forward, type Target } from './forwarding.js';

/**
 * vendor 1.1: the first try at once, then 1, 5, 15 and 60 minutes later; five in all. Measured
 * from the first try (the docs do not say from which; this way `clock advance 1h` walks a failing
 * handler through all five, and the first retry never comes before 60 s).
 */
export const RETRY_SCHEDULE_SECONDS = [0, 60, 300, 900, 3600] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length;

/** The body as the gateway sends it (vendor 1.4): one place builds it, for every event. */
export function buildEnvelope(event: SandboxEvent, sequenceNumber: string): EventEnvelope {
  const form = EVENT_FORMS[event.type];
  return {
    event_type: event.type,
    event_time: formatEventTime(event.created_at, form.time),
    version: form.version,
    sequence_number: sequenceNumber,
    data: event.data,
  };
}

/** The account whose Encryption Key signs events about `merchantId`: itself, or a sub-merchant's PSP. */
function signerOf(core: Core, merchantId: string): string {
  const row = core.db.get<{ client_id: string | null; parent_id: string | null }>('SELECT client_id, parent_id FROM merchants WHERE merchant_id = ?', merchantId);
  return row && row.client_id === null && row.parent_id !== null ? row.parent_id : merchantId;
}

export function encryptionKeyFor(core: Core, merchantId: string): string | null {
  return core.db.get<{ k: string | null }>('SELECT encryption_key AS k FROM merchants WHERE merchant_id = ?', signerOf(core, merchantId))?.k ?? null;
}

/**
 * Where events about a merchant go now (vendor 1.1: a sub-merchant's go to its PSP's addresses
 * too): each address once, however often and however spelled it is registered (localhost and
 * 127.0.0.1 are one app, local-address.ts), at the spelling registered first (issue 45).
 */
function targetsOf(core: Core, merchantId: string): Target[] {
  const rows = core.db.all<Omit<Target, 'listener'> & { listener: number }>(
    `SELECT id, url, listener, forward_to, events, rowid AS seq FROM webhooks WHERE merchant_id = ?
       OR merchant_id = (SELECT parent_id FROM merchants WHERE merchant_id = ?) ORDER BY rowid`,
    merchantId,
    merchantId,
  );
  return onePerAddress(rows).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/** Write the event and its deliveries; must run inside the change's write transaction. */
export function recordEvent(core: Core, event: SandboxEvent): string {
  const { db } = core;
  return db.write(() => {
    const id = newEventId(db);
    const sequence = newUuid();
    const body = canonicalJson(buildEnvelope(event, sequence));
    db.run('INSERT INTO events (id, sequence_number, event_type, merchant_id, created_at, body) VALUES (?, ?, ?, ?, ?, ?)', id, sequence, event.type, event.merchant_id, event.created_at, body);
    // Due times on the clock of the event's account tree (I2: each tree has its own).
    const now = core.micros(event.merchant_id);
    const clock = clockRoot(db, event.merchant_id);
    const signer = signerOf(core, event.merchant_id);
    const targets = targetsOf(core, event.merchant_id);
    // Issue 45: which listener forwards the event, decided once, from these very registrations.
    const forwards = forwardDecisions(targets, event.type);
    for (const t of targets) {
      // A `pgw listen` receiver acknowledges at once and is gone when it fails: one try (webhooks.ts).
      insertDelivery(core, id, t.url, t.listener, signer, t.listener ? 1 : MAX_ATTEMPTS, now, clock, forwards.get(t.url));
    }
    return id;
  });
}

function insertDelivery(core: Core, eventId: string, url: string, listener: boolean, signer: string, maxAttempts: number, at: number, clock: string, forward?: Forward): number {
  core.db.run(
    `INSERT INTO deliveries (event_id, url, listener, signer_id, max_attempts, first_at, state, next_attempt_at, clock_id, forward)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    eventId,
    url,
    listener ? 1 : 0,
    signer,
    maxAttempts,
    at,
    at,
    clock,
    forward ?? null,
  );
  return core.db.get<{ id: number }>('SELECT last_insert_rowid() AS id')!.id;
}

/** An attempt this process is to make now. */
export interface DueDelivery {
  id: number;
  event_id: string;
  event_type: EventType;
  url: string;
  listener: boolean;
  /** The attempt's number, 1-based. */
  n: number;
  body: string;
  /** The signer's Encryption Key (null: an account without one; sent unsigned). */
  key: string | null;
  /** The offset of the clock the delivery is on (its event's account tree): X-Webhook-Timestamp reads it. */
  offsetMicros: number;
  /** To a listener that forwards: whether it forwards this event (forwarding.ts); null otherwise. */
  forward: string | null;
}

/**
 * Take up to `limit` deliveries due on the sandbox clock, leased to this process for `leaseMs` of
 * the machine's time (a process killed mid-attempt lets another take it over after that).
 */
export function claimDue(core: Core, leaseMicros: number, limit = 50): DueDelivery[] {
  const { db } = core;
  return db.write(() => {
    // Due times and leases are on the clock of each delivery's account tree (clock_id; a tree
    // without its own clock reads the default); a clock move shifts its leases (clock.ts), so an
    // attempt in flight stays leased for as long as it was given.
    const { fallback, own } = clockOffsets(db);
    const machine = core.micros(null) - fallback;
    const rows = db.all<{ id: number; event_id: string; event_type: EventType; url: string; listener: number; attempts: number; body: string; key: string | null; clock_id: string | null; forward: string | null }>(
      `SELECT d.id, d.event_id, e.event_type, d.url, d.listener, d.attempts, e.body, m.encryption_key AS key, d.clock_id, d.forward
         FROM deliveries d JOIN events e ON e.id = d.event_id LEFT JOIN merchants m ON m.merchant_id = d.signer_id
         LEFT JOIN account_clocks c ON c.account_id = d.clock_id
        WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ? + coalesce(c.offset_micros, ?)
          AND (d.lease_until IS NULL OR d.lease_until < ? + coalesce(c.offset_micros, ?))
        ORDER BY d.next_attempt_at - coalesce(c.offset_micros, ?), d.id LIMIT ?`,
      machine,
      fallback,
      machine,
      fallback,
      fallback,
      limit,
    );
    const offsetOf = (clock: string | null) => (clock === null ? undefined : own.get(clock)) ?? fallback;
    for (const r of rows) db.run('UPDATE deliveries SET lease_until = ? WHERE id = ?', machine + offsetOf(r.clock_id) + leaseMicros, r.id);
    return rows.map((r) => ({
      id: r.id,
      event_id: r.event_id,
      event_type: r.event_type,
      url: r.url,
      listener: r.listener === 1,
      n: r.attempts + 1,
      body: r.body,
      key: r.key,
      offsetMicros: offsetOf(r.clock_id),
      forward: r.forward,
    }));
  });
}

export interface AttemptResult {
  /** The HTTP status answered, when there was an answer. */
  status?: number;
  /** Why there was no (acceptable) answer: timeout, connection refused, refused by this sandbox. */
  error?: string;
  ms: number;
  /** A `pgw listen` receiver found gone: its registration is dropped. */
  gone?: boolean;
  /** The X-Webhook-Signature and -V2 values the request carried (absent: none was sent). */
  signature?: string;
  signatureV2?: string;
}

/** vendor 1.1: only HTTP 200 succeeds (the guide; some pages say any 2xx: docs/sandbox.md). */
export const succeeded = (r: AttemptResult): boolean => r.status === 200;

/** Record an attempt and schedule the next one (or none). */
export function recordAttempt(core: Core, deliveryId: number, result: AttemptResult): void {
  const { db } = core;
  db.write(() => {
    const d = db.get<{ url: string; listener: number; attempts: number; max_attempts: number; first_at: number; clock_id: string | null }>(
      `SELECT url, listener, attempts, max_attempts, ${MICROS('first_at')}, clock_id FROM deliveries WHERE id = ?`,
      deliveryId,
    );
    if (!d) return; // reset while the attempt was on the wire
    const n = d.attempts + 1;
    // The delivery's own clock (its event's account tree; clock_id is that tree's root account).
    const now = core.micros(d.clock_id);
    db.run(
      'INSERT INTO attempts (delivery_id, n, at, status, error, ms, signature, signature_v2) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      deliveryId,
      n,
      stamp(now),
      result.status ?? null,
      result.error ?? null,
      Math.round(result.ms),
      result.signature ?? null,
      result.signatureV2 ?? null,
    );
    let state = 'pending';
    let next: number | null = null;
    if (succeeded(result)) state = 'delivered';
    else if (d.listener === 1 && result.gone) state = 'dropped';
    else if (n >= d.max_attempts) state = 'failed';
    // I5: a retry that would fall past the end of the calendar is due at its last moment, which a
    // clock can still be set to (I4: every attempt stays reachable).
    else next = Math.min(Math.max(d.first_at + RETRY_SCHEDULE_SECONDS[n]! * 1_000_000, now), CLOCK_MAX_MICROS);
    const last = result.status !== undefined ? String(result.status) : (result.error ?? null);
    db.run('UPDATE deliveries SET attempts = ?, last_status = ?, state = ?, next_attempt_at = ?, lease_until = NULL WHERE id = ?', n, last, state, next, deliveryId);
    // I4: an address that answered 200 has the event: its other retries of it are not made.
    if (state === 'delivered') {
      db.run(
        "UPDATE deliveries SET state = 'superseded', next_attempt_at = NULL WHERE event_id = (SELECT event_id FROM deliveries WHERE id = ?) AND url = ? AND id <> ? AND next_attempt_at IS NOT NULL",
        deliveryId,
        d.url,
        deliveryId,
      );
    }
    if (state === 'dropped') db.run('DELETE FROM webhooks WHERE url = ? AND listener = 1', d.url);
  });
}

/** An attempt cut off by the process stopping: no result, due again for whoever comes next. */
export function releaseLease(core: Core, deliveryId: number): void {
  core.db.write(() => core.db.run('UPDATE deliveries SET lease_until = NULL WHERE id = ?', deliveryId));
}

/**
 * When the earliest attempt falls due, in the machine's time (epoch microseconds): each due time
 * is on its tree's clock, so each is taken back by its clock's offset before they are compared.
 */
export function nextDue(core: Core): number | undefined {
  const { fallback } = clockOffsets(core.db);
  const row = core.db.get<{ at: number | null }>(
    `SELECT ${MICROS('min(d.next_attempt_at - coalesce(c.offset_micros, ?))', 'at')} FROM deliveries d LEFT JOIN account_clocks c ON c.account_id = d.clock_id
      WHERE d.next_attempt_at IS NOT NULL`,
    fallback,
  );
  return row?.at ?? undefined;
}

/** The ID a stored event body (the envelope sent) is about. */
export function eventAbout(type: string, body: string): string | null {
  try {
    return aboutOf(type, (JSON.parse(body) as { data?: unknown }).data);
  } catch {
    return null;
  }
}

// ---- the delivery log (pgw events, GET /sandbox/events/) ----

export type EventStatus = 'pending' | 'delivered' | 'failed' | 'no_address';
export const EVENT_STATUSES: readonly EventStatus[] = ['pending', 'delivered', 'failed', 'no_address'];

export interface EventSummary {
  id: string;
  event_type: string;
  /** The ID the event is about (events.ts eventAbout): its payment, refund, settlement or merchant. */
  about: string | null;
  sequence_number: string;
  merchant_id: string;
  created_at: string;
  /** Addresses it was sent to (each once). */
  targets: string[];
  attempts: number;
  status: EventStatus;
  /** HTTP status of the latest attempt (null: none yet, or no answer). */
  last_status: number | null;
  /** Why the latest attempt had no answer (timeout, connection refused, ...). */
  last_error: string | null;
  next_attempt_at: string | null;
  /**
   * Each address's own state (issue 33 item 8: the event's latest answer can be a 200 while
   * another address refuses): delivered, pending (an attempt still due) or failed, and its latest
   * answer; `failing` when it has not got a 200 and its latest attempt did not get one either.
   */
  addresses: AddressState[];
}

export interface AddressState {
  url: string;
  state: 'delivered' | 'pending' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  failing: boolean;
}

interface DeliveryRow {
  id: number;
  event_id: string;
  url: string;
  listener: number;
  state: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: number | null;
}

interface AttemptRow {
  id: number;
  delivery_id: number;
  n: number;
  at: string;
  status: number | null;
  error: string | null;
  ms: number;
  signature: string | null;
  signature_v2: string | null;
}

interface EventRow {
  id: string;
  sequence_number: string;
  event_type: string;
  merchant_id: string;
  created_at: string;
  body: string;
}

/**
 * I4: an event's status is a function of its attempts. Per address: delivered once any attempt to
 * it (a retry or a resend) got 200; pending while one of its deliveries still has an attempt due;
 * failed otherwise. The event: no_address when nothing was registered, pending while an address
 * is, delivered when every address is, failed otherwise. (Not the newest delivery's state: a
 * failed resend must not hide a retry still due, nor a retry that then succeeded.)
 */
export function eventStatus(deliveries: readonly DeliveryRow[], attempts: readonly AttemptRow[]): EventStatus {
  if (deliveries.length === 0) return 'no_address';
  const states = [...urlStates(deliveries, attempts).values()];
  return states.includes('pending') ? 'pending' : states.every((x) => x === 'delivered') ? 'delivered' : 'failed';
}

/** Each address's state, in the order the addresses were first delivered to (the rule above). */
function urlStates(deliveries: readonly DeliveryRow[], attempts: readonly AttemptRow[]): Map<string, AddressState['state']> {
  const answered = new Set(attempts.filter((a) => a.status === 200).map((a) => a.delivery_id));
  const byUrl = new Map<string, AddressState['state']>();
  for (const d of deliveries) {
    const was = byUrl.get(d.url);
    const now = answered.has(d.id) || d.state === 'delivered' ? 'delivered' : d.next_attempt_at !== null ? 'pending' : 'failed';
    if (was === 'delivered' || (was === 'pending' && now === 'failed')) continue;
    byUrl.set(d.url, now);
  }
  return byUrl;
}

/** Per address: its state and its latest answer (`attempts` in the order they were made). */
function addressStates(deliveries: readonly DeliveryRow[], attempts: readonly AttemptRow[]): AddressState[] {
  const urlOf = new Map(deliveries.map((d) => [d.id, d.url]));
  return [...urlStates(deliveries, attempts)].map(([url, state]) => {
    const mine = attempts.filter((a) => urlOf.get(a.delivery_id) === url);
    const last = mine.at(-1);
    return {
      url,
      state,
      attempts: mine.length,
      last_status: last?.status ?? null,
      last_error: last?.error ?? null,
      failing: state !== 'delivered' && last !== undefined && last.status !== 200,
    };
  });
}

function summarise(e: EventRow, deliveries: DeliveryRow[], attempts: AttemptRow[]): EventSummary {
  const latest = new Map<string, DeliveryRow>();
  for (const d of deliveries) latest.set(d.url, d);
  const status = eventStatus(deliveries, attempts);
  const last = attempts.at(-1);
  const next = deliveries.map((d) => d.next_attempt_at).filter((n): n is number => n !== null);
  return {
    id: e.id,
    event_type: e.event_type,
    about: eventAbout(e.event_type, e.body),
    sequence_number: e.sequence_number,
    merchant_id: e.merchant_id,
    created_at: e.created_at,
    targets: [...latest.keys()],
    attempts: attempts.length,
    status,
    last_status: last?.status ?? null,
    last_error: last?.error ?? null,
    next_attempt_at: next.length > 0 ? stamp(Math.min(...next)) : null,
    addresses: addressStates(deliveries, attempts),
  };
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

function detailsOf(core: Core, events: EventRow[]): { deliveries: Map<string, DeliveryRow[]>; attempts: Map<number, AttemptRow[]> } {
  const deliveries = new Map<string, DeliveryRow[]>();
  const attempts = new Map<number, AttemptRow[]>();
  if (events.length === 0) return { deliveries, attempts };
  const ds = core.db.all<DeliveryRow>(
    `SELECT id, event_id, url, listener, state, attempts, max_attempts, ${MICROS('next_attempt_at')} FROM deliveries WHERE event_id IN (${placeholders(events.length)}) ORDER BY id`,
    ...events.map((e) => e.id),
  );
  for (const d of ds) (deliveries.get(d.event_id) ?? deliveries.set(d.event_id, []).get(d.event_id)!).push(d);
  if (ds.length > 0) {
    const as = core.db.all<AttemptRow>(`SELECT * FROM attempts WHERE delivery_id IN (${placeholders(ds.length)}) ORDER BY at, id`, ...ds.map((d) => d.id));
    for (const a of as) (attempts.get(a.delivery_id) ?? attempts.set(a.delivery_id, []).get(a.delivery_id)!).push(a);
  }
  return { deliveries, attempts };
}

function attemptsOfEvent(ds: DeliveryRow[], attempts: Map<number, AttemptRow[]>): AttemptRow[] {
  return ds.flatMap((d) => attempts.get(d.id) ?? []).sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id - b.id));
}

export interface EventFilter {
  type?: string;
  /** Only events whose body names this ID (a payment, order, settlement, refund or merchant). */
  about?: string;
  status?: EventStatus;
  limit: number;
}

/** Newest first, the caller's merchants only (spec part 5 rule 3). */
export function listEvents(core: Core, scope: Scope, filter: EventFilter): EventSummary[] {
  if (scope.length === 0) return [];
  const params: unknown[] = [...scope];
  let where = `merchant_id IN (${placeholders(scope.length)})`;
  if (filter.type) {
    where += ' AND event_type = ?';
    params.push(filter.type);
  }
  if (filter.about) {
    // IDs are letters and digits (checked by the handler), so the quoted value is a whole JSON string.
    where += ' AND instr(body, ?) > 0';
    params.push(`"${filter.about}"`);
  }
  // The status is computed from the deliveries: filter after summarising, reading in pages.
  const out: EventSummary[] = [];
  const page = 200;
  for (let offset = 0; out.length < filter.limit; offset += page) {
    const rows = core.db.all<EventRow>(`SELECT * FROM events WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, ...params, page, offset);
    const { deliveries, attempts } = detailsOf(core, rows);
    for (const e of rows) {
      const ds = deliveries.get(e.id) ?? [];
      const s = summarise(e, ds, attemptsOfEvent(ds, attempts));
      if (!filter.status || s.status === filter.status) out.push(s);
      if (out.length >= filter.limit) break;
    }
    if (rows.length < page) break;
  }
  return out;
}

export interface EventDetail extends EventSummary {
  /** The body exactly as sent (and signed). */
  body: string;
  payload: unknown;
  deliveries: {
    url: string;
    kind: 'address' | 'pgw listen' | 'resend';
    state: string;
    next_attempt_at: string | null;
    /** signature, signature_v2: the X-Webhook-Signature and -V2 values sent (null: none was). */
    attempts: { n: number; at: string; status: number | null; error: string | null; ms: number; signature: string | null; signature_v2: string | null }[];
  }[];
}

export function getEvent(core: Core, scope: Scope, id: string): EventDetail {
  const e = core.db.get<EventRow>('SELECT * FROM events WHERE id = ? OR sequence_number = ?', id, id);
  if (!e || !scope.includes(e.merchant_id)) throw eventNotFound(id);
  const { deliveries, attempts } = detailsOf(core, [e]);
  const ds = deliveries.get(e.id) ?? [];
  return {
    ...summarise(e, ds, attemptsOfEvent(ds, attempts)),
    body: e.body,
    payload: JSON.parse(e.body) as unknown,
    deliveries: ds.map((d) => ({
      url: d.url,
      kind: d.listener === 1 ? 'pgw listen' : d.max_attempts === 1 ? 'resend' : 'address',
      state: d.state,
      next_attempt_at: d.next_attempt_at === null ? null : stamp(d.next_attempt_at),
      attempts: (attempts.get(d.id) ?? []).map((a) => ({ n: a.n, at: a.at, status: a.status, error: a.error, ms: a.ms, signature: a.signature, signature_v2: a.signature_v2 })),
    })),
  };
}

/**
 * `pgw events resend`: one new attempt now (never retried) to every address registered now for
 * the event's merchant, or to `url`. Returns the new deliveries, for the caller to wait on.
 */
export function resendEvent(core: Core, scope: Scope, id: string, url?: string): { eventId: string; deliveryIds: number[] } {
  const { db } = core;
  return db.write(() => {
    const e = db.get<EventRow>('SELECT * FROM events WHERE id = ? OR sequence_number = ?', id, id);
    if (!e || !scope.includes(e.merchant_id)) throw eventNotFound(id);
    const now = core.micros(e.merchant_id);
    const clock = clockRoot(db, e.merchant_id);
    const signer = signerOf(core, e.merchant_id);
    const urls = url !== undefined ? [] : targetsOf(core, e.merchant_id);
    if (url === undefined && urls.length === 0) {
      throw new SandboxError(400, 'ERR_EVENT_002', 'No webhook address', { url: 'no webhook address is registered for this account now: give one (url)' });
    }
    if (url !== undefined) return { eventId: e.id, deliveryIds: [insertDelivery(core, e.id, url, false, signer, 1, now, clock)] };
    // A resend to every address is a new send: the same rule over the registrations now (issue 45).
    const forwards = forwardDecisions(urls, e.event_type);
    return { eventId: e.id, deliveryIds: urls.map((t) => insertDelivery(core, e.id, t.url, false, signer, 1, now, clock, forwards.get(t.url))) };
  });
}

/** What the sandbox's reset empties of the outbox (the log goes with the data it describes). */
export function clearOutbox(core: Core): void {
  core.db.run('DELETE FROM attempts');
  core.db.run('DELETE FROM deliveries');
  core.db.run('DELETE FROM events');
}
