// pgw sandbox pay <order_id>: the buyer's side of an order, done from the command line.
import type { Context } from '../../context.js';
import { idArgument } from '../parse.js';
import { UsageError } from '../../errors.js';
import { emit, renderDetail } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { sandboxCall } from './call.js';
import { displayMoney } from '../../money.js';

const METHODS = ['upi', 'credit_card', 'debit_card', 'net_banking', 'qr'];

export interface SandboxPayOptions {
  orderId: string;
  fail?: boolean;
  mop?: string;
  dryRun?: boolean;
}

interface PaymentView {
  payment_id: string;
  status: string;
  mop_type?: string | null;
  order?: { order_id?: string; amount?: string; currency?: string };
}

export async function runSandboxPay(ctx: Context, opts: SandboxPayOptions): Promise<void> {
  const orderId = idArgument('order_id', opts.orderId);
  const mop = opts.mop?.toLowerCase();
  if (mop !== undefined && !METHODS.includes(mop)) {
    throw new UsageError(`--mop: "${opts.mop}" is not one of ${METHODS.join(', ')}`);
  }
  const body = { outcome: opts.fail ? 'fail' : 'success', ...(mop ? { mop_type: mop } : {}) };
  const payment = await sandboxCall<PaymentView>(
    ctx,
    'sandbox pay',
    { method: 'POST', path: `/sandbox/orders/${orderId}/pay/`, body },
    opts.dryRun,
  );
  if (!payment) return;
  const theme = createTheme(ctx.io.colorOut);
  await emit(ctx.io, ctx.output, payment, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['payment_id', payment.payment_id],
            ['order_id', payment.order?.order_id],
            ['status', theme.status(payment.status)],
            ['amount', displayMoney(payment.order?.amount, payment.order?.currency)],
            ['method', payment.mop_type],
          ],
        },
      ]),
    );
    // issue 42 item 4: captured money settles next; a failed try can be made again.
    if (payment.status === 'captured') ctx.log(`next: pgw settle mark ${payment.payment_id}`);
    else ctx.log(`next: pgw sandbox pay ${orderId}`);
  });
}
