// `pgw payment ...`: what happened to a payment, for support staff.
import { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerPayment(program: Command, ctx: Context): void {
  const payment = program.command('payment').description('look up payments');
  payment
    .command('get')
    .alias('view') // gh's verb for the same thing
    .description('one payment as a readable summary, or several as a table (- reads IDs from stdin)')
    .argument('[payment_id...]', 'payment IDs (PR...), or - to read them from stdin')
    .option('--from-file <path>', 'read payment IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runPaymentGet } = await import('./get.js');
      await runPaymentGet(ctx, { ids, ...opts });
    });
}
