// `payment list`'s settlement_status and settlement_id (issue 41 item 2). vendor 3.1's search
// entry names neither, so each payment's details are read (GET /pg/payments/{id}/, spec 4.3, 8 at
// a time, progress on a terminal) wherever the entry lacks them: one request per payment listed,
// which --from/--to keeps to the window asked about. An entry that carries them (a gateway that
// adds them to the search) is read as it is.
import type { ApiClient } from '../../api/types.js';
import type { IO } from '../../output/io.js';
import { NotFoundError } from '../../errors.js';
import { startProgress } from '../../output/progress.js';
import { DEFAULT_CONCURRENCY, fetchAll } from '../lookup.js';

export interface SettlementFacts {
  /** vendor 11.3, as the gateway writes it (a table shows it with stateLabel). */
  settlement_status: string | null;
  /** The ST… of Get Payment's settlement (spec 2.7 `id`; its `settlement_id` is a UUID-like one). */
  settlement_id: string | null;
}

interface Carrier {
  payment_id?: string;
  settlement_status?: string | null;
  settlement_id?: string | null;
  settlement?: { id?: string | null; settlement_id?: string | null } | null;
}

/** What an object (a search entry, or Get Payment's data) says, or undefined when it names no state. */
export function factsOf(p: Carrier): SettlementFacts | undefined {
  if (typeof p.settlement_status !== 'string') return undefined;
  const s = p.settlement;
  return { settlement_status: p.settlement_status, settlement_id: p.settlement_id ?? s?.id ?? s?.settlement_id ?? null };
}

/**
 * The facts of every entry, by payment_id. A payment the gateway no longer finds reads as
 * unknown (null); any other failure (auth, network) stops the command, since the column would lie.
 */
export async function settlementFacts(io: IO, api: Pick<ApiClient, 'request'>, entries: readonly Carrier[]): Promise<Map<string, SettlementFacts>> {
  const facts = new Map<string, SettlementFacts>();
  const missing: string[] = [];
  for (const e of entries) {
    if (!e.payment_id) continue;
    const own = factsOf(e);
    if (own) facts.set(e.payment_id, own);
    else missing.push(e.payment_id);
  }
  const ids = [...new Set(missing)];
  const progress = startProgress(io, ids.length, `reading ${ids.length} payments' settlement`);
  const outcomes = await fetchAll(ids, DEFAULT_CONCURRENCY, (id) => api.request<Carrier>({ method: 'GET', path: `/pg/payments/${id}/` }), () => progress.tick());
  progress.done();
  for (const o of outcomes) {
    if (o.ok) facts.set(o.id, factsOf(o.value) ?? { settlement_status: null, settlement_id: o.value?.settlement?.id ?? null });
    else if (o.error instanceof NotFoundError) facts.set(o.id, { settlement_status: null, settlement_id: null });
    else throw o.error;
  }
  return facts;
}
