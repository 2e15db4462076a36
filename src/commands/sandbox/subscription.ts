// pgw sandbox subscription create --amount: something for `pgw sub simulate` to act on.
import type { Context } from '../../context.js';
import { amountOption } from '../amount-option.js';
import { MAX_ORDER_AMOUNT } from '../../api/schemas/limits.js';
import { emit, renderDetail } from '../../output/render.js';
import { formatTime } from '../../output/time.js';
import { sandboxCall } from './call.js';

interface SubscriptionView {
  uid: string;
  amount?: string;
  status?: string;
  created_at?: string;
}

export async function runSubscriptionCreate(ctx: Context, opts: { amount: string; dryRun?: boolean }): Promise<void> {
  const amount = amountOption('--amount', opts.amount, MAX_ORDER_AMOUNT);
  const sub = await sandboxCall<SubscriptionView>(
    ctx,
    'sandbox subscription create',
    { method: 'POST', path: '/sandbox/subscriptions/', body: { amount } },
    opts.dryRun,
  );
  if (!sub) return;
  await emit(ctx.io, ctx.output, sub, () => {
    ctx.io.out(renderDetail([{ rows: [['uid', sub.uid], ['amount', sub.amount], ['status', sub.status], ['created', formatTime(sub.created_at, ctx.io.stdoutIsTTY)]] }]));
  });
}
