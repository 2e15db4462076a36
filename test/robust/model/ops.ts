// The model test's one way into the sandbox (issue 31): every request, clock move, snapshot and
// read of the database goes through here, so a change of the sandbox's API or schema (per-account
// clocks, a global `--all` clock move) is an edit in this file only.
//
// Two transports run the same commands: `sandbox serve` over real HTTP (startServer on port 0) and
// the embedded profile's in-process pipeline (startEmbedded + its dispatcher). Operations of the
// machine that holds the file (a global snapshot, moving every clock) go through the same store and
// snapshot functions the CLI's embedded path calls, on a connection of their own.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startServer, type RunningSandbox } from '../../../src/sandbox/serve.js';
import { EMBEDDED_BASE_URL, startEmbedded, type EmbeddedSandbox } from '../../../src/sandbox/embedded.js';
import type { InProcessDispatcher } from '../../../src/sandbox/in-process.js';
import { openStore } from '../../../src/sandbox/store.js';
import { restoreSnapshot, saveSnapshot } from '../../../src/sandbox/snapshots.js';
import { newEncryptionKey } from '../../../src/sandbox/store/accounts.js';
import { newHex, newMerchantId, newToken } from '../../../src/sandbox/ids.js';
import { SandboxError } from '../../../src/sandbox/errors.js';
import { stamp } from '../../../src/sandbox/db.js';
import { wallMicros } from '../../../src/monotonic.js';
import type { SqlConnection } from '../../../src/sandbox/sqlite/connection.js';
import { openRaw } from '../../helpers/sqlite.js';
import { encodeForm, formBoundary } from '../../../src/api/form.js';
import type { FormField } from '../../../src/api/types.js';
import type { Receiver } from './receiver.js';

// ---- who acts ----------------------------------------------------------------------------------

/**
 * The five actors, named by the account whose data they act on: two merchants (M1 seeded, M2 added
 * by the test), the PSP acting for itself (P) and the PSP acting for each of its sub-merchants
 * with X-Merchant-ID (S1 approved, S2 pending). Accounts are named the same way.
 */
export type Actor = 'M1' | 'M2' | 'P' | 'S1' | 'S2';
export type Account = Actor;
export const ACTORS: readonly Actor[] = ['M1', 'M2', 'P', 'S1', 'S2'];
export const ACCOUNTS: readonly Account[] = ACTORS;
/** An account tree: a merchant, or a PSP with its sub-merchants. Each has its own clock (issue 31 item 5). */
export type Tree = 'M1' | 'M2' | 'P';
export const TREES: readonly Tree[] = ['M1', 'M2', 'P'];
export const treeOf = (a: Account): Tree => (a === 'S1' || a === 'S2' ? 'P' : a);
export const treeAccounts = (t: Tree): Account[] => (t === 'P' ? ['P', 'S1', 'S2'] : [t]);
/** What an actor may reach (spec part 5): a merchant itself; the PSP itself and its subs; X-Merchant-ID narrows to one. */
export const scopeOf = (a: Actor): Account[] => (a === 'P' ? ['P', 'S1', 'S2'] : [a]);
/** The account whose credentials the actor sends (faults and snapshots over HTTP are kept under it). */
export const credentialOf = (a: Actor): Account => (a === 'S1' || a === 'S2' ? 'P' : a);
/** The actor that acts for an account's data (the PSP names a sub-merchant with X-Merchant-ID). */
export const actorFor = (a: Account): Actor => a;

export type Transport = 'http' | 'embedded';

// ---- the operations: every route the test calls, in one place ---------------------------------

/** One request of an operation; the model matches faults on its method and path. */
export interface Req {
  method: string;
  path: string;
  body?: unknown;
  /** A multipart/form-data body instead of JSON (the order document upload). */
  form?: FormField[];
}

/** The smallest files the upload takes (vendor 4.4: a PDF, a JPEG by content and name). */
const TINY_PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
const TINY_JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0xff, 0xd9]);

const post = (path: string, body?: unknown): Req => ({ method: 'POST', path, body });

export const api = {
  createOrder: (body: Record<string, unknown>) => post('/pg/orders/', body),
  pay: (orderId: string, outcome: 'success' | 'fail', gateway: string) => post(`/sandbox/orders/${orderId}/pay/`, { outcome, gateway }),
  refund: (paymentId: string, amount: string) => post('/pg/refunds/', { payment_id: paymentId, refund_amount: amount }),
  refundStatus: (refundId: string, status: string) => post(`/pg/refunds/${refundId}/simulate-status/`, { status }),
  chargeback: (paymentId: string, amount: string) => post(`/sandbox/payments/${paymentId}/chargebacks/`, { amount }),
  markSettled: (payments: string[], refunds: string[], chargebacks: string[]) =>
    post('/pg/settlements/mark-settled/', { payment_uids: payments, refund_uids: refunds, chargeback_uids: chargebacks }),
  createSubscription: (amount: string) => post('/sandbox/subscriptions/', { amount }),
  simulateSubscription: (uid: string, status: 'SUCCESS' | 'FAILED') => post(`/pg/subscriptions/${uid}/simulate_payment/`, { payment_status: status }),
  createLink: (orderId: string, seconds: number) => post('/sandbox/payment-links/', { order_id: orderId, expires_in_seconds: seconds }),
  deactivateLink: (linkId: string) => post(`/sandbox/payment-links/${linkId}/deactivate/`),
  addWebhook: (url: string) => post('/sandbox/webhooks/', { url }),
  // issue 45: `pgw listen`'s registration (forward_to, events), a registration removed, sub-merchants and their kyc_status.
  addListener: (url: string, forwardTo: string, events?: string[]) => post('/sandbox/webhooks/', { url, listener: true, forward_to: forwardTo, ...(events ? { events } : {}) }),
  removeWebhook: (id: string): Req => ({ method: 'DELETE', path: `/sandbox/webhooks/${id}/` }),
  createSubMerchant: (body: Record<string, unknown>) => post('/partners/merchants/', body),
  setKyc: (merchantId: string, status: string) => post(`/sandbox/merchants/${merchantId}/kyc/`, { kyc_status: status }),
  resendEvent: (eventId: string) => post(`/sandbox/events/${eventId}/resend/`, {}),
  listEvents: (): Req => ({ method: 'GET', path: '/sandbox/events/?limit=1000' }),
  saveSnapshot: (name: string) => post('/sandbox/snapshots/', { name }),
  restoreSnapshot: (name: string) => post(`/sandbox/snapshots/${encodeURIComponent(name)}/restore/`),
  reset: () => post('/sandbox/reset/'),
  addFault: (route: string, status: number, times: number) => post('/sandbox/faults/', { route, status, times }),
  clearFaults: (): Req => ({ method: 'DELETE', path: '/sandbox/faults/' }),
  get: (what: 'payment' | 'refund' | 'link' | 'settlement', id: string): Req => ({
    method: 'GET',
    path: { payment: `/pg/payments/${id}/`, refund: `/pg/refunds/${id}/`, link: `/pg/payment-links/${id}/`, settlement: `/pg/settlements/${id}/` }[what],
  }),
  /** The caller's account tree's clock (POST /sandbox/clock/: advance_seconds, set or reset). */
  moveClock: (body: { advance_seconds: number } | { set: string } | { reset: true }) => post('/sandbox/clock/', body),
  readClock: (): Req => ({ method: 'GET', path: '/sandbox/clock/' }),
  createVba: (maxRupees: number | null) => post('/pg/vba/', maxRupees === null ? {} : { amount_lock_details: { max_amount: maxRupees } }),
  setVbaStatus: (id: string, status: 'ACTIVE' | 'INACTIVE'): Req => ({ method: 'PATCH', path: `/pg/vba/${id}/`, body: { status } }),
  /** vendor 11.2.3: a verification document (a PDF). */
  uploadVerificationDocument: (paymentId: string, type: string): Req => ({
    method: 'POST',
    path: `/pg/payments/${paymentId}/documents/`,
    form: [
      { name: 'type', value: type },
      { name: 'file', filename: `${type}.pdf`, contentType: 'application/pdf', data: TINY_PDF },
    ],
  }),
  /** vendor 11.2.5 (deprecated). */
  uploadVerificationDetails: (paymentId: string, buyerName: string) =>
    post(`/pg/payments/${paymentId}/upload-verification-details/`, {
      buyer_name: buyerName,
      type_of_goods: 'SERVICE',
      product_description: 'This is a test product for test purpose.',
      buyer_address: '1 MG Road',
      invoice_number: 'INV-OLD',
      buyer_postal_code: '560034',
      purpose_code: 'S0802',
      business_model: 'B2B',
    }),
  /** vendor 11.2.2. */
  submitVerification: (paymentId: string, body: Record<string, unknown>) => post(`/pg/payments/${paymentId}/verification/`, body),
  /** 11.10 P2: the review's outcome. */
  simulateVerification: (paymentId: string, status: string) => post(`/pg/payments/${paymentId}/simulate-verification/`, { status }),
  // issue 42: payment links as the vendor's client makes them (beyond 3.1, 3.4; vendor 6 share).
  createPaymentLink: (body: Record<string, unknown>) => post('/pg/payment-links/', body),
  extendLink: (linkId: string, expiryDate: string) => post(`/pg/payment-links/${linkId}/extend_expiry/`, { expiry_date: expiryDate }),
  shareLink: (linkId: string) => post(`/pg/payment-links/${linkId}/share/`, { email: ['buyer@example.com'], phone: ['+919876543210'] }),
  vbaTransfer: (id: string, rupees: number, utr: string) =>
    post('/pg/vba/simulate-transfer/', { virtual_account_id: id, vba_simulation: { amount: rupees, utr, remitter_name: 'Model', remitter_account: '000123456789', remitter_ifsc: 'TEST0000001' } }),
  /** vendor 11.1: one invoice (a PDF) or air waybill (a JPEG) on an order. */
  uploadDocument: (orderId: string, type: 'invoice' | 'awb', identifier: string): Req => ({
    method: 'POST',
    path: `/pg/orders/${orderId}/documents/`,
    form: [
      { name: 'identifier', value: identifier },
      { name: 'document_type', value: type },
      type === 'invoice'
        ? { name: 'file', filename: 'invoice.pdf', contentType: 'application/pdf', data: TINY_PDF }
        : { name: 'file', filename: 'awb.jpg', contentType: 'image/jpeg', data: TINY_JPEG },
    ],
  }),
  /** vendor 11.6. */
  verifyPan: (pan: string, name: string, dob: string) => post('/pg/pan/verify/', { pan, name, dob }),
  lrsQuote: (pan: string, amount: string, purposeCode: string) => post('/pg/lrs/quote/', { pan, amount: Number(amount), purpose_code: purposeCode }),
};

export interface Res {
  status: number;
  body: any;
}

interface Creds {
  client_id: string;
  client_secret: string;
}

// ---- the latest sandbox time --------------------------------------------------------------------

/** The last instant `clock set` accepts, and `advance` may reach (I5, issue 31 item 6). */
export const CALENDAR_END_MICROS = Date.UTC(9999, 11, 31, 23, 59, 59, 999) * 1000 + 999;

/** `2026-11-21T10:00:00.123456Z` (or an extended year) → epoch microseconds; NaN when not a time. */
export function stampMicros(s: string): number {
  const m = /^(.*?)(?:\.(\d{1,6}))?Z?$/.exec(s);
  if (!m) return NaN;
  const ms = Date.parse(`${m[1]}Z`);
  const frac = (m[2] ?? '').padEnd(6, '0');
  return Number.isNaN(ms) ? NaN : ms * 1000 + Number(frac);
}

// ---- the world ----------------------------------------------------------------------------------

export class World {
  /** Merchant IDs of the accounts, and back. */
  readonly ids: Record<Account, string>;
  private readonly byId: Map<string, Account>;
  private readonly creds: Record<'M1' | 'M2' | 'P', Creds>;

  private constructor(
    readonly transport: Transport,
    readonly dbPath: string,
    private readonly dir: string,
    readonly run: string,
    readonly receiver: Receiver,
    /** The oracle's own connection: reads only. */
    readonly db: SqlConnection,
    private readonly transmit: (method: string, path: string, headers: Record<string, string>, body?: string | Buffer) => Promise<Res>,
    private readonly stop: () => Promise<void>,
    /** Runs the webhook dispatcher's once-a-second look (the test fakes setInterval). */
    private readonly tick: () => void,
  ) {
    const rows = db.prepare('SELECT merchant_id, client_id, client_secret, seed_role, brand_name FROM merchants').all() as {
      merchant_id: string;
      client_id: string | null;
      client_secret: string | null;
      seed_role: string | null;
      brand_name: string;
    }[];
    const role = (r: string) => rows.find((x) => x.seed_role === r)!;
    const m2 = rows.find((x) => x.brand_name === MERCHANT_TWO)!;
    this.ids = { M1: role('merchant').merchant_id, M2: m2.merchant_id, P: role('psp').merchant_id, S1: role('sub_approved').merchant_id, S2: role('sub_pending').merchant_id };
    this.byId = new Map(ACCOUNTS.map((a) => [this.ids[a], a]));
    const c = (r: { client_id: string | null; client_secret: string | null }) => ({ client_id: r.client_id!, client_secret: r.client_secret! });
    this.creds = { M1: c(role('merchant')), M2: c(m2), P: c(role('psp')) };
  }

  static async open(transport: Transport, receiver: Receiver, run: string, tick: () => void): Promise<World> {
    const dir = mkdtempSync(join(tmpdir(), 'pgw-model-'));
    const dbPath = join(dir, 'sandbox.db');
    copyFileSync(template(), dbPath);
    let send: World['transmit'];
    let stop: () => Promise<void>;
    if (transport === 'http') {
      const server: RunningSandbox = await startServer({ port: 0, host: '127.0.0.1', dbPath });
      send = async (method, path, headers, body) => {
        const res = await request(`${server.baseUrl}${path}`, { method: method as 'GET', headers, body });
        return { status: res.statusCode, body: parse(await res.body.text()) };
      };
      stop = () => server.close();
    } else {
      const embedded: EmbeddedSandbox = await startEmbedded(dbPath);
      const dispatcher: InProcessDispatcher = embedded.dispatcher();
      send = async (method, path, headers, body) => {
        const res = await dispatcher.request({ origin: EMBEDDED_BASE_URL, path, method: method as 'GET', headers, body });
        let text = '';
        for await (const chunk of res.body as AsyncIterable<Buffer>) text += chunk.toString('utf8');
        return { status: res.statusCode, body: parse(text) };
      };
      stop = async () => {
        await dispatcher.close();
        await embedded.close();
      };
    }
    const db = openRaw(dbPath);
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA query_only = 1');
    return new World(transport, dbPath, dir, run, receiver, db, send!, stop!, tick);
  }

  private readonly statements = new Map<string, ReturnType<SqlConnection['prepare']>>();
  /** A statement on the oracle's connection, prepared once. */
  q(sql: string): ReturnType<SqlConnection['prepare']> {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  private shape?: { name: string; columns: string[] }[];
  /** The database's tables and their columns (read once: a run never changes the schema). */
  tables(): { name: string; columns: string[] }[] {
    this.shape ??= (this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name").all() as { name: string }[]).map((r) => ({
      name: r.name,
      columns: (this.db.prepare(`PRAGMA table_info("${r.name}")`).all() as { name: string }[]).map((c) => c.name),
    }));
    return this.shape;
  }

  accountOf(merchantId: string): Account | undefined {
    return this.byId.get(merchantId);
  }

  /**
   * Issue 45: a sub-merchant the PSP created during the run. It is the PSP's data (a reset or a
   * restore of the PSP removes it), so its rows count as the PSP's in the digest.
   */
  adopt(merchantId: string): void {
    this.byId.set(merchantId, 'P');
  }

  /** One operation's request as `actor`. */
  send(actor: Actor, req: Req): Promise<Res> {
    return this.call(actor, req.method, req.path, req.body, req.form);
  }

  /** One request by the PSP acting for a sub-merchant it created (X-Merchant-ID), issue 45. */
  sendFor(merchantId: string, req: Req): Promise<Res> {
    return this.call('P', req.method, req.path, req.body, req.form, merchantId);
  }

  /** One request as `actor`: its credentials, and X-Merchant-ID for a PSP acting for a sub-merchant. */
  private call(actor: Actor, method: string, path: string, body?: unknown, form?: FormField[], actingFor?: string): Promise<Res> {
    const c = this.creds[credentialOf(actor) as 'M1' | 'M2' | 'P'];
    const headers: Record<string, string> = { 'x-client-id': c.client_id, 'x-client-secret': c.client_secret, accept: 'application/json' };
    if (actor === 'S1' || actor === 'S2') headers['x-merchant-id'] = this.ids[actor];
    if (actingFor !== undefined) headers['x-merchant-id'] = actingFor;
    let text: string | Buffer | undefined;
    if (form !== undefined) {
      const boundary = formBoundary();
      text = encodeForm(form, boundary);
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    } else if (body !== undefined) {
      text = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    return this.transmit(method, path, headers, text);
  }

  /** A buyer's form post to a page (a payment link's Pay or Fail): no credentials. Served by `sandbox serve` only. */
  page(path: string, outcome: 'success' | 'fail'): Promise<Res> {
    return this.transmit('POST', path, { 'content-type': 'application/x-www-form-urlencoded' }, `outcome=${outcome}`);
  }

  // ---- the clock ----

  /** Move the clock of the actor's account tree (POST /sandbox/clock/: advance_seconds, set or reset). */
  moveClock(actor: Actor, body: { advance_seconds: number } | { set: string } | { reset: true }): Promise<Res> {
    return this.send(actor, api.moveClock(body));
  }

  /** The clock as the tree's own account reads it (GET /sandbox/clock/). */
  async readClock(tree: Tree): Promise<{ now: string; micros: number; offset: number }> {
    const res = await this.send(tree, api.readClock());
    if (res.status !== 200) throw new Error(`GET /sandbox/clock/ as ${tree}: ${res.status} ${JSON.stringify(res.body)}`);
    return { now: res.body.data.now, micros: stampMicros(res.body.data.now), offset: res.body.data.offset_seconds };
  }

  /**
   * Each tree's clock offset from the machine's time, in µs, read from the database (as REAL, as the
   * sandbox reads them: near 9999 microseconds pass 2^53 and node:sqlite refuses such an INTEGER). Before issue
   * 31 there is one clock for the whole database (sandbox_clock, id 1); since, a tree whose clock
   * was moved on its own has a row in account_clocks (keyed by its root account) and every other
   * tree reads the default (sandbox_clock).
   */
  treeOffsets(): Record<Tree, number> {
    const fallback = Number((this.q('SELECT CAST(offset_micros AS REAL) AS o FROM sandbox_clock LIMIT 1').get() as { o: number } | undefined)?.o ?? 0);
    if (!this.tables().some((t) => t.name === 'account_clocks')) return { M1: fallback, M2: fallback, P: fallback };
    const own = (t: Tree) => (this.q('SELECT CAST(offset_micros AS REAL) AS o FROM account_clocks WHERE account_id = ?').get(this.ids[t]) as { o: number } | undefined)?.o;
    const of = (t: Tree) => Number(own(t) ?? fallback);
    return { M1: of('M1'), M2: of('M2'), P: of('P') };
  }

  /** Every tree's clock moved at once: the embedded profile's / --db's `clock advance --all`, on a connection of its own. */
  moveAllClocks(seconds: number): { ok: true } | { ok: false; status: number; code: string } {
    return this.onFile((store) => {
      // The store's clock functions took a target with issue 31 ({ all: true }); before, there was one clock.
      const move = store.advanceClock as unknown as (...args: unknown[]) => void;
      if (move.length >= 2) move({ all: true }, seconds);
      else move(seconds);
    });
  }

  // ---- snapshots of the whole database (the CLI's embedded path: src/commands/sandbox/snapshot.ts) ----

  saveGlobal(name: string): { ok: true } | { ok: false; status: number; code: string } {
    // The default clock's reading (nowMicros took the merchant whose clock to read with issue 31; null: the default).
    return this.onFile((store) => saveSnapshot(store.db, { dbPath: this.dbPath }, name, { clockMicros: (store.nowMicros as unknown as (m: string | null) => number)(null) }));
  }

  restoreGlobal(name: string): { ok: true } | { ok: false; status: number; code: string } {
    return this.onFile((store) => restoreSnapshot(store.db, { dbPath: this.dbPath }, name, { machineMicros: store.machineMicros }));
  }

  private onFile(fn: (store: ReturnType<typeof openStore>) => unknown): { ok: true } | { ok: false; status: number; code: string } {
    const store = openStore(this.dbPath);
    try {
      fn(store);
      return { ok: true };
    } catch (err) {
      if (err instanceof SandboxError) return { ok: false, status: err.status, code: String(err.code) };
      throw err;
    } finally {
      store.close();
    }
  }

  // ---- waiting for the deliveries ----

  /**
   * Work the sandbox has to do by itself: attempts leased (on the wire), attempts due on their
   * tree's clock, and links expired unpaid whose PAYMENT_FAILED is not yet recorded.
   */
  dueWork(): string[] {
    const offsets = this.treeOffsets();
    const machine = wallMicros();
    const nowOf = (merchantId: string) => machine + offsets[treeOf(this.accountOf(merchantId) ?? 'M1')];
    const out: string[] = [];
    const leased = (this.q('SELECT count(*) AS n FROM deliveries WHERE lease_until IS NOT NULL').get() as { n: number }).n;
    if (leased > 0) out.push(`${leased} attempts on the wire`);
    const pending = this
      .q('SELECT CAST(d.next_attempt_at AS REAL) AS next, e.merchant_id AS m FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.next_attempt_at IS NOT NULL')
      .all() as { next: number; m: string }[];
    const due = pending.filter((d) => Number(d.next) <= nowOf(d.m)).length;
    if (due > 0) out.push(`${due} attempts due`);
    const links = this
      .q(
        `SELECT l.link_id AS id, l.merchant_id AS m, l.expires_at AS at FROM links l
          WHERE l.paid_payment_id IS NULL AND l.deactivated_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = l.order_id AND p.status = 'captured')
            AND NOT EXISTS (SELECT 1 FROM events e WHERE e.merchant_id = l.merchant_id AND e.event_type = 'PAYMENT_FAILED'
                              AND e.created_at >= l.expires_at AND instr(e.body, '"payment_id":"' || l.link_id || '"') > 0)`,
      )
      .all() as { id: string; m: string; at: string }[];
    const expired = links.filter((l) => l.at <= stamp(nowOf(l.m))).length;
    if (expired > 0) out.push(`${expired} expired links unannounced`);
    if (this.receiver.inflight > 0) out.push(`${this.receiver.inflight} requests at the receiver`);
    return out;
  }

  /** Until the sandbox has nothing of its own to do: every due attempt made, every expiry announced. */
  async quiesce(): Promise<void> {
    let left: string[] = [];
    for (let i = 0; i < 2000; i++) {
      left = this.dueWork();
      if (left.length === 0) return;
      // The dispatcher's once-a-second look (setInterval is faked: it runs only when told to).
      if (i % 4 === 0) this.tick();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    throw new Error(`the sandbox never settled: ${left.join(', ')}`);
  }

  async close(): Promise<void> {
    try {
      await this.stop();
    } finally {
      this.db.close();
      this.receiver.forget(this.run);
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const MERCHANT_TWO = 'Model Merchant Two';

let templateDir: string | undefined;
/**
 * A fresh sandbox database with the second merchant, made once per process and copied for each
 * run (a run's world starts from the same accounts; migrating and seeding each time costs more
 * than the run's first steps).
 */
function template(): string {
  if (!templateDir) {
    templateDir = mkdtempSync(join(tmpdir(), 'pgw-model-template-'));
    addSecondMerchant(join(templateDir, 'sandbox.db'));
    process.once('exit', () => rmSync(templateDir!, { recursive: true, force: true }));
  }
  return join(templateDir, 'sandbox.db');
}

/**
 * The second top-level merchant, a test fixture: the sandbox seeds one merchant and one PSP, and
 * has no operation that makes another top-level account. Written into the database before the
 * sandbox opens it, as a copy of the seeded merchant with its own ID, credentials and Encryption Key.
 */
function addSecondMerchant(dbPath: string): void {
  const store = openStore(dbPath);
  try {
    store.db.write(() => {
      const id = newMerchantId(store.db);
      store.db.run(
        `INSERT INTO merchants (merchant_id, brand_name, kyc_status, is_psp, parent_id, client_id, client_secret, seed_role,
           settlement_details, company_details, settlement_currency, encryption_key, created_at, updated_at)
         SELECT ?, ?, kyc_status, 0, NULL, ?, ?, NULL, settlement_details, company_details, settlement_currency, ?, created_at, updated_at
           FROM merchants WHERE seed_role = 'merchant'`,
        id,
        MERCHANT_TWO,
        `sbx_ci_${newHex(10)}`,
        `sbx_cs_${newToken(24)}`,
        newEncryptionKey(),
      );
    });
  } finally {
    store.close();
  }
}
