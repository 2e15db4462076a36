// pgw sandbox refund|chargeback <payment_id> --amount: money that a settlement later debits.
import type { Context } from '../../context.js';
import { idArgument } from '../parse.js';
import { amountOption } from '../amount-option.js';
import { emit, renderDetail } from '../../output/render.js';
import { sandboxCall } from './call.js';
import { formatTime } from '../../output/time.js';
import { displayMoney } from '../../money.js';

export interface SandboxDebitOptions {
  kind: 'refund' | 'chargeback';
  paymentId: string;
  amount: string;
  dryRun?: boolean;
}

type Debit = Record<string, unknown> & { payment_id?: string; amount?: string; currency?: string; status?: string; created_at?: string };

export async function runSandboxDebit(ctx: Context, opts: SandboxDebitOptions): Promise<void> {
  const paymentId = idArgument('payment_id', opts.paymentId);
  const amount = amountOption('--amount', opts.amount);
  const collection = opts.kind === 'refund' ? 'refunds' : 'chargebacks';
  const debit = await sandboxCall<Debit>(
    ctx,
    `sandbox ${opts.kind}`,
    { method: 'POST', path: `/sandbox/payments/${paymentId}/${collection}/`, body: { amount } },
    opts.dryRun,
  );
  if (!debit) return;
  const idField = opts.kind === 'refund' ? 'refund_id' : 'chargeback_id';
  await emit(ctx.io, ctx.output, debit, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            [idField, String(debit[idField] ?? '')],
            ['payment_id', debit.payment_id],
            ['amount', displayMoney(debit.amount, debit.currency)],
            ['status', debit.status],
            ['created', formatTime(debit.created_at, ctx.io.stdoutIsTTY)],
          ],
        },
      ]),
    );
  });
}
