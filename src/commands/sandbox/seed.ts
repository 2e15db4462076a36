// pgw sandbox seed [--payments N]: demo data, or N captured payments for benchmarks.
import type { Context } from '../../context.js';
import { positiveIntOption } from '../parse.js';
import { emit, renderTable } from '../../output/render.js';
import { sandboxCall } from './call.js';

/** A bulk seed is one transaction in the sandbox: keep it to what one process handles comfortably. */
const MAX_SEED_PAYMENTS = 100_000;

export interface SeedResult {
  orders?: string[];
  payments?: string[];
  refunds?: string[];
  link_id?: string;
  settlement_id?: string;
  subscription_id?: string;
  [extra: string]: unknown;
}

export async function runSeed(ctx: Context, opts: { payments?: string; snapshot?: string; dryRun?: boolean }): Promise<void> {
  const count = opts.payments === undefined ? undefined : positiveIntOption('--payments', opts.payments, MAX_SEED_PAYMENTS);
  const snapshot = opts.snapshot === undefined ? undefined : (await import('./snapshot.js')).snapshotName(opts.snapshot);
  const seeded = await sandboxCall<SeedResult>(
    ctx,
    'sandbox seed',
    { method: 'POST', path: '/sandbox/seed/', body: count === undefined ? {} : { payments: count } },
    opts.dryRun,
  );
  if (!seeded) return;
  if (snapshot !== undefined) {
    // Seeds, then saves: a suite restores this known world before each test (issue 24).
    const { saveSnapshotVia } = await import('./snapshot.js');
    const saved = await saveSnapshotVia(ctx, snapshot, {});
    ctx.io.err(`saved snapshot ${snapshot}${saved?.replaced ? ' (it replaced the one of that name)' : ''}: pgw sandbox snapshot restore ${snapshot} brings it back\n`);
  }
  if (count !== undefined) {
    const ids = seeded.payments ?? [];
    await emit(ctx.io, ctx.output, ids, () => ctx.io.out(ids.map((id) => `${id}\n`).join('')));
    return;
  }
  await emit(ctx.io, ctx.output, seeded, () => {
    const rows: string[][] = [];
    for (const id of seeded.orders ?? []) rows.push(['order', id]);
    for (const id of seeded.payments ?? []) rows.push(['payment', id]);
    for (const id of seeded.refunds ?? []) rows.push(['refund', id]);
    if (seeded.link_id) rows.push(['payment link', seeded.link_id]);
    if (seeded.settlement_id) rows.push(['settlement', seeded.settlement_id]);
    if (seeded.subscription_id) rows.push(['subscription', seeded.subscription_id]);
    ctx.io.out(renderTable(['created', 'id'], rows, ctx.io.colorOut));
    const firstPayment = seeded.payments?.[0];
    if (firstPayment) ctx.io.err(`next: pgw payment get ${firstPayment}\n`);
  });
}
