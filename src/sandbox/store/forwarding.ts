// The forwarding rule of `pgw listen` (issue 45), decided once per event where its deliveries are
// written (outbox.ts), from the registrations that actually receive it: the event's merchant's and
// its PSP's (vendor 1.1). A listener registered with `forward_to` forwards the event unless
//   - a registration the sandbox posts to itself receives it at that address ("address WH…"), or
//   - another listener that receives it and shows its type forwards it there, the one registered
//     first ("listener WH…"),
// so the address gets each event exactly once, whichever accounts the registrations are on.
// Addresses are compared as the listener compares them (local-address.ts: loopback spellings are
// one host). The listener learns the decision from X-Pgw-Forward on its delivery (webhooks.ts).
import { addressKey, sameAddress } from '../../local-address.js';
import type { Core } from './core.js';

/** One registration an event goes to (outbox.ts targetsOf: one per address). */
export interface Target {
  id: string;
  url: string;
  listener: boolean;
  /** A listener's address to forward to (null: it forwards nothing). */
  forward_to: string | null;
  /** A listener's event types, comma-separated (null: every one). */
  events: string | null;
  /** Registration order: the first listener of an address is the one that forwards. */
  seq: number;
}

/**
 * Each address once, however often and however spelled it is registered (localhost and 127.0.0.1
 * are one app): the registration made first, marked a listener if any of them is. `rows` in
 * registration order.
 */
export function onePerAddress<T extends Omit<Target, 'listener'> & { listener: number }>(rows: readonly T[]): (Omit<T, 'listener'> & { listener: boolean })[] {
  const byAddress = new Map<string, Omit<T, 'listener'> & { listener: boolean }>();
  for (const r of [...rows].sort((a, b) => a.seq - b.seq)) {
    const key = addressKey(r.url);
    const had = byAddress.get(key);
    if (!had) byAddress.set(key, { ...r, listener: r.listener === 1 });
    else if (r.listener === 1) had.listener = true;
  }
  return [...byAddress.values()];
}

/** 'yes', or who brings the event to the listener's address instead. */
export type Forward = 'yes' | `address ${string}` | `listener ${string}`;

const shows = (t: Target, eventType: string): boolean => t.events === null || t.events.split(',').includes(eventType);

/** The decision for each listener target that forwards (by its url); others are absent. */
export function forwardDecisions(targets: readonly Target[], eventType: string): Map<string, Forward> {
  const out = new Map<string, Forward>();
  const forwarders = targets.filter((t) => t.listener && t.forward_to !== null).sort((a, b) => a.seq - b.seq);
  for (const l of forwarders) {
    const to = l.forward_to!;
    const direct = targets.find((t) => !t.listener && sameAddress(t.url, to));
    if (direct) {
      out.set(l.url, `address ${direct.id}`);
      continue;
    }
    const first = forwarders.find((t) => shows(t, eventType) && sameAddress(t.forward_to!, to));
    out.set(l.url, first === undefined || first.id === l.id ? 'yes' : `listener ${first.id}`);
  }
  return out;
}

// ---- what a listener is told when it registers: the rule applied to the registrations now ----

interface RegistrationRow extends Target {
  merchant_id: string;
}

export interface PlanEntry {
  merchant_id: string;
  /** Who brings this merchant's events to the address instead of the listener. */
  by: string;
  kind: 'address' | 'pgw listen';
  /** The account the registration that does is on (the PSP's reaches its sub-merchants' events). */
  registered_for: string;
}

export interface ForwardPlan {
  /** Merchants whose events the listener forwards. */
  forwarded: string[];
  /** Merchants whose events reach the address without it. */
  not_forwarded: PlanEntry[];
}

/**
 * The rule for every merchant whose events `listenerId` receives (its account, and a PSP's
 * sub-merchants), as the registrations stand now; per event it is decided again (the types a
 * listener shows are left out here: the plan is for an event every listener shows).
 */
export function forwardPlan(core: Core, listenerId: string): ForwardPlan {
  const { db } = core;
  const me = db.get<{ merchant_id: string; url: string }>('SELECT merchant_id, url FROM webhooks WHERE id = ?', listenerId);
  if (!me) return { forwarded: [], not_forwarded: [] };
  const account = db.get<{ parent_id: string | null }>('SELECT parent_id FROM merchants WHERE merchant_id = ?', me.merchant_id);
  const root = account?.parent_id ?? me.merchant_id;
  const receives = account?.parent_id ? [me.merchant_id] : [me.merchant_id, ...db.all<{ id: string }>('SELECT merchant_id AS id FROM merchants WHERE parent_id = ? ORDER BY created_at, merchant_id', root).map((r) => r.id)];
  const rows = db.all<Omit<RegistrationRow, 'listener'> & { listener: number }>(
    `SELECT id, merchant_id, url, listener, forward_to, NULL AS events, rowid AS seq FROM webhooks
      WHERE merchant_id = ? OR merchant_id IN (SELECT merchant_id FROM merchants WHERE parent_id = ?)`,
    root,
    root,
  );
  const plan: ForwardPlan = { forwarded: [], not_forwarded: [] };
  for (const m of receives) {
    // What an event of `m` goes to: its own registrations and its PSP's, one per address.
    const targets = onePerAddress(rows.filter((x) => x.merchant_id === m || (x.merchant_id === root && m !== root)));
    const decision = forwardDecisions(targets, '').get(me.url);
    if (decision === undefined || decision === 'yes') {
      plan.forwarded.push(m);
      continue;
    }
    const [kind, id] = decision.split(' ') as ['address' | 'listener', string];
    const by = rows.find((r) => r.id === id)!;
    plan.not_forwarded.push({ merchant_id: m, by: id, kind: kind === 'address' ? 'address' : 'pgw listen', registered_for: by.merchant_id });
  }
  return plan;
}
