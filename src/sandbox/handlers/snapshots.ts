// Snapshots over HTTP (issue 24), for test frameworks that are not pgw. Scoped like reset: a
// snapshot covers the caller's own data (a PSP's includes its sub-merchants) and lives under the
// caller's account, unless the server was started with --allow-global-snapshots, where every
// snapshot is of the whole database (one team's machine, one world).
import { checkSnapshotName, deleteSnapshot, listSnapshots, restoreSnapshot, saveSnapshot, type SnapshotPlace } from '../snapshots.js';
import type { Scope } from '../store/core.js';
import type { Handler, RequestContext } from './types.js';
import { SandboxError } from '../errors.js';

function where(ctx: RequestContext): { place: SnapshotPlace; scope?: Scope } {
  if (ctx.allowGlobalSnapshots) return { place: { dbPath: ctx.store.path } };
  ctx.caller.acting(); // an X-Merchant-ID the caller may not act for: merchant not found
  return { place: { dbPath: ctx.store.path, account: ctx.caller.account.merchant_id }, scope: ctx.caller.scope };
}

function nameFrom(body: unknown): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new SandboxError(400, 'ERR_VALIDATION_000', 'Invalid request', { name: 'required: the snapshot name' });
  }
  const { name, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new SandboxError(400, 'ERR_VALIDATION_000', 'Invalid request', Object.fromEntries(unknown.map((k) => [k, 'unknown field'])));
  if (name === undefined) throw new SandboxError(400, 'ERR_VALIDATION_000', 'Invalid request', { name: 'required: the snapshot name' });
  return checkSnapshotName(name);
}

/** GET /sandbox/snapshots/ → the snapshots the caller can restore. */
export const list: Handler = (ctx) => ({ message: 'snapshots fetched successfully', data: listSnapshots(ctx.store.db, where(ctx).place) });

/** POST /sandbox/snapshots/ {"name"} → saved (an existing one of that name is replaced). */
export const save: Handler = (ctx) => {
  const name = nameFrom(ctx.body);
  const { place, scope } = where(ctx);
  return { message: 'snapshot saved successfully', data: saveSnapshot(ctx.store.db, place, name, { scope, clockMicros: ctx.store.nowMicros(scope ? ctx.caller.account.merchant_id : null) }) };
};

/** POST /sandbox/snapshots/{name}/restore/ → the data is the snapshot's, in one transaction. */
export const restore: Handler = (ctx) => {
  const name = checkSnapshotName(ctx.params.name);
  const { place, scope } = where(ctx);
  const info = restoreSnapshot(ctx.store.db, place, name, { scope, caller: ctx.caller.account.merchant_id, machineMicros: ctx.store.machineMicros });
  return { message: 'snapshot restored successfully', data: { ...info, restored: true } };
};

/** DELETE /sandbox/snapshots/{name}/ → the snapshot removed. */
export const remove: Handler = (ctx) => {
  const name = checkSnapshotName(ctx.params.name);
  return { message: 'snapshot deleted successfully', data: deleteSnapshot(ctx.store.db, where(ctx).place, name) };
};
