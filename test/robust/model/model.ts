// The reference model of the model-based sandbox test (issue 31): what each account holds, in
// integer paise, with the arithmetic of stress-model.ts (spec 4.6's settlement rule done again
// independently of src/settlement.ts), and what each operation must answer. The commands that
// drive the sandbox against it are in commands.ts; the invariants read the real state (invariants.ts).
import { breakdown, fmt } from '../stress-model.js';
import { type Account, type Actor, type Req, type World, credentialOf } from './ops.js';
import type { Rows } from './invariants.js';

export { breakdown, fmt };

export type RefundStatus = 'initiated' | 'processing' | 'refunded' | 'failed' | 'reversed' | 'on_hold' | 'bank_rejected_refund';
/** vendor 2.5's seven, as simulate-status takes them (uppercase). */
export const REFUND_STATUSES: readonly RefundStatus[] = ['initiated', 'processing', 'refunded', 'failed', 'reversed', 'on_hold', 'bank_rejected_refund'];
/** I1: the refunds that count against what was captured (docs/sandbox.md, settlement.ts refundIsDebited). */
export const COUNTING: ReadonlySet<string> = new Set(['initiated', 'processing', 'on_hold', 'refunded']);
export const SIMULATOR = 'simulator';

export interface MOrder {
  id: string;
  merchant: Account;
  amount: number;
  paid: boolean;
}
export interface MPayment {
  id: string;
  merchant: Account;
  orderId: string;
  amount: number;
  captured: boolean;
  gateway: string;
  settlement: string | null;
  /** vendor 11.3 state while a verification is open (VBA credits, or opened by simulate-verification); absent otherwise. */
  verification?: string;
  /** Declared B2B + S0802 through the verification submit. */
  classified?: boolean;
  /** A card/UPI verification's deadline (11.10 P9: capture + 7 days), µs on its tree's clock (issue 42). */
  deadline?: number;
}
export interface MRefund {
  id: string;
  paymentId: string;
  merchant: Account;
  amount: number;
  status: RefundStatus;
  settlement: string | null;
}
export interface MChargeback {
  id: string;
  paymentId: string;
  merchant: Account;
  amount: number;
  settlement: string | null;
}
export interface MSettlement {
  id: string;
  merchant: Account;
  amount: number;
}
export interface MLink {
  id: string;
  orderId: string;
  merchant: Account;
  /** As the sandbox stamped it, on its tree's clock. */
  expiresAt: string;
  deactivated: boolean;
  /** The buyer page's token (`/p/<token>/`), and how many shares were recorded (issue 42). */
  token?: string;
  shares?: number;
}
/** A virtual bank account (vendor 11.7): ACTIVE or not, and its largest credit in paise (null: none). */
export interface MVba {
  id: string;
  merchant: Account;
  active: boolean;
  max: number | null;
}
/** A credit's UTR, used once per account (docs/sandbox.md): restored and reset with the account. */
export interface MCredit {
  id: string;
  merchant: Account;
  paymentId: string;
}
export interface MSub {
  uid: string;
  merchant: Account;
  amount: number;
}
export interface MWebhook {
  id: string;
  merchant: Account;
  url: string;
}
/** A status fault (503) armed by the account whose credentials were sent. */
export interface MFault {
  id: string;
  credential: Account;
  method: string;
  path: string;
  timesLeft: number;
  createdAt: string;
}

/** An order document (vendor 11.1): an order holds one invoice (a new one replaces it) and up to 20 air waybills. */
export interface MDocument {
  merchant: Account;
  orderId: string;
  type: 'invoice' | 'awb';
}
/** An account's last word on a PAN (vendor 11.6): an LRS quote needs it verified. */
export interface MPan {
  merchant: Account;
  pan: string;
  verified: boolean;
}

/**
 * Issue 45: a seeded sub-merchant's kyc_status (only APPROVED takes payments). Kept by a reset (the
 * account stays), brought back by a restore of a snapshot that holds it (its row is restored).
 */
export interface MKyc {
  merchant: Account;
  status: string;
}
/** Issue 45: a sub-merchant the PSP created: its data (a reset or a restore of the PSP removes it). */
export interface MNewSub {
  merchant: Account;
  id: string;
  status: string;
}

export interface Data {
  kyc: MKyc[];
  newSubs: MNewSub[];
  orders: MOrder[];
  payments: MPayment[];
  refunds: MRefund[];
  chargebacks: MChargeback[];
  settlements: MSettlement[];
  links: MLink[];
  subs: MSub[];
  webhooks: MWebhook[];
  faults: MFault[];
  vbas: MVba[];
  credits: MCredit[];
  documents: MDocument[];
  pans: MPan[];
}

export interface MSnapshot {
  /** Where it is kept: under the account whose credentials saved it (HTTP), or the database's own (global). */
  place: Account | 'global';
  name: string;
  /** The accounts it holds. */
  accounts: Account[];
  /** Their rows when it was saved (invariants.ts digest). */
  rows: Partial<Record<Account, Rows>>;
  /** Global ones: each tree's sandbox time when saved (µs). */
  clocks?: Record<string, number>;
  data: Data;
}

export interface Model {
  data: Data;
  snapshots: MSnapshot[];
  /** Issue 45: the `pgw listen` receivers running (live processes: never part of a snapshot or a reset). */
  listeners?: import('./listeners.js').MListener[];
}

export const emptyData = (): Data => ({ kyc: [], newSubs: [], orders: [], payments: [], refunds: [], chargebacks: [], settlements: [], links: [], subs: [], webhooks: [], faults: [], vbas: [], credits: [], documents: [], pans: [] });
export const emptyModel = (): Model => ({ data: { ...emptyData(), kyc: [{ merchant: 'S1', status: 'APPROVED' }, { merchant: 'S2', status: 'PENDING' }] }, snapshots: [], listeners: [] });

type Item = { merchant?: Account; credential?: Account };
const ownerOf = (x: Item): Account => (x.merchant ?? x.credential)!;
const KEYS = ['kyc', 'newSubs', 'orders', 'payments', 'refunds', 'chargebacks', 'settlements', 'links', 'subs', 'webhooks', 'faults', 'vbas', 'credits', 'documents', 'pans'] as const;

/** A deep copy of the data of `accounts` (faults by the account that armed them). */
export function dataOf(d: Data, accounts: readonly Account[]): Data {
  const out = emptyData();
  for (const k of KEYS) (out[k] as Item[]) = (d[k] as Item[]).filter((x) => accounts.includes(ownerOf(x))).map((x) => ({ ...x }));
  return out;
}

/** `accounts`' data replaced by `from`'s (a restore), or emptied (a reset: `from` empty). */
export function replaceData(d: Data, accounts: readonly Account[], from: Data): void {
  const copy = dataOf(from, accounts);
  for (const k of KEYS) (d[k] as Item[]) = [...(d[k] as Item[]).filter((x) => !accounts.includes(ownerOf(x))), ...(copy[k] as Item[])];
}

// ---- money ----

/** Refunds in a counting status plus chargebacks, of one payment (I1). */
export function counted(d: Data, paymentId: string): number {
  const r = d.refunds.filter((x) => x.paymentId === paymentId && COUNTING.has(x.status)).reduce((s, x) => s + x.amount, 0);
  const c = d.chargebacks.filter((x) => x.paymentId === paymentId).reduce((s, x) => s + x.amount, 0);
  return r + c;
}

/** What may still be refunded or charged back. */
export const room = (d: Data, p: MPayment): number => p.amount - counted(d, p.id);

/** "123.45" or 123.45 or "-5.90" → paise, without going through floating point for strings. */
export function paise(v: unknown): number {
  if (typeof v === 'number') return Math.round(v * 100);
  if (typeof v !== 'string') return NaN;
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(v.trim());
  if (!m) return NaN;
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0')));
}

// ---- the real side ----

export interface Real {
  w: World;
  /** The digest after the previous step (the sandbox was idle then). */
  last: import('./invariants.js').Digest;
  /** Answers that differ from the model's, this step. */
  failures: string[];
  /** Invariant violations found while acting (a restore's I3), this step. */
  violations: string[];
  /** Commands run, by kind and outcome: the figures of the closing note. */
  ran: Record<string, number>;
  /** Counters that are never restored: reference_ids and webhook addresses stay unique. */
  seq: number;
  skip: ReadonlySet<string>;
}

export const count = (r: Real, name: string): void => {
  r.ran[name] = (r.ran[name] ?? 0) + 1;
};

const short = (body: unknown) => {
  const s = typeof body === 'string' ? body : JSON.stringify(body);
  return s.length > 400 ? `${s.slice(0, 400)}…` : s;
};

/** The answer must be `status` (and `code`, when given); a mismatch is recorded, the step goes on. */
export function expectAnswer(r: Real, res: { status: number; body: any }, status: number, code: string | undefined, what: string): boolean {
  // vendor 11.8: some codes are integers (40359, 40360); the model names every code as text.
  const got = res.body?.error?.code;
  if (res.status === status && (code === undefined || String(got) === code)) return true;
  r.failures.push(`${what}: the model expects ${status}${code ? ` ${code}` : ''}, the sandbox answered ${res.status} ${short(res.body)}`);
  return false;
}

export function expectThat(r: Real, ok: boolean, what: string): boolean {
  if (!ok) r.failures.push(what);
  return ok;
}

// ---- faults the model expects to fire ----

function routeMatches(path: string, pattern: string): boolean {
  const re = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${re}/?$`).test(path);
}

/** The armed fault of the actor's credentials that takes this request (oldest first), spent by one. */
export function firingFault(d: Data, actor: Actor, method: string, path: string): MFault | undefined {
  const bare = path.split('?')[0]!;
  if (/^\/sandbox\/(faults|health)\//.test(bare)) return undefined;
  const cred = credentialOf(actor);
  const f = d.faults
    .filter((x) => x.credential === cred && x.timesLeft > 0 && (x.method === '*' || x.method === method) && routeMatches(bare, x.path))
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))[0];
  if (f) f.timesLeft--;
  return f;
}

/**
 * One request as the model sees it: when a fault of the caller's should take it, the answer must
 * be that fault's 503 and nothing happens (`faulted`); otherwise the caller checks the answer.
 */
export async function send(m: Model, r: Real, actor: Actor, req: Req): Promise<{ res: { status: number; body: any }; faulted: boolean }> {
  const fault = firingFault(m.data, actor, req.method, req.path);
  const res = await r.w.send(actor, req);
  if (fault) {
    count(r, 'fault fired');
    expectAnswer(r, res, 503, 'ERR_SERVICE_UNAVAILABLE', `${req.method} ${req.path} as ${actor} with fault ${fault.id} (${fault.method} ${fault.path}) armed`);
    return { res, faulted: true };
  }
  return { res, faulted: false };
}
