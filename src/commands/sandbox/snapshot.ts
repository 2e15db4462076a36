// pgw sandbox snapshot save|restore|list|delete (issue 24): saved worlds a test suite restores.
//
// Where the file is (the embedded profile, or --db <file>), pgw works on it directly and a
// snapshot is of the whole database, the sandbox clock included. Against a server over HTTP
// (`sandbox serve` elsewhere), the server decides: the caller's own data, or the whole database
// when it runs with --allow-global-snapshots. Restore and delete cannot be undone: they ask in a
// terminal and need --yes elsewhere (exit 6), like reset.
import { existsSync } from 'node:fs';
import type { Context } from '../../context.js';
import { GatewayError, NotFoundError, RefusedError, UsageError } from '../../errors.js';
import { requireSandbox } from '../../rails.js';
import { sandboxDbPath } from '../../config/paths.js';
import { emit, renderDetail, renderTable } from '../../output/render.js';
import { sandboxCall } from './call.js';

/** What the sandbox says of a snapshot (src/sandbox/snapshots.ts SnapshotInfo). */
export interface SnapshotView {
  name: string;
  scope: 'global' | 'account';
  account: string | null;
  merchant_ids: string[] | null;
  created_at: string;
  orders: number;
  payments: number;
  bytes: number;
  replaced?: boolean;
  restored?: boolean;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function snapshotName(value: string): string {
  if (!NAME.test(value)) throw new UsageError(`snapshot name "${value}": use 1-64 letters, digits, dots, dashes or underscores, starting with a letter or digit`);
  return value;
}

/** The file to work on directly, or undefined: over HTTP. */
async function directFile(ctx: Context, command: string, db: string | undefined, mustExist: boolean): Promise<string | undefined> {
  if (db !== undefined) {
    if (mustExist && !existsSync(db)) throw new UsageError(`--db: no sandbox database at ${db}`);
    return db;
  }
  const profile = await ctx.profile();
  requireSandbox(profile, command);
  return profile.baseUrl === undefined ? sandboxDbPath(ctx.configDir) : undefined;
}

/** Runs `fn` on the database file; the sandbox's own refusals become pgw's typed errors. */
async function onFile<T>(file: string, fn: (m: typeof import('../../sandbox/snapshots.js'), store: import('../../sandbox/store.js').Store) => T): Promise<T> {
  const [snapshots, { openStore }, { SandboxError }] = await Promise.all([
    import('../../sandbox/snapshots.js'),
    import('../../sandbox/store.js'),
    import('../../sandbox/errors.js'),
  ]);
  const store = openStore(file);
  try {
    return fn(snapshots, store);
  } catch (err) {
    if (err instanceof SandboxError) {
      const detail = Object.values(err.details ?? {})[0];
      const message = `${err.message}${typeof detail === 'string' ? `: ${detail}` : ''}`;
      if (err.status === 404) throw new NotFoundError(message, { code: String(err.code), suggestion: 'list them with: pgw sandbox snapshot list' });
      if (err.status === 400) throw new UsageError(message, { code: String(err.code) });
      throw new GatewayError(message, { code: String(err.code) });
    }
    throw err;
  } finally {
    store.close();
  }
}

function detail(ctx: Context, s: SnapshotView): string {
  return renderDetail([
    {
      rows: [
        ['name', s.name],
        ['scope', s.scope === 'global' ? 'whole database' : `account ${s.account ?? ''}`.trim()],
        ['merchants', s.merchant_ids ? s.merchant_ids.join(', ') : 'all'],
        ['orders', String(s.orders)],
        ['payments', String(s.payments)],
        ['taken at', `${s.created_at} (sandbox time)`],
        ['size', size(s.bytes)],
      ],
    },
  ]);
}

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function confirm(ctx: Context, question: string, refusal: string): Promise<void> {
  if (ctx.yes) return;
  if (!ctx.io.canPrompt) throw new RefusedError(refusal);
  const prompter = await ctx.loadPrompter();
  if (!(await prompter.confirm({ message: question, default: false }))) throw new RefusedError('cancelled: nothing changed');
}

export interface SnapshotOptions {
  db?: string;
  dryRun?: boolean;
}

/** Save `name`: on the file (whole database), or over HTTP (the server's scope). */
export async function saveSnapshotVia(ctx: Context, name: string, opts: SnapshotOptions): Promise<SnapshotView | undefined> {
  const file = await directFile(ctx, 'sandbox snapshot save', opts.db, true);
  if (file === undefined) {
    return sandboxCall<SnapshotView>(ctx, 'sandbox snapshot save', { method: 'POST', path: '/sandbox/snapshots/', body: { name } }, opts.dryRun);
  }
  if (opts.dryRun) {
    await emit(ctx.io, ctx.output, { database: file, would_save: name }, () => ctx.io.err(`dry run: would save the whole database ${file} as snapshot ${name}\n`));
    return undefined;
  }
  return onFile(file, (m, store) => m.saveSnapshot(store.db, { dbPath: file }, name, { clockMicros: store.nowMicros(null) }));
}

export async function runSnapshotSave(ctx: Context, opts: SnapshotOptions & { name: string }): Promise<void> {
  const name = snapshotName(opts.name);
  const saved = await saveSnapshotVia(ctx, name, opts);
  if (!saved) return;
  await emit(ctx.io, ctx.output, saved, () => {
    ctx.io.out(detail(ctx, saved));
    ctx.io.err(`saved snapshot ${name}${saved.replaced ? ' (it replaced the one of that name)' : ''}; bring it back with: pgw sandbox snapshot restore ${name}\n`);
  });
}

async function list(ctx: Context, file: string | undefined): Promise<SnapshotView[]> {
  if (file === undefined) return (await sandboxCall<SnapshotView[]>(ctx, 'sandbox snapshot list', { method: 'GET', path: '/sandbox/snapshots/' }))!;
  return onFile(file, (m, store) => m.listSnapshots(store.db, { dbPath: file }));
}

export async function runSnapshotList(ctx: Context, opts: { db?: string }): Promise<void> {
  const file = await directFile(ctx, 'sandbox snapshot list', opts.db, true);
  const all = await list(ctx, file);
  await emit(ctx.io, ctx.output, all, () => {
    if (all.length === 0) {
      ctx.io.err('no snapshots (save one with: pgw sandbox snapshot save <name>)\n');
      return;
    }
    // The scope by the name JSON, the docs and --allow-global-snapshots use (it read `database`).
    const rows = all.map((s) => [s.name, s.scope, String(s.orders), String(s.payments), s.created_at.slice(0, 19).replace('T', ' '), size(s.bytes)]);
    ctx.io.out(renderTable(['name', 'scope', 'orders', 'payments', 'taken (sandbox time)', 'size'], rows, ctx.io.colorOut));
  });
}

/** The snapshot as listed, or not found (exit 5) before anything is asked or changed. */
async function existing(ctx: Context, file: string | undefined, name: string): Promise<SnapshotView> {
  const found = (await list(ctx, file)).find((s) => s.name === name);
  if (!found) throw new NotFoundError(`no snapshot named ${name}`, { code: 'ERR_SNAPSHOT_002', suggestion: 'list them with: pgw sandbox snapshot list' });
  return found;
}

export async function runSnapshotRestore(ctx: Context, opts: SnapshotOptions & { name: string }): Promise<void> {
  const name = snapshotName(opts.name);
  const file = await directFile(ctx, 'sandbox snapshot restore', opts.db, true);
  let restored: SnapshotView | undefined;
  if (file === undefined) {
    if (!opts.dryRun) {
      const s = await existing(ctx, undefined, name);
      const what = s.scope === 'global' ? 'every account\'s data on the server' : 'the data of the account in use (and its sub-merchants\')';
      await confirm(ctx, `Replace ${what} with snapshot ${name} (${s.orders} orders, ${s.payments} payments)?`, `snapshot restore replaces ${what}: confirm with --yes`);
    }
    restored = await sandboxCall<SnapshotView>(ctx, 'sandbox snapshot restore', { method: 'POST', path: `/sandbox/snapshots/${encodeURIComponent(name)}/restore/` }, opts.dryRun);
  } else {
    const s = await existing(ctx, file, name);
    if (opts.dryRun) {
      await emit(ctx.io, ctx.output, { database: file, would_restore: s }, () => ctx.io.err(`dry run: would replace every account's data in ${file} with snapshot ${name}\n`));
      return;
    }
    await confirm(ctx, `Replace every account's data in ${file} with snapshot ${name} (${s.orders} orders, ${s.payments} payments)?`, `snapshot restore replaces every account's data in ${file}: confirm with --yes`);
    restored = { ...(await onFile(file, (m, store) => m.restoreSnapshot(store.db, { dbPath: file }, name, { machineMicros: store.machineMicros }))), restored: true };
  }
  if (!restored) return;
  const done = restored;
  await emit(ctx.io, ctx.output, done, () => {
    ctx.io.out(detail(ctx, done));
    ctx.io.err(`restored snapshot ${name}\n`);
  });
}

export async function runSnapshotDelete(ctx: Context, opts: SnapshotOptions & { name: string }): Promise<void> {
  const name = snapshotName(opts.name);
  const file = await directFile(ctx, 'sandbox snapshot delete', opts.db, true);
  if (!opts.dryRun) {
    await existing(ctx, file, name);
    await confirm(ctx, `Delete snapshot ${name}? It cannot be brought back.`, `snapshot delete cannot be undone: confirm with --yes`);
  }
  let deleted: SnapshotView | undefined;
  if (file === undefined) {
    deleted = await sandboxCall<SnapshotView>(ctx, 'sandbox snapshot delete', { method: 'DELETE', path: `/sandbox/snapshots/${encodeURIComponent(name)}/` }, opts.dryRun);
  } else if (opts.dryRun) {
    await emit(ctx.io, ctx.output, { database: file, would_delete: name }, () => ctx.io.err(`dry run: would delete snapshot ${name} of ${file}\n`));
  } else {
    deleted = await onFile(file, (m, store) => m.deleteSnapshot(store.db, { dbPath: file }, name));
  }
  if (!deleted) return;
  const gone = deleted;
  await emit(ctx.io, ctx.output, gone, () => ctx.io.err(`deleted snapshot ${name}\n`));
}
