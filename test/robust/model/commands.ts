// The commands of the model-based sandbox test (issue 31): each is one operation of one actor (or
// of the machine holding the file), run against the sandbox through ops.ts. A step: act (the
// requests, each answer held against the model, the model updated), wait until the sandbox has
// made every delivery that fell due, then check I1–I5 on the real state; a violation is reported
// before a mismatch with the model. fast-check generates, runs and shrinks sequences of them.
import * as fc from 'fast-check';
import { orderBody } from '../../sandbox/harness.js';
import {
  COUNTING,
  REFUND_STATUSES,
  SIMULATOR,
  breakdown,
  count,
  counted,
  dataOf,
  emptyData,
  expectAnswer,
  expectThat,
  fmt,
  paise,
  replaceData,
  room,
  send,
  type MLink,
  type MOrder,
  type MVba,
  type MPayment,
  type MRefund,
  type Model,
  type Real,
  type RefundStatus,
} from './model.js';
import { wallMicros } from '../../../src/monotonic.js';
import { type Allowed, type Digest, checkCalendar, checkDeliveries, checkIsolation, checkMoney, checkRestore, takeDigest } from './invariants.js';
import { checkEachAddressOnce } from './invariants-listen.js';
import { expectGate, heldBack } from './kyc.js';
import { farmOf } from './listeners.js';
import {
  ACCOUNTS,
  ACTORS,
  CALENDAR_END_MICROS,
  TREES,
  api,
  credentialOf,
  scopeOf,
  stampMicros,
  treeAccounts,
  treeOf,
  type Account,
  type Actor,
  type Tree,
} from './ops.js';

type Cmd = fc.AsyncCommand<Model, Real>;
/** Where a run's time goes (PGW_MODEL_PROFILE=1 prints it): ms per part, and per kind [ms, count] of acting. */
export const PROFILE = { parts: {} as Record<string, number>, byKind: {} as Record<string, [number, number]> };
async function timed<T>(part: string, fn: () => T | Promise<T>, kind?: string): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    const ms = performance.now() - t;
    PROFILE.parts[part] = (PROFILE.parts[part] ?? 0) + ms;
    if (kind) {
      const k = (PROFILE.byKind[kind] ??= [0, 0]);
      k[0] += ms;
      k[1]++;
    }
  }
}
type Scope = 'actor' | 'tree' | 'global' | 'none';

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

/** Which object a command takes: the i-th of those the actor may reach, or (`any`) of everyone's, to probe isolation. */
interface Pick {
  i: number;
  any: boolean;
}
const show = (p: Pick) => `${p.any ? 'any ' : ''}#${p.i}`;
function choose<T extends { merchant: Account }>(list: readonly T[], actor: Actor, p: Pick): T {
  const own = p.any ? list : list.filter((x) => visible(actor, x.merchant));
  return pick(own.length > 0 ? own : list, p.i);
}
const visible = (actor: Actor, owner: Account) => scopeOf(actor).includes(owner);
const clone = <T>(x: T): T => structuredClone(x);

/**
 * One step: act, wait for the sandbox, then the invariants on what it now holds. `scope` says
 * what the step may change (I2): the actor's scope, its tree (a clock move), everything (the
 * machine's operations) or nothing (the test's own receiver).
 */
export abstract class Step implements Cmd {
  abstract readonly kind: string;
  abstract readonly actor: Actor | 'machine' | 'test';
  protected abstract act(m: Model, r: Real): Promise<Scope>;
  abstract toString(): string;
  check(_m: Readonly<Model>): boolean {
    return true;
  }
  /** Trees whose clock this step may move besides its own scope's rule (a restore brings back a tree's clock). */
  protected clocks: Tree[] = [];

  async run(m: Model, r: Real): Promise<void> {
    r.failures = [];
    r.violations = [];
    this.clocks = [];
    count(r, this.kind);
    const before = r.last;
    const scope = await timed('act', () => this.act(m, r), this.kind);
    await timed('quiesce', () => r.w.quiesce());
    await timed('expiries', () => expireByClock(m, r));
    const after = await timed('digest', () => takeDigest(r.w));
    r.last = after;
    const v = [...r.violations];
    if (scope !== 'global' && !r.skip.has('I2')) v.push(...(await timed('I2', () => checkIsolation(before, after, this.allowed(scope, r), r.skip))));
    if (!r.skip.has('I1')) v.push(...(await timed('I1', () => checkMoney(r.w))));
    if (!r.skip.has('I4')) v.push(...(await timed('I4', () => checkDeliveries(r.w))));
    if (!r.skip.has('I5')) v.push(...(await timed('I5', () => checkCalendar(r.w))));
    // issue 45: each event reaches each app behind `pgw listen` exactly once.
    if (!r.skip.has('I6')) v.push(...(await timed('I6', () => checkEachAddressOnce(r.w, farmOf(r.w)))));
    if (v.length > 0) throw new Error(`${this.toString()}:\n  ${v.join('\n  ')}${r.failures.length ? `\n  and the answers: ${r.failures.join('\n  ')}` : ''}`);
    if (r.failures.length > 0) throw new Error(`${this.toString()}:\n  ${r.failures.join('\n  ')}`);
  }

  private allowed(scope: Exclude<Scope, 'global'>, r: Real): Allowed {
    const what = `${this.toString()}`;
    if (scope === 'none' || this.actor === 'machine' || this.actor === 'test') return { what, accounts: new Set(), faultsOf: null, clockTrees: new Set() };
    const actor = this.actor;
    if (scope === 'tree') {
      if (r.skip.has('clock-isolation')) return { what, accounts: new Set(ACCOUNTS), faultsOf: credentialOf(actor), clockTrees: new Set(TREES) };
      const t = treeOf(actor);
      return { what, accounts: new Set(treeAccounts(t)), faultsOf: credentialOf(actor), clockTrees: new Set([t]) };
    }
    return { what, accounts: new Set(scopeOf(actor)), faultsOf: credentialOf(actor), clockTrees: new Set(this.clocks) };
  }
}

// ---- the operations, shared by the commands and by Trigger -------------------------------------

const eventsAbout = (r: Real, id: string, type?: string): number =>
  (
    r.w
      .q(`SELECT count(*) AS n FROM events WHERE instr(body, ?) > 0${type ? ' AND event_type = ?' : ''}`)
      .get(...(type ? [`"${id}"`, type] : [`"${id}"`])) as { n: number }
  ).n;

async function createOrder(m: Model, r: Real, actor: Actor, amount: number): Promise<MOrder | undefined> {
  const body = orderBody({ amount: fmt(amount), reference_id: `model-${r.w.run}-${++r.seq}` });
  const { res, faulted } = await send(m, r, actor, api.createOrder(body));
  if (faulted) return undefined;
  // vendor N4: a PSP names the sub-merchant it creates for.
  if (actor === 'P') return void expectAnswer(r, res, 401, 'ERR_AUTH_000', 'create order as the PSP without X-Merchant-ID');
  // issue 45: only an APPROVED sub-merchant takes money.
  const held = heldBack(m, actor);
  if (held) return void expectGate(r, res, held, `create order ${fmt(amount)} as ${actor}`);
  if (!expectAnswer(r, res, 201, undefined, `create order ${fmt(amount)} as ${actor}`)) return undefined;
  const o: MOrder = { id: res.body.data.order_id, merchant: actor, amount, paid: false };
  m.data.orders.push(o);
  return o;
}

async function pay(m: Model, r: Real, actor: Actor, o: MOrder, outcome: 'success' | 'fail', gateway = SIMULATOR): Promise<MPayment | undefined> {
  const { res, faulted } = await send(m, r, actor, api.pay(o.id, outcome, gateway));
  if (faulted) return undefined;
  const what = `pay ${o.id} (${o.merchant}) ${outcome} as ${actor}`;
  if (!visible(actor, o.merchant)) return void expectAnswer(r, res, 404, undefined, what);
  if (o.paid) return void expectAnswer(r, res, 400, 'ERR_ORDER_003', `${what}: already paid`);
  const held = heldBack(m, o.merchant);
  if (held) return void expectGate(r, res, held, what);
  if (!expectAnswer(r, res, 200, undefined, what)) return undefined;
  const captured = outcome === 'success';
  expectThat(r, res.body.data.status === (captured ? 'captured' : 'failed'), `${what}: reads ${res.body.data.status}`);
  const p: MPayment = { id: res.body.data.payment_id, merchant: o.merchant, orderId: o.id, amount: o.amount, captured, gateway, settlement: null };
  m.data.payments.push(p);
  if (captured) o.paid = true;
  expectThat(r, eventsAbout(r, p.id, captured ? 'PAYMENT_SUCCESSFUL' : 'PAYMENT_FAILED') === 1, `${what}: no ${captured ? 'PAYMENT_SUCCESSFUL' : 'PAYMENT_FAILED'} event about ${p.id}`);
  return p;
}

async function refund(m: Model, r: Real, actor: Actor, p: MPayment, amount: number): Promise<MRefund | undefined> {
  const { res, faulted } = await send(m, r, actor, api.refund(p.id, fmt(amount)));
  if (faulted) return undefined;
  const what = `refund ${fmt(amount)} of ${p.id} (${p.merchant}, ${fmt(p.amount)}, ${fmt(counted(m.data, p.id))} counted) as ${actor}`;
  if (!visible(actor, p.merchant)) return void expectAnswer(r, res, 404, undefined, what);
  if (!p.captured) return void expectAnswer(r, res, 400, 'ERR_REFUND_001', `${what}: not captured`);
  if (amount > room(m.data, p)) return void expectAnswer(r, res, 400, 'ERR_REFUND_002', `${what}: more than is left`);
  if (!expectAnswer(r, res, 200, undefined, what)) return undefined;
  expectThat(r, res.body.data.refund_status === 'initiated' && res.body.data.refund_amount === amount / 100, `${what}: reads ${JSON.stringify(res.body.data)}`);
  const x: MRefund = { id: res.body.data.refund_id, paymentId: p.id, merchant: p.merchant, amount, status: 'initiated', settlement: null };
  m.data.refunds.push(x);
  count(r, 'refund made');
  return x;
}

async function chargeback(m: Model, r: Real, actor: Actor, p: MPayment, amount: number): Promise<void> {
  const { res, faulted } = await send(m, r, actor, api.chargeback(p.id, fmt(amount)));
  if (faulted) return;
  const what = `chargeback ${fmt(amount)} on ${p.id} (${p.merchant}, ${fmt(p.amount)}, ${fmt(counted(m.data, p.id))} counted) as ${actor}`;
  if (!visible(actor, p.merchant)) return void expectAnswer(r, res, 404, undefined, what);
  if (!p.captured) return void expectAnswer(r, res, 400, 'ERR_CHARGEBACK_001', `${what}: not captured`);
  // I1: a chargeback never takes back more than is left.
  if (amount > room(m.data, p)) return void expectAnswer(r, res, 400, 'ERR_CHARGEBACK_002', `${what}: more than is left`);
  if (!expectAnswer(r, res, 200, undefined, what)) return;
  m.data.chargebacks.push({ id: res.body.data.chargeback_id, paymentId: p.id, merchant: p.merchant, amount, settlement: null });
  count(r, 'chargeback made');
}

const REFUND_EVENT: Record<RefundStatus, string | null> = {
  initiated: null,
  refunded: 'PAYMENT_REFUNDED',
  failed: 'REFUND_FAILED',
  processing: 'REFUND_STATUS_UPDATE',
  reversed: 'REFUND_STATUS_UPDATE',
  on_hold: 'REFUND_STATUS_UPDATE',
  bank_rejected_refund: 'REFUND_STATUS_UPDATE',
};

async function simulateRefund(m: Model, r: Real, actor: Actor, x: MRefund, status: RefundStatus): Promise<void> {
  const type = REFUND_EVENT[status];
  const eventsBefore = type ? eventsAbout(r, x.id, type) : 0;
  const { res, faulted } = await send(m, r, actor, api.refundStatus(x.id, status.toUpperCase()));
  if (faulted) return;
  const p = m.data.payments.find((y) => y.id === x.paymentId)!;
  const what = `refund ${x.id} (${x.merchant}, ${fmt(x.amount)} of ${p.id} ${fmt(p.amount)}) ${x.status} → ${status.toUpperCase()} as ${actor}`;
  if (!visible(actor, x.merchant)) return void expectAnswer(r, res, 404, undefined, what);
  if (p.gateway !== SIMULATOR) return void expectAnswer(r, res, 400, 'ERR_REFUND_002', `${what}: not on the simulator`);
  const changed = x.status !== status;
  // I1, the one exception to vendor 2.4's "any status may follow any other" (issue 31 item 1).
  if (changed && COUNTING.has(status) && !COUNTING.has(x.status) && x.amount > room(m.data, p)) {
    count(r, 'simulate refused (I1)');
    return void expectAnswer(r, res, 400, 'ERR_REFUND_002', `${what}: would count ${fmt(counted(m.data, p.id) + x.amount)} against ${fmt(p.amount)} captured`);
  }
  if (!expectAnswer(r, res, 200, undefined, what)) return;
  expectThat(r, res.body.data.refund_status === status, `${what}: reads ${res.body.data.refund_status}`);
  x.status = status;
  if (type) expectThat(r, eventsAbout(r, x.id, type) === eventsBefore + (changed ? 1 : 0), `${what}: ${changed ? 'one' : 'no'} new ${type} expected, ${eventsAbout(r, x.id, type) - eventsBefore} made`);
}

interface Batch {
  payments: string[];
  refunds: string[];
  chargebacks: string[];
}

async function markSettled(m: Model, r: Real, actor: Actor, batch: Batch): Promise<void> {
  const { res, faulted } = await send(m, r, actor, api.markSettled(batch.payments, batch.refunds, batch.chargebacks));
  if (faulted) return;
  const what = `mark-settled ${JSON.stringify(batch)} as ${actor}`;
  // spec 4.6 rules 1-3 in the sandbox's order: per category the first problem; the owner is the first row that passes.
  let owner: Account | undefined;
  const d = m.data;
  const firstProblem = <T extends { id: string; merchant: Account }>(uids: string[], rows: readonly T[], why: (row: T) => string | null): string | null => {
    const seen = new Set<string>();
    for (const uid of uids) {
      if (seen.has(uid)) return `${uid} appears more than once`;
      seen.add(uid);
      const row = rows.find((x) => x.id === uid);
      if (!row || !visible(actor, row.merchant)) return `${uid} not found`;
      const problem = why(row);
      if (problem) return problem;
      owner ??= row.merchant;
      if (row.merchant !== owner) return `${uid} belongs to another merchant`;
    }
    return null;
  };
  const problems = [
    firstProblem(batch.payments, d.payments, (p) =>
      p.gateway !== SIMULATOR ? 'not on the simulator' : !p.captured ? 'not captured' : p.settlement ? 'already settled' : p.verification !== undefined && !SETTLEABLE.has(p.verification) ? 'not verified' : null,
    ),
    // I1 (issue 42): a refund of a payment rejected or expired in verification is never debited.
    firstProblem(batch.refunds, d.refunds, (x) =>
      x.settlement ? 'already settled' : !COUNTING.has(x.status) ? `is ${x.status}` : NEVER_SETTLED.has(d.payments.find((p) => p.id === x.paymentId)?.verification ?? '') ? 'refunds a payment rejected or expired in verification' : null,
    ),
    firstProblem(batch.chargebacks, d.chargebacks, (x) => (x.settlement ? 'already settled' : null)),
  ].filter((x) => x !== null);
  if (problems.length > 0) {
    count(r, 'mark-settled refused');
    return void expectAnswer(r, res, 400, 'ERR_SERVICE_ERROR_000', `${what}: ${problems.join('; ')}`);
  }
  const payments = batch.payments.map((id) => d.payments.find((p) => p.id === id)!);
  const refunds = batch.refunds.map((id) => d.refunds.find((x) => x.id === id)!);
  const chargebacks = batch.chargebacks.map((id) => d.chargebacks.find((x) => x.id === id)!);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const amount = sum(payments.map((p) => breakdown(p.amount).net)) - sum(refunds.map((x) => x.amount)) - sum(chargebacks.map((x) => x.amount));
  // I1: a settlement is never negative.
  if (amount < 0) {
    count(r, 'mark-settled refused (negative)');
    return void expectAnswer(r, res, 400, 'ERR_SERVICE_ERROR_000', `${what}: would settle ${fmt(amount)}`);
  }
  if (!expectAnswer(r, res, 200, undefined, what)) return;
  count(r, 'mark-settled accepted');
  expectThat(r, res.body.data.settlement_amount === fmt(amount), `${what}: settles ${res.body.data.settlement_amount}, the model ${fmt(amount)}`);
  const id = res.body.data.settlement_id as string;
  d.settlements.push({ id, merchant: owner!, amount });
  for (const x of [...payments, ...refunds, ...chargebacks]) x.settlement = id;
  for (const p of payments) if (p.verification !== undefined) p.verification = 'SETTLED';
}

/** 11.10 P5: a payment under verification settles only from these. */
const SETTLEABLE = new Set(['VERIFIED', 'READY_FOR_SETTLEMENT']);
/** vendor 11.3: refunded in full by the gateway, never settled; their refunds are never debited (I1). */
const NEVER_SETTLED = new Set(['EXPIRED', 'REJECTED']);

/** The gateway's own full refund of what is left (vendor 11.3: a verification rejected or expired), read back from the sandbox. */
function refundWhatIsLeft(m: Model, r: Real, p: MPayment, what: string): void {
  const left = room(m.data, p);
  if (left <= 0) return;
  const row = r.w.q('SELECT refund_id, amount FROM refunds WHERE payment_id = ? ORDER BY rowid DESC LIMIT 1').get(p.id) as { refund_id: string; amount: string } | undefined;
  if (!expectThat(r, row !== undefined && paise(row.amount) === left, `${what}: no refund of what was left (${fmt(left)}): ${JSON.stringify(row)}`)) return;
  m.data.refunds.push({ id: row!.refund_id, paymentId: p.id, merchant: p.merchant, amount: left, status: 'initiated', settlement: null });
}

/** Too close to the clock's reading to say on which side of it the sandbox decided (it reads its clock a moment later). */
const NEAR_MICROS = 5e6;
const openVerification = (p: MPayment) => p.deadline !== undefined && !p.settlement && (p.verification === 'ACTION_REQUIRED' || p.verification === 'INFO_PENDING');

/**
 * 11.10 P9 on the sandbox clock (issue 42): after every step, an open card verification whose
 * deadline its tree's clock has passed is EXPIRED and refunded in full; one whose deadline is
 * still ahead is not. A deadline within NEAR_MICROS of the reading follows the sandbox.
 */
async function expireByClock(m: Model, r: Real): Promise<void> {
  const open = m.data.payments.filter(openVerification);
  if (open.length === 0) return;
  const nows = new Map<Tree, number>();
  for (const p of open) {
    const t = treeOf(p.merchant);
    if (!nows.has(t)) nows.set(t, (await r.w.readClock(t)).micros);
    const now = nows.get(t)!;
    const state = (r.w.q('SELECT settlement_status AS s FROM payments WHERE payment_id = ?').get(p.id) as { s: string | null } | undefined)?.s;
    const what = `verification of ${p.id} (${p.merchant}), deadline ${new Date(p.deadline! / 1000).toISOString()}, clock ${new Date(now / 1000).toISOString()}`;
    const due = Math.abs(p.deadline! - now) < NEAR_MICROS ? state === 'EXPIRED' : p.deadline! <= now;
    if (!expectThat(r, (state === 'EXPIRED') === due, `${what}: ${due ? 'past its deadline and not' : 'before its deadline and already'} EXPIRED (${state})`)) continue;
    if (!due) continue;
    count(r, 'verification expired on the clock');
    p.verification = 'EXPIRED';
    refundWhatIsLeft(m, r, p, what);
  }
}

// ---- the commands -------------------------------------------------------------------------------

const amountArb = fc.oneof(fc.constantFrom(10_000, 100_000, 2_500_050), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 1_000_000_000 }));
/** PGW_MODEL_ACTORS=M1,M2: only these actors (to aim at one defect). */
const ACTING: readonly Actor[] = (() => {
  const only = (process.env.PGW_MODEL_ACTORS ?? '').split(',').map((s) => s.trim()).filter((s): s is Actor => (ACTORS as readonly string[]).includes(s));
  return only.length > 0 ? only : ACTORS;
})();
const actorArb = fc.constantFrom(...ACTING);
const TRIGGERING = ACTING.filter((a) => a !== 'P');
const n: fc.Arbitrary<Pick> = fc.record({ i: fc.nat({ max: 1000 }), any: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) });
const nat = fc.nat({ max: 1000 });

export class CreateOrder extends Step {
  readonly kind = 'CreateOrder';
  constructor(
    readonly actor: Actor,
    readonly amount: number,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    await createOrder(m, r, this.actor, this.amount);
    return 'actor';
  }
  toString = () => `CreateOrder(${this.actor}, ${fmt(this.amount)})`;
}

export class Pay extends Step {
  constructor(
    readonly kind: 'Pay' | 'FailPayment',
    readonly actor: Actor,
    readonly n: Pick,
    readonly gateway = SIMULATOR,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.orders.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    await pay(m, r, this.actor, choose(m.data.orders, this.actor, this.n), this.kind === 'Pay' ? 'success' : 'fail', this.gateway);
    return 'actor';
  }
  toString = () => `${this.kind}(${this.actor}, order ${show(this.n)}${this.gateway !== SIMULATOR ? `, ${this.gateway}` : ''})`;
}

export class Refund extends Step {
  readonly kind = 'Refund';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly permille: number,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.payments.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const p = choose(m.data.payments, this.actor, this.n);
    await refund(m, r, this.actor, p, Math.max(1, Math.floor((p.amount * this.permille) / 1000)));
    return 'actor';
  }
  toString = () => `Refund(${this.actor}, payment ${show(this.n)}, ${this.permille / 10}%)`;
}

export class Chargeback extends Step {
  readonly kind = 'Chargeback';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly permille: number,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.payments.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const p = choose(m.data.payments, this.actor, this.n);
    await chargeback(m, r, this.actor, p, Math.max(1, Math.floor((p.amount * this.permille) / 1000)));
    return 'actor';
  }
  toString = () => `Chargeback(${this.actor}, payment ${show(this.n)}, ${this.permille / 10}%)`;
}

export class RefundSimulate extends Step {
  readonly kind = 'RefundSimulate';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly status: RefundStatus,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.refunds.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    await simulateRefund(m, r, this.actor, choose(m.data.refunds, this.actor, this.n), this.status);
    return 'actor';
  }
  toString = () => `RefundSimulate(${this.actor}, refund ${show(this.n)}, ${this.status.toUpperCase()})`;
}

/** Mark-settled of picked payments, refunds and chargebacks: mostly among the actor's own unsettled ones, at times anything. */
export class MarkSettled extends Step {
  readonly kind = 'MarkSettled';
  constructor(
    readonly actor: Actor,
    readonly pays: number[],
    readonly refunds: number[],
    readonly chargebacks: number[],
    readonly openOnly: boolean,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.payments.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const d = m.data;
    const mine = <T extends { merchant: Account; settlement: string | null }>(xs: T[]) => (this.openOnly ? xs.filter((x) => visible(this.actor, x.merchant) && x.settlement === null) : xs);
    const ids = <T extends { id: string }>(xs: T[], picks: number[]) => (xs.length === 0 ? [] : [...new Set(picks.map((i) => pick(xs, i).id))]);
    const payments = mine(d.payments.filter((p) => !this.openOnly || (p.captured && p.gateway === SIMULATOR)));
    if (payments.length === 0) return 'actor';
    await markSettled(m, r, this.actor, { payments: ids(payments, this.pays), refunds: ids(mine(d.refunds), this.refunds), chargebacks: ids(mine(d.chargebacks), this.chargebacks) });
    return 'actor';
  }
  toString = () => `MarkSettled(${this.actor}, payments #${this.pays}, refunds #${this.refunds}, chargebacks #${this.chargebacks}${this.openOnly ? '' : ', any'})`;
}

export class SubCreate extends Step {
  readonly kind = 'SubCreate';
  constructor(
    readonly actor: Actor,
    readonly amount: number,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const { res, faulted } = await send(m, r, this.actor, api.createSubscription(fmt(this.amount)));
    if (faulted) return 'actor';
    const held = heldBack(m, this.actor);
    if (held) return void expectGate(r, res, held, `${this}`), 'actor';
    if (!expectAnswer(r, res, 200, undefined, `${this}`)) return 'actor';
    m.data.subs.push({ uid: res.body.data.uid, merchant: this.actor, amount: this.amount });
    return 'actor';
  }
  toString = () => `SubCreate(${this.actor}, ${fmt(this.amount)})`;
}

export class SubSimulate extends Step {
  readonly kind = 'SubSimulate';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly success: boolean,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.subs.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const s = choose(m.data.subs, this.actor, this.n);
    const { res, faulted } = await send(m, r, this.actor, api.simulateSubscription(s.uid, this.success ? 'SUCCESS' : 'FAILED'));
    const what = `${this} on ${s.uid} of ${s.merchant}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, s.merchant)) return void expectAnswer(r, res, 404, undefined, what), 'actor';
    const held = heldBack(m, s.merchant);
    if (held) return void expectGate(r, res, held, what), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    const id = res.body.data.payment_id as string;
    const orderId = (r.w.q('SELECT order_id FROM payments WHERE payment_id = ?').get(id) as { order_id: string } | undefined)?.order_id;
    if (!expectThat(r, orderId !== undefined, `${what}: payment ${id} not found`)) return 'actor';
    m.data.orders.push({ id: orderId!, merchant: s.merchant, amount: s.amount, paid: this.success });
    m.data.payments.push({ id, merchant: s.merchant, orderId: orderId!, amount: s.amount, captured: this.success, gateway: SIMULATOR, settlement: null });
    return 'actor';
  }
  toString = () => `SubSimulate(${this.actor}, subscription ${show(this.n)}, ${this.success ? 'SUCCESS' : 'FAILED'})`;
}

/** The link's state on its tree's clock (spec 3.1; issue 21 item 5: an order paid another way closes it). */
function linkActive(m: Model, l: MLink, nowMicros: number): boolean {
  const o = m.data.orders.find((x) => x.id === l.orderId);
  return !l.deactivated && !o?.paid && nowMicros < stampMicros(l.expiresAt);
}

export class LinkCreate extends Step {
  readonly kind = 'LinkCreate';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly seconds: number,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.orders.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const o = choose(m.data.orders, this.actor, this.n);
    const now = (await r.w.readClock(treeOf(o.merchant))).micros;
    const { res, faulted } = await send(m, r, this.actor, api.createLink(o.id, this.seconds));
    const what = `${this} for ${o.id} (${o.merchant})`;
    if (faulted) return 'actor';
    if (!visible(this.actor, o.merchant)) return void expectAnswer(r, res, 404, undefined, what), 'actor';
    if (o.paid) return void expectAnswer(r, res, 400, 'ERR_LINK_002', `${what}: paid`), 'actor';
    const held = heldBack(m, o.merchant);
    if (held) return void expectGate(r, res, held, what), 'actor';
    // An expiry past the calendar (I5) is refused; within a second of its end either answer may come
    // (the sandbox reads its clock after this step did), and an accepted stamp must be a real date (checkCalendar).
    const end = now + this.seconds * 1e6;
    if (end > CALENDAR_END_MICROS + 1e6) return void expectAnswer(r, res, 400, 'ERR_VALIDATION_000', `${what}: its expiry passes 9999`), 'actor';
    if (end > CALENDAR_END_MICROS - 1e6 && res.status === 400) return 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    const token = /\/p\/([^/]+)\/$/.exec(String(res.body.data.payment_link))?.[1];
    m.data.links.push({ id: res.body.data.link_id, orderId: o.id, merchant: o.merchant, expiresAt: res.body.data.expiry_date, deactivated: false, token, shares: 0 });
    return 'actor';
  }
  toString = () => `LinkCreate(${this.actor}, order ${show(this.n)}, ${this.seconds} s)`;
}

export class LinkDeactivate extends Step {
  readonly kind = 'LinkDeactivate';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.links.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const l = choose(m.data.links, this.actor, this.n);
    const active = linkActive(m, l, (await r.w.readClock(treeOf(l.merchant))).micros);
    const { res, faulted } = await send(m, r, this.actor, api.deactivateLink(l.id));
    const what = `${this}: ${l.id} (${l.merchant})`;
    if (faulted) return 'actor';
    if (!visible(this.actor, l.merchant)) return void expectAnswer(r, res, 404, undefined, what), 'actor';
    if (!active) return void expectAnswer(r, res, 400, 'ERR_ORDER_002', `${what}: not active`), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    l.deactivated = true;
    expectThat(r, eventsAbout(r, l.id, 'PAYMENT_FAILED') >= 1, `${what}: no PAYMENT_FAILED for the link`);
    return 'actor';
  }
  toString = () => `LinkDeactivate(${this.actor}, link ${show(this.n)})`;
}

/** A link expires: its own account moves its tree's clock past the expiry (announced with PAYMENT_FAILED, N13). */
export class LinkExpire extends Step {
  readonly kind = 'LinkExpire';
  actor: Actor = 'M1';
  constructor(readonly n: Pick) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.links.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const l = pick(m.data.links, this.n.i);
    this.actor = l.merchant;
    const now = (await r.w.readClock(treeOf(l.merchant))).micros;
    const active = linkActive(m, l, now);
    const exp = stampMicros(l.expiresAt);
    const seconds = exp > now ? Math.ceil((exp - now) / 1e6) + 1 : 1;
    // An advance is at most ten years: further, the clock is set just past the expiry.
    const body = seconds > 316_224_000 ? { set: new Date(Math.floor(exp / 1000) + 1000).toISOString() } : { advance_seconds: seconds };
    await clockMove(m, r, this.actor, body, now, `${this}: ${l.id} of ${l.merchant}, ${seconds} s on`);
    if (active && now + seconds * 1e6 <= CALENDAR_END_MICROS) {
      expectThat(r, eventsAbout(r, l.id, 'PAYMENT_FAILED') >= 1, `${this}: ${l.id} expired unpaid and no PAYMENT_FAILED announced it`);
    }
    return 'tree';
  }
  toString = () => `LinkExpire(link #${this.n.i})`;
}

/**
 * A card verification runs out (11.10 P9, issue 42): its own account moves its tree's clock past
 * the deadline; the move says it expired it and refunded what was left (clockMove's caused), and
 * the step after holds the payment EXPIRED with that refund, never debited by a settlement (I1).
 */
export class VerificationExpire extends Step {
  readonly kind = 'VerificationExpire';
  actor: Actor = 'M1';
  constructor(readonly n: Pick) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.payments.some(openVerification);
  protected async act(m: Model, r: Real): Promise<Scope> {
    const open = m.data.payments.filter(openVerification);
    if (open.length === 0) return 'none';
    const p = pick(open, this.n.i);
    this.actor = p.merchant;
    const now = (await r.w.readClock(treeOf(p.merchant))).micros;
    const seconds = p.deadline! > now ? Math.ceil((p.deadline! - now) / 1e6) + 1 : 1;
    if (now + seconds * 1e6 > CALENDAR_END_MICROS) return 'none';
    const body = seconds > 316_224_000 ? { set: new Date(Math.floor(p.deadline! / 1000) + 1000).toISOString() } : { advance_seconds: seconds };
    await clockMove(m, r, this.actor, body, now, `${this}: ${p.id} of ${p.merchant}, ${seconds} s on`);
    return 'tree';
  }
  toString = () => `VerificationExpire(payment #${this.n.i})`;
}

/** vendor 6 / beyond 3.1 (issue 42): a payment link as the vendor's client makes it, its own order and an expiry on the tree's clock. */
export class PgLinkCreate extends Step {
  readonly kind = 'PgLinkCreate';
  constructor(
    readonly actor: Actor,
    readonly amount: number,
    readonly seconds: number,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const now = (await r.w.readClock(treeOf(this.actor))).micros;
    // I5: an expiry past the calendar is no time at all (refused as the body's).
    const end = now + this.seconds * 1e6;
    if (Math.abs(end - CALENDAR_END_MICROS) < NEAR_MICROS) return 'none';
    const expiry = end > CALENDAR_END_MICROS ? '+010000-01-01T00:00:00.000Z' : new Date(Math.floor(end / 1000)).toISOString();
    const body = { amount: fmt(this.amount), reference_id: `model-link-${r.w.run}-${++r.seq}`, expiry_date: expiry, product: { description: 'Model link' } };
    const { res, faulted } = await send(m, r, this.actor, api.createPaymentLink(body));
    const what = `${this} expiring ${expiry}`;
    if (faulted) return 'actor';
    // The body is checked first (an expiry past 9999 is no time), then vendor N4: a PSP names the sub-merchant it creates for.
    if (this.amount > 1_000_000_000 || end > CALENDAR_END_MICROS) return void expectAnswer(r, res, 400, 'ERR_ORDER_002', `${what}: past an order's limit or 9999`), 'actor';
    if (this.actor === 'P') return void expectAnswer(r, res, 401, 'ERR_AUTH_000', what), 'actor';
    // issue 45: only an APPROVED sub-merchant takes money, by a link as by an order.
    const held = heldBack(m, this.actor);
    if (held) return void expectGate(r, res, held, what), 'actor';
    if (!expectAnswer(r, res, 201, undefined, what)) return 'actor';
    const data = res.body.data;
    const token = /\/p\/([^/]+)\/$/.exec(String(data.payment_link))?.[1];
    if (!expectThat(r, typeof data.order_id === 'string' && data.link_id === data.payment_id && token !== undefined, `${what}: reads ${JSON.stringify(data)}`)) return 'actor';
    m.data.orders.push({ id: data.order_id, merchant: this.actor, amount: this.amount, paid: false });
    m.data.links.push({ id: data.link_id, orderId: data.order_id, merchant: this.actor, expiresAt: data.expiry_date, deactivated: false, token, shares: 0 });
    return 'actor';
  }
  toString = () => `PgLinkCreate(${this.actor}, ${fmt(this.amount)}, ${this.seconds} s)`;
}

/** beyond 3.4 extend_expiry: an active link only, to a later expiry within 365 days. */
export class LinkExtend extends Step {
  readonly kind = 'LinkExtend';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly seconds: number,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.links.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const l = choose(m.data.links, this.actor, this.n);
    const now = (await r.w.readClock(treeOf(l.merchant))).micros;
    const from = Math.max(stampMicros(l.expiresAt), now);
    const end = from + this.seconds * 1e6;
    if (end > CALENDAR_END_MICROS - NEAR_MICROS) return 'none';
    const expiry = new Date(Math.floor(end / 1000)).toISOString();
    const { res, faulted } = await send(m, r, this.actor, api.extendLink(l.id, expiry));
    const what = `${this}: ${l.id} (${l.merchant}) from ${l.expiresAt} to ${expiry}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, l.merchant)) {
      // The body is checked first, against the caller's own clock (another tree's): in the future, within 365 days.
      const own = (await r.w.readClock(treeOf(this.actor))).micros;
      if (Math.abs(end - own) < NEAR_MICROS || Math.abs(end - own - 365 * 86_400e6) < NEAR_MICROS) return 'actor';
      const bodyOk = end > own && end <= own + 365 * 86_400e6;
      return void expectAnswer(r, res, bodyOk ? 404 : 400, bodyOk ? undefined : 'ERR_ORDER_002', what), 'actor';
    }
    // Within a moment of its expiry the sandbox may read either side of it.
    if (Math.abs(stampMicros(l.expiresAt) - now) < NEAR_MICROS) {
      if (res.status === 200) l.expiresAt = res.body.data.expiry_date;
      return 'actor';
    }
    if (!linkActive(m, l, now)) return void expectAnswer(r, res, 400, 'ERR_ORDER_002', `${what}: not active`), 'actor';
    if (from + this.seconds * 1e6 > now + 365 * 86_400e6) return void expectAnswer(r, res, 400, 'ERR_ORDER_002', `${what}: more than 365 days ahead`), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    expectThat(r, stampMicros(res.body.data.expiry_date) > stampMicros(l.expiresAt), `${what}: reads ${res.body.data.expiry_date}`);
    l.expiresAt = res.body.data.expiry_date;
    count(r, 'link extended');
    return 'actor';
  }
  toString = () => `LinkExtend(${this.actor}, link ${show(this.n)}, ${this.seconds} s)`;
}

/** vendor 6 share: recorded on the link, nothing sent. */
export class LinkShare extends Step {
  readonly kind = 'LinkShare';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.links.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const l = choose(m.data.links, this.actor, this.n);
    const { res, faulted } = await send(m, r, this.actor, api.shareLink(l.id));
    const what = `${this}: ${l.id} (${l.merchant})`;
    if (faulted) return 'actor';
    if (!visible(this.actor, l.merchant)) return void expectAnswer(r, res, 404, undefined, what), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    l.shares = (l.shares ?? 0) + 1;
    expectThat(r, Array.isArray(res.body.data.shares) && res.body.data.shares.length === l.shares, `${what}: ${l.shares} shares expected, reads ${JSON.stringify(res.body.data.shares)}`);
    return 'actor';
  }
  toString = () => `LinkShare(${this.actor}, link ${show(this.n)})`;
}

/** A buyer on the link's page (`/p/<token>/`, served by `sandbox serve`): Pay or Fail while it is active, 410 after. */
export class LinkPagePay extends Step {
  readonly kind = 'LinkPagePay';
  actor: Actor = 'M1';
  constructor(
    readonly n: Pick,
    readonly success: boolean,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.links.some((l) => l.token !== undefined);
  protected async act(m: Model, r: Real): Promise<Scope> {
    if (r.w.transport !== 'http') return 'none';
    const l = pick(m.data.links.filter((x) => x.token !== undefined), this.n.i);
    this.actor = l.merchant;
    const now = (await r.w.readClock(treeOf(l.merchant))).micros;
    if (Math.abs(stampMicros(l.expiresAt) - now) < NEAR_MICROS) return 'none';
    const o = m.data.orders.find((x) => x.id === l.orderId)!;
    const active = linkActive(m, l, now);
    const res = await r.w.page(`/p/${l.token}/`, this.success ? 'success' : 'fail');
    const what = `${this}: ${l.id} (${l.merchant})`;
    if (!active) return void expectThat(r, res.status === 410, `${what}: not active, the page answered ${res.status}`), 'actor';
    // issue 45: the buyer's page of a sub-merchant that is not APPROVED takes no payment.
    if (heldBack(m, l.merchant)) return void (count(r, 'kyc gate refused'), expectThat(r, res.status === 403, `${what}: its merchant is not approved, the page answered ${res.status}`)), 'actor';
    if (!expectThat(r, res.status === 200 || res.status === 303, `${what}: the page answered ${res.status}`)) return 'actor';
    const row = r.w.q('SELECT payment_id, status FROM payments WHERE link_id = ? ORDER BY rowid DESC LIMIT 1').get(l.id) as { payment_id: string; status: string } | undefined;
    if (!expectThat(r, row?.status === (this.success ? 'captured' : 'failed'), `${what}: the link's newest payment is ${JSON.stringify(row)}`)) return 'actor';
    m.data.payments.push({ id: row!.payment_id, merchant: l.merchant, orderId: o.id, amount: o.amount, captured: this.success, gateway: SIMULATOR, settlement: null });
    if (this.success) o.paid = true;
    expectThat(r, eventsAbout(r, row!.payment_id, this.success ? 'PAYMENT_SUCCESSFUL' : 'PAYMENT_FAILED') === 1, `${what}: no event about ${row!.payment_id}`);
    count(r, `link page ${this.success ? 'paid' : 'failed'}`);
    return 'actor';
  }
  toString = () => `LinkPagePay(link #${this.n.i}, ${this.success ? 'Pay' : 'Fail'})`;
}

export class WebhookAdd extends Step {
  readonly kind = 'WebhookAdd';
  constructor(readonly actor: Actor) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.webhooks.filter((h) => h.merchant === this.actor).length < 2;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const url = r.w.receiver.url(r.w.run, this.actor, ++r.seq);
    const { res, faulted } = await send(m, r, this.actor, api.addWebhook(url));
    if (faulted || !expectAnswer(r, res, 200, undefined, `${this}`)) return 'actor';
    m.data.webhooks.push({ id: res.body.data.id, merchant: this.actor, url });
    return 'actor';
  }
  toString = () => `WebhookAdd(${this.actor})`;
}

/** The test's receiver: every address of `account` answers `status` from now on. Not a sandbox operation. */
export class ReceiverAnswers extends Step {
  readonly kind = 'ReceiverAnswers';
  readonly actor = 'test' as const;
  constructor(
    readonly account: Account,
    readonly status: number,
  ) {
    super();
  }
  protected async act(_m: Model, r: Real): Promise<Scope> {
    r.w.receiver.answer(r.w.run, this.account, this.status);
    return 'none';
  }
  toString = () => `ReceiverAnswers(${this.account}'s addresses, ${this.status})`;
}

type TriggerEvent = 'PAYMENT_SUCCESSFUL' | 'PAYMENT_FAILED' | 'PAYMENT_SETTLED' | 'PAYMENT_REFUNDED';

/** `pgw trigger <EVENT>` (src/commands/trigger/run.ts): the operations a client makes, in its order. */
export class Trigger extends Step {
  readonly kind = 'Trigger';
  constructor(
    readonly actor: Actor,
    readonly event: TriggerEvent,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const o = await createOrder(m, r, this.actor, 100_000);
    if (!o) return 'actor';
    const p = await pay(m, r, this.actor, o, this.event === 'PAYMENT_FAILED' ? 'fail' : 'success');
    if (!p) return 'actor';
    if (this.event === 'PAYMENT_SETTLED') await markSettled(m, r, this.actor, { payments: [p.id], refunds: [], chargebacks: [] });
    if (this.event === 'PAYMENT_REFUNDED') {
      const x = await refund(m, r, this.actor, p, room(m.data, p));
      if (x) await simulateRefund(m, r, this.actor, x, 'refunded');
    }
    return 'actor';
  }
  toString = () => `Trigger(${this.actor}, ${this.event})`;
}

/** Resend an event (any account's: another's must be as unknown as a nonexistent one). */
export class EventResend extends Step {
  readonly kind = 'EventResend';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const events = r.w.q('SELECT id, merchant_id, event_type FROM events ORDER BY created_at, event_type, id').all() as { id: string; merchant_id: string; event_type: string }[];
    if (events.length === 0) return 'none';
    const e = choose(events.map((x) => ({ ...x, merchant: r.w.accountOf(x.merchant_id)! })), this.actor, this.n);
    const owner = e.merchant;
    const { res, faulted } = await send(m, r, this.actor, api.resendEvent(e.id));
    const what = `${this}: ${e.event_type} ${e.id} of ${owner}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, owner)) return void expectAnswer(r, res, 404, 'ERR_EVENT_001', what), 'actor';
    const targets = [...m.data.webhooks, ...(m.listeners ?? [])].filter((h) => h.merchant === owner || (treeOf(owner) === 'P' && h.merchant === 'P'));
    if (targets.length === 0) return void expectAnswer(r, res, 400, 'ERR_EVENT_002', `${what}: no address`), 'actor';
    expectAnswer(r, res, 200, undefined, what);
    return 'actor';
  }
  toString = () => `EventResend(${this.actor}, event ${show(this.n)})`;
}

/** A clock move of the actor's tree, with what the model expects of it (I5: never past 9999). */
async function clockMove(m: Model, r: Real, actor: Actor, body: { advance_seconds: number } | { set: string } | { reset: true }, now: number, what: string): Promise<void> {
  const tree = treeOf(actor);
  const before = (await r.w.readClock(tree)).micros;
  const res = await r.w.moveClock(actor, body);
  if ('advance_seconds' in body && now + body.advance_seconds * 1e6 > CALENDAR_END_MICROS) {
    count(r, 'clock move refused (I5)');
    return void expectAnswer(r, res, 400, undefined, `${what}: from ${new Date(now / 1000).toISOString()} past 9999-12-31`);
  }
  if (!expectAnswer(r, res, 200, undefined, what)) return;
  checkCaused(m, r, tree, before, stampMicros(res.body.data.now), res.body.data.caused, what);
}

interface Caused {
  deliveries: { attempted: number; delivered: number; failed: number };
  links_expired: { link_id: string }[];
  verifications_expired: { payment_id: string }[];
  refunds: { payment_id: string; amount: string; reason: string }[];
  refunded_total: string;
}

/**
 * What a move says it caused (issue 42 item 5), held against the model: the links active before it
 * whose expiry it passed, the open verifications whose deadline it passed and the full refund of
 * what was left of each. Anything within NEAR_MICROS of either reading is left out of the count
 * (the sandbox reads its clock a moment apart).
 */
function checkCaused(m: Model, r: Real, tree: Tree, before: number, after: number, caused: Caused | undefined, what: string): void {
  if (!expectThat(r, caused !== undefined && typeof caused === 'object', `${what}: no caused in the answer`)) return;
  const c = caused!;
  const accounts = treeAccounts(tree);
  const near = (t: number) => Math.abs(t - before) < NEAR_MICROS || Math.abs(t - after) < NEAR_MICROS;
  const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
  const links = m.data.links.filter((l) => accounts.includes(l.merchant) && linkActive(m, l, before));
  if (!links.some((l) => near(stampMicros(l.expiresAt)))) {
    const expected = ids(links.filter((l) => stampMicros(l.expiresAt) <= after));
    expectThat(r, JSON.stringify(c.links_expired.map((l) => l.link_id).sort()) === JSON.stringify(expected), `${what}: caused.links_expired ${JSON.stringify(c.links_expired)}, the model ${JSON.stringify(expected)}`);
    if (expected.length) count(r, 'clock move expired links');
  }
  const open = m.data.payments.filter((p) => accounts.includes(p.merchant) && openVerification(p));
  if (!open.some((p) => near(p.deadline!))) {
    const due = open.filter((p) => p.deadline! > before && p.deadline! <= after);
    expectThat(r, JSON.stringify(c.verifications_expired.map((v) => v.payment_id).sort()) === JSON.stringify(ids(due)), `${what}: caused.verifications_expired ${JSON.stringify(c.verifications_expired)}, the model ${JSON.stringify(ids(due))}`);
    // Money moved by the move is named with its amount: what was left of each.
    const refunds = c.refunds.filter((x) => x.reason === 'verification expired');
    const expected = due.filter((p) => room(m.data, p) > 0).map((p) => `${p.id} ${fmt(room(m.data, p))}`).sort();
    expectThat(r, JSON.stringify(refunds.map((x) => `${x.payment_id} ${x.amount}`).sort()) === JSON.stringify(expected), `${what}: caused.refunds ${JSON.stringify(c.refunds)}, the model ${JSON.stringify(expected)}`);
    if (due.length) count(r, 'clock move expired verifications');
  }
  expectThat(r, paise(c.refunded_total) === c.refunds.reduce((s, x) => s + paise(x.amount), 0), `${what}: refunded_total ${c.refunded_total} is not the sum of ${JSON.stringify(c.refunds)}`);
  const d = c.deliveries;
  expectThat(r, d.attempted === d.delivered + d.failed && d.attempted >= 0, `${what}: caused.deliveries ${JSON.stringify(d)}`);
}

export class ClockAdvance extends Step {
  readonly kind = 'ClockAdvance';
  constructor(
    readonly actor: Actor,
    readonly seconds: number,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    await clockMove(m, r, this.actor, { advance_seconds: this.seconds }, (await r.w.readClock(treeOf(this.actor))).micros, `${this}`);
    return 'tree';
  }
  toString = () => `ClockAdvance(${this.actor}, ${this.seconds} s)`;
}

const CLOCK_SETS = ['2031-06-01T00:00:00Z', '2020-01-01T00:00:00Z', '9999-12-30T00:00:00Z', 'reset'] as const;

export class ClockSet extends Step {
  readonly kind = 'ClockSet';
  constructor(
    readonly actor: Actor,
    readonly to: (typeof CLOCK_SETS)[number],
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    await clockMove(m, r, this.actor, this.to === 'reset' ? { reset: true } : { set: this.to }, 0, `${this}`);
    return 'tree';
  }
  toString = () => `ClockSet(${this.actor}, ${this.to})`;
}

/** The machine's `pgw sandbox clock advance --all` (embedded profile, --db): every tree's clock. */
export class ClockAdvanceAll extends Step {
  readonly kind = 'ClockAdvanceAll';
  readonly actor = 'machine' as const;
  constructor(readonly seconds: number) {
    super();
  }
  protected async act(_m: Model, r: Real): Promise<Scope> {
    for (const t of TREES) if ((await r.w.readClock(t)).micros + this.seconds * 1e6 > CALENDAR_END_MICROS) return 'none';
    const moved = r.w.moveAllClocks(this.seconds);
    expectThat(r, moved.ok, `${this}: ${JSON.stringify(moved)}`);
    return 'global';
  }
  toString = () => `ClockAdvanceAll(${this.seconds} s)`;
}

const SNAPSHOT_NAMES = ['s1', 's2'] as const;

/** A snapshot over HTTP: the caller's scope, kept under the account whose credentials it sent. */
export class SnapshotSave extends Step {
  readonly kind = 'SnapshotSave';
  constructor(
    readonly actor: Actor,
    readonly name: string,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const { res, faulted } = await send(m, r, this.actor, api.saveSnapshot(this.name));
    if (faulted || !expectAnswer(r, res, 200, undefined, `${this}`)) return 'none';
    const accounts = scopeOf(this.actor);
    // issue 45: the sub-merchants the PSP created are in its scope too.
    const held = [...accounts.map((a) => r.w.ids[a]), ...(accounts.includes('P') ? m.data.newSubs.map((x) => x.id) : [])];
    expectThat(r, JSON.stringify([...(res.body.data.merchant_ids ?? [])].sort()) === JSON.stringify(held.sort()), `${this}: holds ${JSON.stringify(res.body.data.merchant_ids)}`);
    const place = credentialOf(this.actor);
    m.snapshots = m.snapshots.filter((s) => !(s.place === place && s.name === this.name));
    const offsets = r.w.treeOffsets();
    const machine = wallMicros();
    m.snapshots.push({
      place,
      name: this.name,
      accounts,
      rows: Object.fromEntries(accounts.map((a) => [a, clone(r.last.rows[a] ?? {})])),
      // The clock of each tree whose root account it holds (a sub-merchant's alone holds none).
      clocks: Object.fromEntries(TREES.filter((t) => accounts.includes(t)).map((t) => [t, machine + offsets[t]])),
      data: dataOf(m.data, accounts),
    });
    return 'none';
  }
  toString = () => `SnapshotSave(${this.actor}, ${this.name})`;
}

/** Restores one of the snapshots kept under the actor's credentials (the i-th, by name), or a name never saved there. */
export class SnapshotRestore extends Step {
  readonly kind = 'SnapshotRestore';
  name = '?';
  constructor(
    readonly actor: Actor,
    readonly i: number,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const place = credentialOf(this.actor);
    const kept = m.snapshots.filter((x) => x.place === place).sort((a, b) => (a.name < b.name ? -1 : 1));
    this.name = kept.length > 0 ? pick(kept, this.i).name : 'never-saved';
    const s = kept.find((x) => x.name === this.name);
    const before = r.last;
    const { res, faulted } = await send(m, r, this.actor, api.restoreSnapshot(this.name));
    if (faulted) return 'none';
    if (!s) return void expectAnswer(r, res, 404, 'ERR_SNAPSHOT_002', `${this}: ${this.name}`), 'none';
    const what = `${this}: ${this.name} (holding ${s.accounts.join(', ')})`;
    const outside = s.accounts.filter((a) => !scopeOf(this.actor).includes(a));
    if (outside.length > 0) {
      // I3: a restore whose snapshot holds accounts outside the caller's scope is refused, nothing changed.
      count(r, 'restore refused (scope)');
      if (res.status === 200) {
        const after = takeDigest(r.w);
        const changed = scopeOf(this.actor).flatMap((a) => describeChanges(before, after, a));
        r.violations.push(`I3: ${what} by ${this.actor} was accepted, though the snapshot holds ${outside.join(', ')}, outside ${this.actor}'s scope${changed.length ? `; ${changed.join('; ')}` : ''}`);
      } else expectAnswer(r, res, 400, 'ERR_SNAPSHOT_005', what);
      return 'actor';
    }
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    count(r, 'restore accepted');
    // I3, read at once: nothing of the sandbox's own has run since (the dispatcher's timer is the test's).
    r.violations.push(...checkRestore(what, s.accounts, s.rows, before, takeDigest(r.w)));
    r.violations.push(...checkClocksBack(r, what, s.clocks ?? {}));
    this.clocks = Object.keys(s.clocks ?? {}) as Tree[];
    replaceData(m.data, s.accounts, s.data);
    return 'actor';
  }
  toString = () => `SnapshotRestore(${this.actor}, its snapshot #${this.i})`;
}

/** I3: a restored tree's clock reads what it read when the snapshot was saved (then runs on: a minute's slack). */
function checkClocksBack(r: Real, what: string, saved: Record<string, number>): string[] {
  const offsets = r.w.treeOffsets();
  const machine = wallMicros();
  return Object.entries(saved).flatMap(([t, at]) => {
    const drift = machine + offsets[t as Tree] - at;
    return Math.abs(drift) > 60e6 ? [`I3: after ${what}, ${t}'s clock is ${Math.round(drift / 1e6)} s from what it read when saved`] : [];
  });
}

function describeChanges(before: Digest, after: Digest, acc: Account): string[] {
  const a = before.rows[acc] ?? {};
  const b = after.rows[acc] ?? {};
  const out: string[] = [];
  for (const t of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[t] ?? [];
    const y = b[t] ?? [];
    if (x.length !== y.length || x.some((row, i) => row !== y[i])) out.push(`${acc}'s ${t}: ${x.length} → ${y.length} rows`);
  }
  return out;
}

/** A snapshot of the whole database, as the CLI's embedded path and --db take it (snapshots.ts, no scope). */
export class SnapshotSaveGlobal extends Step {
  readonly kind = 'SnapshotSaveGlobal';
  readonly actor = 'machine' as const;
  constructor(readonly name: string) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const offsets = r.w.treeOffsets();
    const saved = r.w.saveGlobal(this.name);
    if (!expectThat(r, saved.ok, `${this}: ${JSON.stringify(saved)}`)) return 'global';
    const machine = wallMicros();
    m.snapshots = m.snapshots.filter((s) => !(s.place === 'global' && s.name === this.name));
    m.snapshots.push({
      place: 'global',
      name: this.name,
      accounts: [...ACCOUNTS],
      rows: Object.fromEntries(ACCOUNTS.map((a) => [a, clone(r.last.rows[a] ?? {})])),
      clocks: Object.fromEntries(TREES.map((t) => [t, machine + offsets[t]])),
      data: clone(m.data),
    });
    return 'global';
  }
  toString = () => `SnapshotSaveGlobal(${this.name})`;
}

export class SnapshotRestoreGlobal extends Step {
  readonly kind = 'SnapshotRestoreGlobal';
  readonly actor = 'machine' as const;
  constructor(readonly name: string) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const s = m.snapshots.find((x) => x.place === 'global' && x.name === this.name);
    const before = r.last;
    const restored = r.w.restoreGlobal(this.name);
    if (!s) return void expectThat(r, !restored.ok && restored.status === 404, `${this}: no such snapshot, got ${JSON.stringify(restored)}`), 'global';
    if (!expectThat(r, restored.ok, `${this}: ${JSON.stringify(restored)}`)) return 'global';
    r.violations.push(...checkRestore(`${this}`, ACCOUNTS, s.rows, before, takeDigest(r.w)));
    // The clocks come back too (docs/sandbox.md: "everything as it was, the sandbox clock too").
    r.violations.push(...checkClocksBack(r, `${this}`, s.clocks ?? {}));
    m.data = clone(s.data);
    return 'global';
  }
  toString = () => `SnapshotRestoreGlobal(${this.name})`;
}

/** POST /sandbox/reset/: the caller's data emptied (a PSP's includes its sub-merchants), accounts kept. */
export class Reset extends Step {
  readonly kind = 'Reset';
  constructor(readonly actor: Actor) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const { res, faulted } = await send(m, r, this.actor, api.reset());
    if (faulted || !expectAnswer(r, res, 200, undefined, `${this}`)) return 'actor';
    const after = takeDigest(r.w);
    for (const a of scopeOf(this.actor)) {
      const left = Object.entries(after.rows[a] ?? {}).filter(([t, rows]) => t !== 'merchants' && rows.length > 0);
      if (left.length > 0) r.violations.push(`I2: ${this} left ${a}'s ${left.map(([t, rows]) => `${t} (${rows.length})`).join(', ')}`);
    }
    // A reset keeps the accounts, and so their kyc_status (issue 45).
    replaceData(m.data, scopeOf(this.actor), { ...emptyData(), kyc: m.data.kyc });
    return 'actor';
  }
  toString = () => `Reset(${this.actor})`;
}

const FAULT_ROUTES = ['POST /pg/refunds/', 'POST /sandbox/orders/*/pay/', 'POST /pg/refunds/*/simulate-status/', '* /pg/**', 'POST /pg/settlements/mark-settled/'] as const;

export class FaultAdd extends Step {
  readonly kind = 'FaultAdd';
  constructor(
    readonly actor: Actor,
    readonly route: (typeof FAULT_ROUTES)[number],
    readonly times: number,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const res = await r.w.send(this.actor, api.addFault(this.route, 503, this.times));
    if (!expectAnswer(r, res, 200, undefined, `${this}`)) return 'actor';
    const [method, path] = this.route.split(' ') as [string, string];
    m.data.faults.push({ id: res.body.data.id, credential: credentialOf(this.actor), method, path, timesLeft: this.times, createdAt: res.body.data.created_at });
    return 'actor';
  }
  toString = () => `FaultAdd(${this.actor}, '${this.route}' 503 ×${this.times})`;
}

export class FaultClear extends Step {
  readonly kind = 'FaultClear';
  constructor(readonly actor: Actor) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const res = await r.w.send(this.actor, api.clearFaults());
    if (!expectAnswer(r, res, 200, undefined, `${this}`)) return 'actor';
    m.data.faults = m.data.faults.filter((f) => f.credential !== credentialOf(this.actor));
    return 'actor';
  }
  toString = () => `FaultClear(${this.actor})`;
}

type PeekKind = 'payment' | 'refund' | 'link' | 'settlement';

/** Reads an object, the actor's or another account's (which must read as nonexistent), and holds it against the model. */
export class Peek extends Step {
  readonly kind = 'Peek';
  constructor(
    readonly actor: Actor,
    readonly what: PeekKind,
    readonly n: Pick,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const d = m.data;
    const list = { payment: d.payments, refund: d.refunds, link: d.links, settlement: d.settlements }[this.what] as { id: string; merchant: Account }[];
    if (list.length === 0) return 'none';
    const x = choose(list, this.actor, this.n);
    const now = this.what === 'link' ? (await r.w.readClock(treeOf(x.merchant))).micros : 0;
    const { res, faulted } = await send(m, r, this.actor, api.get(this.what, x.id));
    const what = `${this}: ${x.id} of ${x.merchant}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, x.merchant)) return void expectAnswer(r, res, 404, undefined, what), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    const got = res.body.data;
    if (this.what === 'payment') {
      const p = x as MPayment;
      expectThat(r, got.status === (p.captured ? 'captured' : 'failed'), `${what}: reads ${got.status}`);
      const refunds = d.refunds.filter((y) => y.paymentId === p.id).map((y) => `${y.id}:${y.status}:${y.amount}`);
      const real = (got.refund as { refund_id: string; refund_status: string; refund_amount: number }[]).map((y) => `${y.refund_id}:${y.refund_status}:${Math.round(y.refund_amount * 100)}`);
      expectThat(r, JSON.stringify(real.sort()) === JSON.stringify(refunds.sort()), `${what}: refunds ${real.join(', ')}; the model ${refunds.join(', ')}`);
      expectThat(r, (got.settlement?.id ?? null) === p.settlement, `${what}: settlement ${got.settlement?.id}, the model ${p.settlement}`);
    } else if (this.what === 'refund') {
      const y = x as MRefund;
      expectThat(r, got.refund_status === y.status && Math.round(got.refund_amount * 100) === y.amount, `${what}: ${got.refund_status} ${got.refund_amount}; the model ${y.status} ${fmt(y.amount)}`);
    } else if (this.what === 'link') {
      const l = x as MLink;
      const o = d.orders.find((y) => y.id === l.orderId);
      const ok = l.deactivated ? ['expired'] : o?.paid ? ['paid', 'failed', 'expired'] : now >= stampMicros(l.expiresAt) ? ['expired'] : ['active'];
      expectThat(r, ok.includes(got.status), `${what}: reads ${got.status}; the model ${ok.join(' or ')}`);
    } else {
      const s = x as unknown as { id: string; amount: number };
      expectThat(r, Math.round(got.settlement_amount * 100) === s.amount, `${what}: ${got.settlement_amount}; the model ${fmt(s.amount)}`);
    }
    return 'actor';
  }
  toString = () => `Peek(${this.actor}, ${this.what} ${show(this.n)})`;
}

// ---- virtual bank accounts (vendor 11.7) ---------------------------------------------------------

/** vendor 11.7.6 (11.10 P6): a single credit above 25 lakh rupees fails. */
const VBA_CAP_PAISE = 2_500_000 * 100;

export class VbaCreate extends Step {
  readonly kind = 'VbaCreate';
  constructor(
    readonly actor: Actor,
    readonly max: number | null,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const { res, faulted } = await send(m, r, this.actor, api.createVba(this.max === null ? null : this.max / 100));
    if (faulted) return 'actor';
    const held = heldBack(m, this.actor);
    if (held) return void expectGate(r, res, held, `${this}`), 'actor';
    if (!expectAnswer(r, res, 200, undefined, `${this}`)) return 'actor';
    const v = res.body.data?.[0];
    if (!expectThat(r, v?.vba_status === 'ACTIVE' && /^[0-9]{8}$/.test(String(v?.virtual_account_id)), `${this}: reads ${JSON.stringify(res.body.data)}`)) return 'actor';
    m.data.vbas.push({ id: v.virtual_account_id, merchant: this.actor, active: true, max: this.max });
    return 'actor';
  }
  toString = () => `VbaCreate(${this.actor}${this.max === null ? '' : `, max ${fmt(this.max)}`})`;
}

export class VbaStatus extends Step {
  readonly kind = 'VbaStatus';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly active: boolean,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.vbas.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const v = choose(m.data.vbas, this.actor, this.n);
    const status = this.active ? 'ACTIVE' : 'INACTIVE';
    const { res, faulted } = await send(m, r, this.actor, api.setVbaStatus(v.id, status));
    const what = `${this} on ${v.id} of ${v.merchant}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, v.merchant)) return void expectAnswer(r, res, 404, 'ERR_VBA_001', what), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    expectThat(r, res.body.data.vba_status === status, `${what}: reads ${res.body.data.vba_status}`);
    v.active = this.active;
    return 'actor';
  }
  toString = () => `VbaStatus(${this.actor}, vba ${show(this.n)}, ${this.active ? 'ACTIVE' : 'INACTIVE'})`;
}

/** Money arriving on an account: a captured credit, a failed one (a rule broken), or a UTR used before (409, nothing made). */
export class VbaTransfer extends Step {
  readonly kind = 'VbaTransfer';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly amount: number,
    readonly reuse: number | null,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.vbas.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const v = choose(m.data.vbas, this.actor, this.n);
    const used = m.data.credits.filter((c) => c.merchant === v.merchant);
    const utr = this.reuse !== null && used.length > 0 ? pick(used, this.reuse).id : `UTR${r.w.run}x${++r.seq}`;
    const { res, faulted } = await send(m, r, this.actor, api.vbaTransfer(v.id, this.amount / 100, utr));
    const what = `${this} on ${v.id} of ${v.merchant} (${v.active ? 'active' : 'inactive'}${v.max === null ? '' : `, max ${fmt(v.max)}`}), utr ${utr}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, v.merchant)) return void expectAnswer(r, res, 404, 'ERR_VBA_001', what), 'actor';
    if (used.some((c) => c.id === utr)) {
      count(r, 'vba transfer refused (duplicate utr)');
      return void expectAnswer(r, res, 409, 'ERR_VBA_003', `${what}: the UTR was used`), 'actor';
    }
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    const held = heldBack(m, v.merchant);
    const why = held ? `Merchant account is not active (kyc_status ${held})` : !v.active ? 'VBA is inactive' : this.amount > VBA_CAP_PAISE ? 'Amount exceeds 25 lacs limit' : v.max !== null && this.amount > v.max ? 'Amount outside allowed range' : null;
    const captured = why === null;
    const got = res.body.data;
    expectThat(
      r,
      got.status === (captured ? 'captured' : 'failed') && got.status_message === why && got.settlement_status === (captured ? 'action_required' : 'not_applicable'),
      `${what}: reads ${JSON.stringify(got)}; the model ${captured ? 'captured' : `failed: ${why}`}`,
    );
    count(r, captured ? 'vba credit captured' : 'vba credit failed');
    const p: MPayment = {
      id: got.payment_id,
      merchant: v.merchant,
      orderId: got.order_id,
      amount: this.amount,
      captured: got.status === 'captured',
      gateway: SIMULATOR,
      settlement: null,
      verification: got.status === 'captured' ? 'ACTION_REQUIRED' : 'NOT_APPLICABLE',
    };
    m.data.payments.push(p);
    m.data.credits.push({ id: utr, merchant: v.merchant, paymentId: p.id });
    const type = p.captured ? 'PAYMENT_SUCCESSFUL' : 'PAYMENT_FAILED';
    expectThat(r, eventsAbout(r, p.id, type) === 1, `${what}: no ${type} event about ${p.id}`);
    // vendor 11.7.7: a captured credit then asks for its classification.
    if (p.captured) expectThat(r, eventsAbout(r, p.id, 'VERIFICATION_NEEDED') === 1, `${what}: no VERIFICATION_NEEDED about ${p.id}`);
    return 'actor';
  }
  toString = () => `VbaTransfer(${this.actor}, vba ${show(this.n)}, ${fmt(this.amount)}${this.reuse === null ? '' : `, an earlier utr #${this.reuse}`})`;
}

// ---- payment verification (vendor 11.3; 11.10 P2, P5, P9) ---------------------------------------

const REVIEW_STATES = ['ACTION_REQUIRED', 'UNDER_REVIEW', 'VERIFIED', 'ON_HOLD', 'EXPIRED', 'REJECTED', 'READY_FOR_SETTLEMENT'] as const;
const FINAL_STATES = new Set(['SETTLED', 'EXPIRED', 'REJECTED', 'NOT_APPLICABLE', 'PAYMENT_FAILED', 'PAYMENT_PENDING']);

/** simulate-verification: the state moves as docs/sandbox.md's table says; EXPIRED and REJECTED refund what is left (I1). */
export class VerifySimulate extends Step {
  readonly kind = 'VerifySimulate';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly status: (typeof REVIEW_STATES)[number],
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.payments.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const p = choose(m.data.payments, this.actor, this.n);
    // Opening a card payment's verification starts its 7-day deadline (P9): the model keeps it and
    // predicts the expiry on every clock step (expireByClock, clockMove's caused; issue 42).
    const { res, faulted } = await send(m, r, this.actor, api.simulateVerification(p.id, this.status));
    const what = `${this} on ${p.id} of ${p.merchant}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, p.merchant)) return void expectAnswer(r, res, 404, 'ERR_PAYMENT_005', what), 'actor';
    const state = p.settlement ? 'SETTLED' : (p.verification ?? (p.captured ? 'READY_FOR_SETTLEMENT' : 'PAYMENT_FAILED'));
    if (FINAL_STATES.has(state)) {
      count(r, 'verification move refused');
      return void expectAnswer(r, res, 400, 'ERR_VERIFICATION_001', `${what}: the payment is ${state}`), 'actor';
    }
    if (!expectAnswer(r, res, 200, undefined, `${what} (from ${state})`)) return 'actor';
    expectThat(r, res.body.data.settlement_status === this.status, `${what}: reads ${JSON.stringify(res.body.data)}`);
    count(r, state === this.status ? 'verification unchanged' : `verification ${this.status.toLowerCase()}`);
    if (state === this.status) return 'actor';
    const opening = p.verification === undefined;
    p.verification = this.status;
    if (this.status === 'ACTION_REQUIRED' && opening) {
      // P9: capture + 7 days, on a card/UPI payment whose verification this opens.
      const row = r.w.q('SELECT v.expires_at AS e, p.completed_at AS c FROM verifications v JOIN payments p USING (payment_id) WHERE payment_id = ?').get(p.id) as { e: string | null; c: string | null } | undefined;
      if (expectThat(r, row?.e != null && row.c != null && Math.abs(stampMicros(row.e) - Math.min(stampMicros(row.c) + 7 * 86_400e6, CALENDAR_END_MICROS)) < 64 /* µs past 2^53: REAL's precision near 9999 */, `${what}: the deadline is not capture + 7 days (at most the calendar's end): ${JSON.stringify(row)}`)) {
        p.deadline = stampMicros(row!.e!);
      }
    }
    if (this.status === 'EXPIRED' || this.status === 'REJECTED') refundWhatIsLeft(m, r, p, what);
    return 'actor';
  }
  toString = () => `VerifySimulate(${this.actor}, payment ${show(this.n)}, ${this.status})`;
}

/** The B2B services checklist answered whole (vendor 11.2.1): the state moves to UNDER_REVIEW (docs/sandbox.md). */
export class VerifySubmit extends Step {
  readonly kind = 'VerifySubmit';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.payments.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const p = choose(m.data.payments, this.actor, this.n);
    const what = `${this} on ${p.id} of ${p.merchant}`;
    const up = await send(m, r, this.actor, api.uploadVerificationDocument(p.id, 'invoice'));
    if (up.faulted) return 'actor';
    if (!visible(this.actor, p.merchant)) return void expectAnswer(r, up.res, 400, '40360', `${what}: upload`), 'actor';
    if (!expectAnswer(r, up.res, 201, undefined, `${what}: upload`)) return 'actor';
    const fields = {
      ...(p.classified ? {} : { business_model: 'B2B', purpose_code: 'S0802' }),
      buyer_name: 'Model Buyer',
      buyer_address_line_1: '1 Main Street',
      buyer_city: 'Pune',
      buyer_state: 'Maharashtra',
      buyer_postal_code: '411001',
      buyer_email: 'model@example.com',
      buyer_phone: '+919876543210',
      invoice_number: `INV-${r.w.run}-${++r.seq}`,
      invoice_date: '2026-11-01',
      invoice_amount: fmt(p.amount),
      declaration: true,
    };
    const { res, faulted } = await send(m, r, this.actor, api.submitVerification(p.id, { fields, documents: [{ code: 'invoice', ref: up.res.body.data.ref }] }));
    if (faulted) return 'actor';
    const state = p.settlement ? 'SETTLED' : (p.verification ?? (p.captured ? 'READY_FOR_SETTLEMENT' : 'PAYMENT_FAILED'));
    if (state !== 'ACTION_REQUIRED') {
      count(r, 'verification submit refused (filed or not open)');
      return void expectAnswer(r, res, 400, '40360', `${what}: the payment is ${state}`), 'actor';
    }
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    expectThat(r, res.body.data.status === 'in_review', `${what}: reads ${JSON.stringify(res.body.data)}`);
    count(r, 'verification filed');
    p.classified = true;
    p.verification = 'UNDER_REVIEW';
    return 'actor';
  }
  toString = () => `VerifySubmit(${this.actor}, payment ${show(this.n)})`;
}

/** The deprecated upload (vendor 11.2.5, 11.10 P8): VERIFIED with the vendor's test values, else unchanged. */
export class VerifyLegacy extends Step {
  readonly kind = 'VerifyLegacy';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly testValues: boolean,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.payments.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const p = choose(m.data.payments, this.actor, this.n);
    const { res, faulted } = await send(m, r, this.actor, api.uploadVerificationDetails(p.id, this.testValues ? 'John' : 'Jane'));
    const what = `${this} on ${p.id} of ${p.merchant}`;
    if (faulted) return 'actor';
    if (!visible(this.actor, p.merchant)) return void expectAnswer(r, res, 404, 'ERR_PAYMENT_005', what), 'actor';
    const state = p.settlement ? 'SETTLED' : (p.verification ?? (p.captured ? 'READY_FOR_SETTLEMENT' : 'PAYMENT_FAILED'));
    if (state !== 'ACTION_REQUIRED') return void expectAnswer(r, res, 400, 'ERR_VERIFICATION_002', `${what}: the payment is ${state}`), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    // A payment classified before keeps its classification; one unclassified is B2B S0802 now.
    p.classified = true;
    if (this.testValues) p.verification = 'VERIFIED';
    count(r, this.testValues ? 'legacy upload verified' : 'legacy upload pending');
    return 'actor';
  }
  toString = () => `VerifyLegacy(${this.actor}, payment ${show(this.n)}, ${this.testValues ? 'test values' : 'other values'})`;
}

// ---- order documents, PAN verify, LRS quote (vendor 11.1, 11.6; issue 36) ----------------------

/** vendor 11.1: the sandbox keeps one invoice an order and adds each air waybill, up to 20 (docs/sandbox.md). */
const MAX_AIR_WAYBILLS = 20;

export class DocumentUpload extends Step {
  readonly kind = 'DocumentUpload';
  constructor(
    readonly actor: Actor,
    readonly n: Pick,
    readonly type: 'invoice' | 'awb',
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.orders.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const d = m.data;
    const o = choose(d.orders, this.actor, this.n);
    const { res, faulted } = await send(m, r, this.actor, api.uploadDocument(o.id, this.type, `model-${++r.seq}`));
    if (faulted) return 'actor';
    const what = `${this}: ${o.id} of ${o.merchant}`;
    if (!visible(this.actor, o.merchant)) return void expectAnswer(r, res, 404, 'ERR_ORDER_001', what), 'actor';
    const awbs = () => d.documents.filter((x) => x.orderId === o.id && x.type === 'awb').length;
    if (this.type === 'awb' && awbs() >= MAX_AIR_WAYBILLS) return void expectAnswer(r, res, 400, 'ERR_ORDER_002', `${what}: already ${MAX_AIR_WAYBILLS} air waybills`), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    if (this.type === 'invoice') d.documents = d.documents.filter((x) => !(x.orderId === o.id && x.type === 'invoice'));
    d.documents.push({ merchant: o.merchant, orderId: o.id, type: this.type });
    const got = res.body.data;
    expectThat(r, got.order_id === o.id && res.body.message === 'Documents uploaded successfully', `${what}: answered ${got.order_id} "${res.body.message}"`);
    const invoice = d.documents.some((x) => x.orderId === o.id && x.type === 'invoice');
    expectThat(r, (typeof got.invoice?.file === 'string') === invoice, `${what}: invoice.file ${got.invoice?.file}; the model ${invoice ? 'has' : 'has no'} invoice`);
    expectThat(r, Array.isArray(got.air_waybills) && got.air_waybills.length === awbs(), `${what}: ${got.air_waybills?.length} air waybills; the model ${awbs()}`);
    return 'actor';
  }
  toString = () => `DocumentUpload(${this.actor}, order ${show(this.n)}, ${this.type})`;
}

/** P3's test values and what each gives. */
const PAN_CHECKS = [
  { pan: 'ABCDE1234F', name: 'Asha Verma', dob: '1990-02-28', verified: true },
  { pan: 'ABCPE1234F', name: 'Ravi Rao', dob: '1990-02-28', verified: true },
  { pan: 'ABCPE1234F', name: 'MISMATCH', dob: '1990-02-28', verified: false },
  { pan: 'ABCPE1234F', name: 'Ravi Rao', dob: '1900-01-01', verified: false },
  { pan: 'ABCCE1234F', name: 'Acme Ltd', dob: '1990-02-28', verified: false },
] as const;

export class PanVerify extends Step {
  readonly kind = 'PanVerify';
  constructor(
    readonly actor: Actor,
    readonly which: number,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const c = PAN_CHECKS[this.which % PAN_CHECKS.length]!;
    const { res, faulted } = await send(m, r, this.actor, api.verifyPan(c.pan, c.name, c.dob));
    if (faulted) return 'actor';
    const what = `${this}: ${c.pan} ${c.name} ${c.dob}`;
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    expectThat(r, res.body.data.verified === c.verified, `${what}: verified ${res.body.data.verified}; the model ${c.verified}`);
    expectThat(r, res.body.message === (c.verified ? 'PAN verified' : 'PAN verification did not pass'), `${what}: "${res.body.message}"`);
    // The PSP without X-Merchant-ID acts for itself (docs/sandbox.md).
    m.data.pans = m.data.pans.filter((x) => !(x.merchant === this.actor && x.pan === c.pan));
    m.data.pans.push({ merchant: this.actor, pan: c.pan, verified: c.verified });
    return 'actor';
  }
  toString = () => `PanVerify(${this.actor}, ${PAN_CHECKS[this.which % PAN_CHECKS.length]!.name}/${PAN_CHECKS[this.which % PAN_CHECKS.length]!.pan})`;
}

/** vendor 11.6's rule in integer paise, done again apart from store/lrs.ts: nothing committed (model orders carry no PAN). */
function quoteFigures(amount: number): { taxable: number; tcs: number; total: number } {
  const taxable = Math.max(0, amount - 100_000_000);
  const tcs = Math.floor((taxable * 2 + 50) / 100);
  const fee = Math.floor((amount * 5 + 500) / 1000);
  const gst = Math.floor((fee * 18 + 50) / 100);
  return { taxable, tcs, total: amount + fee + gst + tcs };
}

export class LrsQuote extends Step {
  readonly kind = 'LrsQuote';
  constructor(
    readonly actor: Actor,
    readonly pan: string,
    readonly amount: number,
    readonly code: string,
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    const { res, faulted } = await send(m, r, this.actor, api.lrsQuote(this.pan, fmt(this.amount), this.code));
    if (faulted) return 'actor';
    const what = `${this}`;
    // vendor 11.6: a PSP must name the sub-merchant (X-Merchant-ID).
    if (this.actor === 'P') return void expectAnswer(r, res, 401, 'ERR_AUTH_000', what), 'actor';
    const known = m.data.pans.find((x) => x.merchant === this.actor && x.pan === this.pan);
    if (!known?.verified) return void expectAnswer(r, res, 400, 'ERR_LRS_001', `${what}: not verified`), 'actor';
    if (this.code !== 'S0305') return void expectAnswer(r, res, 400, 'ERR_LRS_001', `${what}: code not enabled`), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    const f = quoteFigures(this.amount);
    const got = res.body.data;
    const real = { committed: paise(got.committed_inr), taxable: paise(got.taxable_inr), tcs: paise(got.tcs_inr), total: paise(got.total_payable_inr) };
    const want = { committed: 0, ...f };
    expectThat(r, JSON.stringify(real) === JSON.stringify(want), `${what}: ${JSON.stringify(real)}; the model ${JSON.stringify(want)}`);
    return 'actor';
  }
  toString = () => `LrsQuote(${this.actor}, ${this.pan}, ${fmt(this.amount)}, ${this.code})`;
}

// ---- arbitraries, weights and groups -----------------------------------------------------------

const permille = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(1000, 500, 1001));
const trigger = fc.constantFrom<TriggerEvent>('PAYMENT_SUCCESSFUL', 'PAYMENT_FAILED', 'PAYMENT_SETTLED', 'PAYMENT_REFUNDED');
/** Clock steps: past one retry (1, 5, 15, 60 min after the first), a day, past a week's link. */
const step = fc.constantFrom(61, 240, 600, 3600, 86_400, 8 * 86_400);
const linkSeconds = fc.constantFrom(3600, 86_400, 7 * 86_400);

interface Kind {
  kind: string;
  weight: number;
  groups: string[];
  arb: fc.Arbitrary<Cmd>;
}

export const KINDS: Kind[] = [
  { kind: 'CreateOrder', weight: 4, groups: ['money', 'links', 'events', 'snapshots', 'clock', 'faults', 'scope'], arb: fc.tuple(actorArb, amountArb).map(([a, x]) => new CreateOrder(a, x)) },
  { kind: 'Pay', weight: 4, groups: ['money', 'links', 'events', 'snapshots', 'faults', 'scope'], arb: fc.tuple(actorArb, n, fc.constantFrom(SIMULATOR, SIMULATOR, SIMULATOR, 'acquirer_x')).map(([a, i, g]) => new Pay('Pay', a, i, g)) },
  { kind: 'FailPayment', weight: 1, groups: ['money', 'events'], arb: fc.tuple(actorArb, n).map(([a, i]) => new Pay('FailPayment', a, i)) },
  { kind: 'Refund', weight: 4, groups: ['money', 'snapshots', 'faults'], arb: fc.tuple(actorArb, n, permille).map(([a, i, p]) => new Refund(a, i, p)) },
  { kind: 'RefundSimulate', weight: 5, groups: ['money', 'faults'], arb: fc.tuple(actorArb, n, fc.constantFrom(...REFUND_STATUSES)).map(([a, i, s]) => new RefundSimulate(a, i, s)) },
  { kind: 'Chargeback', weight: 2, groups: ['money'], arb: fc.tuple(actorArb, n, permille).map(([a, i, p]) => new Chargeback(a, i, p)) },
  {
    kind: 'MarkSettled',
    weight: 3,
    groups: ['money', 'faults'],
    arb: fc
      .tuple(actorArb, fc.array(nat, { minLength: 1, maxLength: 3 }), fc.array(nat, { maxLength: 2 }), fc.array(nat, { maxLength: 1 }), fc.boolean())
      .map(([a, p, rf, cb, open]) => new MarkSettled(a, p, rf, cb, open || rf.length > 0)),
  },
  { kind: 'SubCreate', weight: 1, groups: ['money'], arb: fc.tuple(actorArb, amountArb).map(([a, x]) => new SubCreate(a, x)) },
  { kind: 'SubSimulate', weight: 1, groups: ['money'], arb: fc.tuple(actorArb, n, fc.boolean()).map(([a, i, s]) => new SubSimulate(a, i, s)) },
  { kind: 'LinkCreate', weight: 2, groups: ['links', 'clock'], arb: fc.tuple(actorArb, n, linkSeconds).map(([a, i, s]) => new LinkCreate(a, i, s)) },
  { kind: 'LinkDeactivate', weight: 1, groups: ['links'], arb: fc.tuple(actorArb, n).map(([a, i]) => new LinkDeactivate(a, i)) },
  { kind: 'LinkExpire', weight: 1, groups: ['links', 'clock'], arb: n.map((i) => new LinkExpire(i)) },
  { kind: 'VerificationExpire', weight: 1, groups: ['money', 'clock'], arb: n.map((i) => new VerificationExpire(i)) },
  { kind: 'PgLinkCreate', weight: 2, groups: ['links', 'clock', 'scope'], arb: fc.tuple(actorArb, amountArb, linkSeconds).map(([a, x, s]) => new PgLinkCreate(a, x, s)) },
  { kind: 'LinkExtend', weight: 1, groups: ['links', 'clock'], arb: fc.tuple(actorArb, n, linkSeconds).map(([a, i, s]) => new LinkExtend(a, i, s)) },
  { kind: 'LinkShare', weight: 1, groups: ['links'], arb: fc.tuple(actorArb, n).map(([a, i]) => new LinkShare(a, i)) },
  { kind: 'LinkPagePay', weight: 2, groups: ['links', 'money', 'events'], arb: fc.tuple(n, fc.boolean()).map(([i, ok]) => new LinkPagePay(i, ok)) },
  { kind: 'WebhookAdd', weight: 2, groups: ['links', 'events', 'snapshots', 'clock'], arb: actorArb.map((a) => new WebhookAdd(a)) },
  { kind: 'ReceiverAnswers', weight: 2, groups: ['events', 'snapshots'], arb: fc.tuple(actorArb, fc.constantFrom(200, 500)).map(([a, s]) => new ReceiverAnswers(a, s)) },
  { kind: 'Trigger', weight: 3, groups: ['money', 'events', 'snapshots', 'clock'], arb: fc.tuple(fc.constantFrom<Actor>(...(TRIGGERING.length > 0 ? TRIGGERING : ACTING)), trigger).map(([a, e]) => new Trigger(a, e)) },
  { kind: 'EventResend', weight: 2, groups: ['events'], arb: fc.tuple(actorArb, n).map(([a, i]) => new EventResend(a, i)) },
  { kind: 'ClockAdvance', weight: 2, groups: ['links', 'events', 'snapshots', 'clock'], arb: fc.tuple(actorArb, step).map(([a, s]) => new ClockAdvance(a, s)) },
  { kind: 'ClockSet', weight: 1, groups: ['links', 'clock'], arb: fc.tuple(actorArb, fc.constantFrom(...CLOCK_SETS)).map(([a, t]) => new ClockSet(a, t)) },
  { kind: 'ClockAdvanceAll', weight: 1, groups: ['clock'], arb: step.map((s) => new ClockAdvanceAll(s)) },
  { kind: 'SnapshotSave', weight: 2, groups: ['snapshots', 'scope'], arb: fc.tuple(actorArb, fc.constantFrom(...SNAPSHOT_NAMES)).map(([a, s]) => new SnapshotSave(a, s)) },
  { kind: 'SnapshotRestore', weight: 2, groups: ['snapshots', 'scope'], arb: fc.tuple(actorArb, fc.nat({ max: 3 })).map(([a, i]) => new SnapshotRestore(a, i)) },
  { kind: 'SnapshotSaveGlobal', weight: 1, groups: ['snapshots'], arb: fc.constant(new SnapshotSaveGlobal('g')) },
  { kind: 'SnapshotRestoreGlobal', weight: 1, groups: ['snapshots'], arb: fc.constant(new SnapshotRestoreGlobal('g')) },
  { kind: 'Reset', weight: 1, groups: ['snapshots', 'scope'], arb: actorArb.map((a) => new Reset(a)) },
  { kind: 'VbaCreate', weight: 1, groups: ['money', 'vba', 'snapshots', 'scope'], arb: fc.tuple(actorArb, fc.option(fc.constantFrom(100_000, 5_000_000, 300_000_000), { nil: null })).map(([a, x]) => new VbaCreate(a, x)) },
  { kind: 'VbaStatus', weight: 1, groups: ['money', 'vba'], arb: fc.tuple(actorArb, n, fc.boolean()).map(([a, i, on]) => new VbaStatus(a, i, on)) },
  {
    kind: 'VbaTransfer',
    weight: 3,
    groups: ['money', 'vba', 'events', 'snapshots', 'faults', 'scope'],
    arb: fc
      .tuple(actorArb, n, fc.oneof(amountArb, fc.constantFrom(250_000_000, 250_000_001)), fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: nat }))
      .map(([a, i, x, u]) => new VbaTransfer(a, i, x, u)),
  },
  { kind: 'FaultAdd', weight: 1, groups: ['faults'], arb: fc.tuple(actorArb, fc.constantFrom(...FAULT_ROUTES), fc.integer({ min: 1, max: 2 })).map(([a, rt, t]) => new FaultAdd(a, rt, t)) },
  { kind: 'FaultClear', weight: 1, groups: ['faults'], arb: actorArb.map((a) => new FaultClear(a)) },
  {
    kind: 'Peek',
    weight: 2,
    groups: ['money', 'links', 'scope'],
    arb: fc.tuple(actorArb, fc.constantFrom<PeekKind>('payment', 'refund', 'link', 'settlement'), n).map(([a, k, i]) => new Peek(a, k, i)),
  },
  { kind: 'VerifySimulate', weight: 2, groups: ['money', 'vba', 'events', 'scope'], arb: fc.tuple(actorArb, n, fc.constantFrom(...REVIEW_STATES)).map(([a, i, st]) => new VerifySimulate(a, i, st)) },
  { kind: 'VerifySubmit', weight: 2, groups: ['money', 'vba', 'documents', 'scope'], arb: fc.tuple(actorArb, n).map(([a, i]) => new VerifySubmit(a, i)) },
  { kind: 'VerifyLegacy', weight: 1, groups: ['money', 'vba', 'scope'], arb: fc.tuple(actorArb, n, fc.boolean()).map(([a, i, t]) => new VerifyLegacy(a, i, t)) },
  { kind: 'DocumentUpload', weight: 2, groups: ['documents', 'snapshots', 'scope'], arb: fc.tuple(actorArb, n, fc.constantFrom<'invoice' | 'awb'>('invoice', 'awb', 'awb')).map(([a, i, t]) => new DocumentUpload(a, i, t)) },
  { kind: 'PanVerify', weight: 1, groups: ['lrs', 'snapshots', 'scope'], arb: fc.tuple(actorArb, fc.nat({ max: 4 })).map(([a, w]) => new PanVerify(a, w)) },
  {
    kind: 'LrsQuote',
    weight: 1,
    groups: ['lrs'],
    arb: fc
      .tuple(actorArb, fc.constantFrom('ABCDE1234F', 'ABCPE1234F'), fc.oneof(amountArb, fc.integer({ min: 1, max: 10_000_000_000 })), fc.constantFrom('S0305', 'S0305', 'S0802'))
      .map(([a, p, x, c]) => new LrsQuote(a, p, x, c)),
  },
];

/**
 * The command arbitraries, each repeated by its weight (fc.commands picks uniformly among them).
 * `only`: groups or kinds (PGW_MODEL_ONLY=money,SnapshotSave), or all but some (PGW_MODEL_ONLY=-ClockSet):
 * the commands to aim at one defect.
 */
export function commandArbs(only: readonly string[]): fc.Arbitrary<Cmd>[] {
  const take = only.filter((x) => !x.startsWith('-'));
  const drop = only.filter((x) => x.startsWith('-')).map((x) => x.slice(1));
  const named = (k: Kind, names: readonly string[]) => names.includes(k.kind) || k.groups.some((g) => names.includes(g));
  const chosen = KINDS.filter((k) => (take.length === 0 || named(k, take)) && !named(k, drop));
  if (chosen.length === 0) throw new Error(`PGW_MODEL_ONLY=${only.join(',')} names no command (groups: money, links, events, snapshots, clock, faults, scope, vba, documents, lrs)`);
  return chosen.flatMap((k) => Array.from({ length: k.weight }, () => k.arb));
}

/**
 * The end of a sequence: each tree's clock, as its own account moves it, two hours on and past the
 * last retry its deliveries still have to make (vendor 1.1's schedule ends an hour after the first
 * attempt; a clock set back must first reach them again), and every delivery must have got a 200
 * or spent its five attempts (I4). Trees whose clock cannot go that far (set near 9999) are left.
 */
export async function settleAll(r: Real): Promise<Tree[]> {
  const moved = new Set<Tree>();
  const left = new Set<Tree>();
  // A move can itself make events (links expiring on the way): their retries need another.
  for (let round = 0; round < 4; round++) {
    const pending = r.w
      .q('SELECT e.merchant_id AS m, CAST(max(d.first_at) AS REAL) AS first FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.next_attempt_at IS NOT NULL GROUP BY e.merchant_id')
      .all() as { m: string; first: number }[];
    const trees = TREES.filter((t) => !left.has(t) && (round === 0 || pending.some((p) => treeOf(r.w.accountOf(p.m) ?? 'M1') === t)));
    if (trees.length === 0) break;
    for (const t of trees) {
      const now = (await r.w.readClock(t)).micros;
      const last = Math.max(0, ...pending.filter((p) => treeOf(r.w.accountOf(p.m) ?? 'M1') === t).map((p) => Number(p.first) + 3601e6));
      const seconds = Math.max(round === 0 ? 7200 : 1, Math.ceil((last - now) / 1e6));
      if (now + seconds * 1e6 > CALENDAR_END_MICROS) {
        left.add(t);
        moved.delete(t);
        continue;
      }
      const res = await r.w.moveClock(t, { advance_seconds: seconds });
      if (res.status !== 200) throw new Error(`the final clock move of ${t} by ${seconds} s: ${res.status} ${JSON.stringify(res.body)}`);
      moved.add(t);
    }
    await r.w.quiesce();
  }
  return [...moved];
}
