// `pgw refund ...`: refunds (gateway-api-beyond.md 2). Each action loads its verb file when it runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

const CREATE_HELP = `
Without --amount, refund_amount is not sent: the gateway decides (pgw's sandbox refunds what is
left of the payment). --amount is sent as a 2-decimal string ("100" is sent as "100.00").
On a production profile it asks first in a terminal, and needs --yes otherwise.

Examples:
  pgw refund create PR1234567890 --amount 100
  pgw refund create PR1234567890 --amount 250.50 --callback-url https://shop.example/refunds
  pgw refund create PR1234567890 --dry-run`;

const GET_HELP = `
Each refund is read with its settlement (GET /pg/refunds/{id}/ and /settlement/). JSON is the
refund's data unchanged, with the settlement call's data added under "settlement".

Examples:
  pgw refund get RF1234567890
  pgw refund get RF1234567890 RF1234567891 --json
  pgw refund get --from-file refunds.txt`;

export interface RefundCreateFlags {
  amount?: string;
  callbackUrl?: string;
  dryRun?: boolean;
}

/** The options of `refund create`, shared with its alias `sandbox refund`. */
export function refundCreateOptions(cmd: Command): Command {
  return cmd
    .argument('<payment_id>', 'captured payment to refund (PR...)')
    .option('--amount <amount>', 'amount in rupees (refund_amount); omitted: not sent, the gateway\'s default')
    .option('--callback-url <url>', 'where the gateway posts refund status notifications')
    .option('--dry-run', 'print the request that would be sent and send nothing');
}

export function registerRefund(program: Command, ctx: Context): void {
  const refund = program.command('refund').description('refund payments and look refunds up');

  refundCreateOptions(refund.command('create').description('refund a captured payment, in full or in part (beyond 2.1); prints the refund'))
    .addHelpText('after', CREATE_HELP)
    .action(async (paymentId: string, opts: RefundCreateFlags) => {
      const { runRefundCreate } = await import('./create.js');
      await runRefundCreate(ctx, { paymentId, ...opts });
    });

  refund
    .command('get')
    .alias('view') // gh's verb for the same thing
    .description('a refund with its settlement status (beyond 2.2, 2.3); several as a table')
    .argument('[refund_id...]', 'refund IDs (RF...), or - to read them from stdin')
    .option('--from-file <path>', 'read refund IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .addHelpText('after', GET_HELP)
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runRefundGet } = await import('./get.js');
      await runRefundGet(ctx, { ids, ...opts });
    });
}
