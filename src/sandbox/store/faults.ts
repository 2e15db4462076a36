// Faults on demand (issue 24): failures a test arms for its own account, so its retry and timeout
// paths meet what a real gateway does (WireMock's fault types, Toxiproxy's toxics: named, scoped,
// removable, reproducible with a seed). Stored in the database, so `sandbox serve` and every
// embedded pgw process apply the same ones; the server applies them (src/sandbox/faults.ts).
import { newFaultId } from '../ids.js';
import { nowStamp, type Core } from './core.js';
import type { SandboxFault } from '../../api/schemas/sandbox.js';
import { SandboxError } from '../errors.js';

export type FaultKind = 'status' | 'delay' | 'drop' | 'after_commit';

export interface FaultView {
  id: string;
  merchant_id: string;
  route: string;
  kind: FaultKind;
  status: number | null;
  delay_ms: number | null;
  /** Firings left; null: until cleared. */
  times_left: number | null;
  rate: number | null;
  seed: number | null;
  /** Requests that matched its route, and how many of them it failed. */
  seen: number;
  fired: number;
  created_at: string;
}

interface FaultRow extends Omit<FaultView, 'route'> {
  method: string;
  path: string;
  rng_state: number | null;
}

const view = (r: FaultRow): FaultView => ({
  id: r.id,
  merchant_id: r.merchant_id,
  route: `${r.method} ${r.path}`,
  kind: r.kind,
  status: r.status,
  delay_ms: r.delay_ms,
  times_left: r.times_left,
  rate: r.rate,
  seed: r.seed,
  seen: r.seen,
  fired: r.fired,
  created_at: r.created_at,
});

/** A 32-bit seed, when none was given: printed with the fault, so the run can be repeated. */
const randomSeed = (): number => Math.floor(Math.random() * 0x1_0000_0000);

/** mulberry32: tiny, and the same sequence on every Node for a seed. Returns [value in 0..1, next state]. */
export function nextRandom(state: number): [number, number] {
  const s = (state + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, s];
}

export function addFault(core: Core, merchantId: string, spec: SandboxFault): FaultView {
  const { db } = core;
  const [, method, path] = /^(\S+)\s+(\S+)$/.exec(spec.route)!;
  const kind: FaultKind = spec.status !== undefined ? 'status' : spec.delay_ms !== undefined ? 'delay' : spec.drop ? 'drop' : 'after_commit';
  const seed = spec.rate === undefined ? null : (spec.seed ?? randomSeed());
  return db.write(() => {
    const id = newFaultId(db);
    db.run(
      `INSERT INTO faults (id, merchant_id, method, path, kind, status, delay_ms, times_left, rate, seed, rng_state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      merchantId,
      method!,
      path!,
      kind,
      spec.status ?? null,
      spec.delay_ms ?? null,
      spec.times ?? null,
      spec.rate ?? null,
      seed,
      seed,
      nowStamp(core, merchantId),
    );
    return view(db.get<FaultRow>('SELECT * FROM faults WHERE id = ?', id)!);
  });
}

/** The account's faults, oldest first (spent ones too: they show what fired). */
export function listFaults(core: Core, merchantId: string): FaultView[] {
  return core.db.all<FaultRow>('SELECT * FROM faults WHERE merchant_id = ? ORDER BY created_at, id', merchantId).map(view);
}

/** Remove the account's faults (or one of them); returns what was removed. */
export function clearFaults(core: Core, merchantId: string, id?: string): FaultView[] {
  const { db } = core;
  return db.write(() => {
    const rows = id === undefined ? db.all<FaultRow>('SELECT * FROM faults WHERE merchant_id = ? ORDER BY created_at, id', merchantId) : db.all<FaultRow>('SELECT * FROM faults WHERE merchant_id = ? AND id = ?', merchantId, id);
    if (id !== undefined && rows.length === 0) throw new SandboxError(404, 'ERR_FAULT_002', 'Fault not found', { fault_id: `${id} not found` });
    for (const r of rows) db.run('DELETE FROM faults WHERE id = ?', r.id);
    return rows.map(view);
  });
}

/** What the server needs to match a request: the account's faults that can still fire. */
export interface ArmedFault {
  id: string;
  method: string;
  path: string;
}

export function armedFaults(core: Core, merchantId: string): ArmedFault[] {
  return core.db.all<ArmedFault>('SELECT id, method, path FROM faults WHERE merchant_id = ? AND (times_left IS NULL OR times_left > 0) ORDER BY created_at, id', merchantId);
}

/**
 * A request matched fault `id`: count it, draw from its generator (rate), spend one firing
 * (times), in one write, so processes sharing the database share the count. The fault if it fires.
 */
export function triggerFault(core: Core, id: string): FaultView | undefined {
  const { db } = core;
  return db.write(() => {
    const r = db.get<FaultRow>('SELECT * FROM faults WHERE id = ?', id);
    if (!r || (r.times_left !== null && r.times_left <= 0)) return undefined;
    let fires = true;
    let state = r.rng_state;
    if (r.rate !== null) {
      const [value, next] = nextRandom(state ?? 0);
      state = next;
      fires = value < r.rate;
    }
    db.run(
      'UPDATE faults SET seen = seen + 1, fired = fired + ?, times_left = CASE WHEN times_left IS NULL THEN NULL ELSE times_left - ? END, rng_state = ? WHERE id = ?',
      fires ? 1 : 0,
      fires ? 1 : 0,
      state,
      id,
    );
    return fires ? view({ ...r, fired: r.fired + 1, times_left: r.times_left === null ? null : r.times_left - 1 }) : undefined;
  });
}
