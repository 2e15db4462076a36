// Issue 45's commands in the model-based test, joined to its command list (commands.ts KINDS) when
// this file is loaded: `pgw listen` registrations coming and going (listeners.ts) beside the apps'
// own registrations, and the PSP creating sub-merchants and moving their kyc_status (kyc.ts).
// I6 (invariants-listen.ts) is checked after every step with I1–I5.
import * as fc from 'fast-check';
import { orderBody } from '../../sandbox/harness.js';
import { subMerchantBody } from '../../sandbox/fixtures/merchant-body.js';
import { addressKey } from '../../../src/local-address.js';
import { KINDS, Step } from './commands.js';
import { KYC_STATUSES, SEEDED, expectGate } from './kyc.js';
import { APPS, farmOf, type MListener } from './listeners.js';
import { count, expectAnswer, expectThat, firingFault, send, type Model, type Real } from './model.js';
import { ACTORS, api, scopeOf, type Account, type Actor } from './ops.js';

type Scope = 'actor';
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

// ---- pgw listen and the apps' registrations ----------------------------------------------------

const MAX_LISTENERS = 3;
const MAX_APP_REGISTRATIONS = 4;
const isApp = (r: Real, url: string) => APPS.some((k) => addressKey(url) === addressKey(farmOf(r.w).appUrl(k)));

/** The accounts whose events a listener for `a` receives: its own, and a PSP's sub-merchants' (vendor 1.1). */
function receives(m: Model, r: Real, a: Account): string[] {
  return a === 'P' ? [r.w.ids.P, r.w.ids.S1, r.w.ids.S2, ...m.data.newSubs.map((s) => s.id)] : [r.w.ids[a]];
}

/**
 * The rule, done again from the model (store/forwarding.ts is the sandbox's): an event of merchant
 * X reaches `app` without the new listener when an app registration of X or of its PSP has that
 * address, or a listener that started earlier and receives X forwards there.
 */
function expectedPlan(m: Model, r: Real, actor: Account, app: string, newId: string): Map<string, { kind: string; by: string[] }> {
  const accountOf = (id: string): Account | 'new' => (m.data.newSubs.some((s) => s.id === id) ? 'new' : (r.w.accountOf(id) ?? 'new'));
  const applies = (owner: Account, x: string) => {
    const a = accountOf(x);
    return r.w.ids[owner] === x || (owner === 'P' && a !== 'P' && a !== 'M1' && a !== 'M2');
  };
  const out = new Map<string, { kind: string; by: string[] }>();
  for (const x of receives(m, r, actor)) {
    const direct = m.data.webhooks.filter((h) => applies(h.merchant, x) && addressKey(h.url) === addressKey(app)).map((h) => h.id);
    if (direct.length > 0) {
      out.set(x, { kind: 'address', by: direct });
      continue;
    }
    const first = (m.listeners ?? []).find((l) => l.id !== newId && applies(l.merchant, x) && l.app === Number(/app\/([0-9]+)$/.exec(app)?.[1]));
    if (first) out.set(x, { kind: 'pgw listen', by: [first.id] });
  }
  return out;
}

/** `pgw listen --forward-to <app>` for `actor`'s account: its receiver, then its registration. */
export class ListenerStart extends Step {
  readonly kind = 'ListenerStart';
  constructor(
    readonly actor: Actor,
    readonly app: number,
    readonly localhost: boolean,
    readonly events: string[] | null,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => (m.listeners?.length ?? 0) < MAX_LISTENERS;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const farm = farmOf(r.w);
    const app = farm.appUrl(this.app, this.localhost);
    const url = await farm.start(app, this.app, this.events);
    const { res, faulted } = await send(m, r, this.actor, api.addListener(url, app, this.events ?? undefined));
    if (faulted || !expectAnswer(r, res, 200, undefined, `${this}`)) {
      farm.stopAccepting(url);
      await farm.finish(url);
      return 'actor';
    }
    const hook = res.body.data as { id: string; forward_to: string; forward_plan?: { forwarded: string[]; not_forwarded: { merchant_id: string; by: string; kind: string }[] } };
    expectThat(r, hook.forward_to === app, `${this}: registered forward_to ${hook.forward_to}`);
    const l: MListener = { id: hook.id, merchant: this.actor, url, app: this.app, events: this.events };
    (m.listeners ??= []).push(l);
    // What it says at start: the rule applied to the registrations now, against the model's.
    const want = expectedPlan(m, r, this.actor, app, l.id);
    const plan = hook.forward_plan ?? { forwarded: [], not_forwarded: [] };
    const gotSkipped = new Map(plan.not_forwarded.map((e) => [e.merchant_id, e]));
    for (const x of receives(m, r, this.actor)) {
      const w = want.get(x);
      const g = gotSkipped.get(x);
      const ok = w === undefined ? g === undefined && plan.forwarded.includes(x) : g !== undefined && g.kind === w.kind && w.by.includes(g.by);
      expectThat(r, ok, `${this}: for ${x}'s events the plan says ${g ? `${g.kind} ${g.by}` : plan.forwarded.includes(x) ? 'forwarded' : 'nothing'}, the model ${w ? `${w.kind} ${w.by.join('/')}` : 'forwarded'}`);
    }
    count(r, want.size > 0 ? 'listener started (not forwarding some)' : 'listener started');
    return 'actor';
  }
  toString = () => `ListenerStart(${this.actor}, app ${this.app}${this.localhost ? ' as localhost' : ''}${this.events ? `, ${this.events.join(',')}` : ''})`;
}

/** Ctrl-C on a listener: it takes nothing more, deregisters, finishes its forwards. */
export class ListenerStop extends Step {
  readonly kind = 'ListenerStop';
  actor: Actor = 'M1';
  constructor(readonly n: number) {
    super();
  }
  override check = (m: Readonly<Model>) => (m.listeners?.length ?? 0) > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const l = pick(m.listeners!, this.n);
    this.actor = l.merchant;
    const farm = farmOf(r.w);
    farm.stopAccepting(l.url);
    const { res, faulted } = await send(m, r, l.merchant, api.removeWebhook(l.id));
    if (!faulted) expectAnswer(r, res, 200, undefined, `${this}: ${l.id} of ${l.merchant}`);
    await farm.finish(l.url);
    m.listeners = m.listeners!.filter((x) => x !== l);
    return 'actor';
  }
  toString = () => `ListenerStop(#${this.n})`;
}

/** An app's own registration (`pgw sandbox webhook add <app>`), at times spelled localhost. */
export class AppRegister extends Step {
  readonly kind = 'AppRegister';
  constructor(
    readonly actor: Actor,
    readonly app: number,
    readonly localhost: boolean,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.webhooks.length < MAX_APP_REGISTRATIONS + 4;
  protected async act(m: Model, r: Real): Promise<Scope> {
    if (m.data.webhooks.filter((h) => isApp(r, h.url)).length >= MAX_APP_REGISTRATIONS) return 'actor';
    const url = farmOf(r.w).appUrl(this.app, this.localhost);
    const { res, faulted } = await send(m, r, this.actor, api.addWebhook(url));
    if (faulted || !expectAnswer(r, res, 200, undefined, `${this}`)) return 'actor';
    m.data.webhooks.push({ id: res.body.data.id, merchant: this.actor, url });
    return 'actor';
  }
  toString = () => `AppRegister(${this.actor}, app ${this.app}${this.localhost ? ' as localhost' : ''})`;
}

/** `pgw sandbox webhook remove`: a registration goes (by its owner; another account's reads as unknown). */
export class WebhookRemove extends Step {
  readonly kind = 'WebhookRemove';
  constructor(
    readonly actor: Actor,
    readonly n: number,
  ) {
    super();
  }
  override check = (m: Readonly<Model>) => m.data.webhooks.length > 0;
  protected async act(m: Model, r: Real): Promise<Scope> {
    if (m.data.webhooks.length === 0) return 'actor';
    const h = pick(m.data.webhooks, this.n);
    const { res, faulted } = await send(m, r, this.actor, api.removeWebhook(h.id));
    const what = `${this}: ${h.id} of ${h.merchant}`;
    if (faulted) return 'actor';
    if (!scopeOf(this.actor).includes(h.merchant)) return void expectAnswer(r, res, 404, 'ERR_WEBHOOK_002', what), 'actor';
    if (!expectAnswer(r, res, 200, undefined, what)) return 'actor';
    m.data.webhooks = m.data.webhooks.filter((x) => x !== h);
    return 'actor';
  }
  toString = () => `WebhookRemove(${this.actor}, #${this.n})`;
}

// ---- sub-merchants and the KYC gate ------------------------------------------------------------

/** At most this many sub-merchants are created in one sequence. */
const MAX_NEW = 2;

/** An order for a sub-merchant the PSP created: refused while it is not APPROVED. */
async function newSubOrder(m: Model, r: Real, id: string, what: string): Promise<void> {
  const sub = m.data.newSubs.find((s) => s.id === id);
  // An APPROVED one would take the order, whose owner no actor of the model is: the seeded
  // sub-merchants (S1, S2) walk the approved path through every other command.
  if (!sub || sub.status === 'APPROVED') return;
  const req = api.createOrder(orderBody({ reference_id: `model-${r.w.run}-${++r.seq}` }));
  // Sent with the PSP's credentials: a fault the PSP armed takes it first (model.ts send).
  const fault = firingFault(m.data, 'P', req.method, req.path);
  const res = await r.w.sendFor(id, req);
  if (fault) return void expectAnswer(r, res, 503, 'ERR_SERVICE_UNAVAILABLE', `${what}: an order for ${id} with fault ${fault.id} armed`);
  expectGate(r, res, sub.status, `${what}: an order for ${id}`);
}

/** The PSP creates a sub-merchant: PENDING, in its reach, and refused an order until APPROVED. */
export class SubMerchantCreate extends Step {
  readonly kind = 'SubMerchantCreate';
  readonly actor = 'P' as const;
  override check = (m: Readonly<Model>) => m.data.newSubs.length < MAX_NEW;
  protected async act(m: Model, r: Real): Promise<Scope> {
    const { res, faulted } = await send(m, r, 'P', api.createSubMerchant(subMerchantBody(`Model ${r.w.run} ${++r.seq}`)));
    if (faulted || !expectAnswer(r, res, 201, undefined, `${this}`)) return 'actor';
    const id = String(res.body.data.id);
    expectThat(r, res.body.data.kyc_status === 'PENDING', `${this}: created ${res.body.data.kyc_status}, not PENDING`);
    r.w.adopt(id);
    m.data.newSubs.push({ merchant: 'P', id, status: 'PENDING' });
    await newSubOrder(m, r, id, `${this}`);
    return 'actor';
  }
  toString = () => 'SubMerchantCreate(P)';
}

type KycTarget = { seeded: 'S1' | 'S2' } | { created: number };

/** The sandbox's kyc control, by the PSP: a seeded or a created sub-merchant to any status. */
export class KycMove extends Step {
  readonly kind = 'KycMove';
  readonly actor = 'P' as const;
  constructor(
    readonly target: KycTarget,
    readonly status: (typeof KYC_STATUSES)[number],
  ) {
    super();
  }
  protected async act(m: Model, r: Real): Promise<Scope> {
    let entry: { status: string };
    let id: string;
    if ('seeded' in this.target) {
      const a = this.target.seeded;
      id = r.w.ids[a];
      let k = m.data.kyc.find((x) => x.merchant === a);
      if (!k) m.data.kyc.push((k = { merchant: a, status: SEEDED[a]! }));
      entry = k;
    } else {
      if (m.data.newSubs.length === 0) return 'actor';
      const sub = pick(m.data.newSubs, this.target.created);
      id = sub.id;
      entry = sub;
    }
    const was = entry.status;
    const approvals = () => (r.w.q(`SELECT count(*) AS n FROM events WHERE event_type = 'MERCHANT_APPROVED' AND merchant_id = ?`).get(id) as { n: number }).n;
    const before = approvals();
    const { res, faulted } = await send(m, r, 'P', api.setKyc(id, this.status));
    const what = `${this}: ${id} ${was} → ${this.status}`;
    if (faulted || !expectAnswer(r, res, 200, undefined, what)) return 'actor';
    expectThat(r, res.body.data.kyc_status === this.status && res.body.data.previous_kyc_status === was, `${what}: reads ${JSON.stringify(res.body.data)}`);
    entry.status = this.status;
    count(r, `kyc ${this.status.toLowerCase()}`);
    const sent = approvals() - before;
    expectThat(r, sent === (this.status === 'APPROVED' && was !== 'APPROVED' ? 1 : 0), `${what}: ${sent} MERCHANT_APPROVED sent`);
    if ('created' in this.target) await newSubOrder(m, r, id, what);
    return 'actor';
  }
  toString = () => `KycMove(${'seeded' in this.target ? this.target.seeded : `created #${this.target.created}`}, ${this.status})`;
}

// ---- joined to the command list -----------------------------------------------------------------

const actorArb = fc.constantFrom(...ACTORS);
const app = fc.constantFrom(...APPS);
const someEvents = fc.option(fc.constantFrom<string[]>(['PAYMENT_SUCCESSFUL'], ['PAYMENT_FAILED', 'PAYMENT_SUCCESSFUL']), { nil: null, freq: 3 });
const kycStatus = fc.constantFrom(...KYC_STATUSES, 'APPROVED', 'APPROVED');

export const ISSUE_45_KINDS: typeof KINDS = [
  { kind: 'ListenerStart', weight: 3, groups: ['listen', 'events'], arb: fc.tuple(actorArb, app, fc.boolean(), someEvents).map(([a, k, lh, ev]) => new ListenerStart(a, k, lh, ev)) },
  { kind: 'ListenerStop', weight: 2, groups: ['listen', 'events'], arb: fc.nat({ max: 5 }).map((n) => new ListenerStop(n)) },
  { kind: 'AppRegister', weight: 2, groups: ['listen', 'events'], arb: fc.tuple(actorArb, app, fc.boolean()).map(([a, k, lh]) => new AppRegister(a, k, lh)) },
  { kind: 'WebhookRemove', weight: 1, groups: ['listen', 'events', 'scope'], arb: fc.tuple(actorArb, fc.nat({ max: 7 })).map(([a, n]) => new WebhookRemove(a, n)) },
  { kind: 'SubMerchantCreate', weight: 1, groups: ['kyc', 'scope'], arb: fc.constant(new SubMerchantCreate()) },
  {
    kind: 'KycMove',
    weight: 2,
    groups: ['kyc', 'money'],
    arb: fc
      .tuple(fc.oneof(fc.constantFrom<KycTarget>({ seeded: 'S1' }, { seeded: 'S2' }), fc.nat({ max: 3 }).map<KycTarget>((i) => ({ created: i }))), kycStatus)
      .map(([t, s]) => new KycMove(t, s)),
  },
];
KINDS.push(...ISSUE_45_KINDS);
