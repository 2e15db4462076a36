// `pgw trigger <EVENT>`: registered by program.ts; the verb file is loaded only when it runs.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';

const TRIGGER_HELP = `
Sandbox only (exit 6 on a production profile, before anything is sent). Makes the event happen
the way the gateway would, through the same operations a client uses:
  PAYMENT_CAPTURED   an order, then a captured payment
  PAYMENT_FAILED     an order, then a failed payment
  PAYMENT_SETTLED    an order, a captured payment (PAYMENT_CAPTURED too), then mark-settled
With --link the payment goes through a payment link, so payment events carry link_id.
The sandbox POSTs the event to every registered address: run pgw listen in another terminal.

Examples:
  pgw trigger PAYMENT_SETTLED
  pgw trigger PAYMENT_CAPTURED --amount 2500 --mop credit_card --link
  pgw trigger payment_failed --json --query payment_id`;

export function registerTrigger(program: Command, ctx: Context): void {
  program
    .command('trigger')
    .description('sandbox only: make a webhook event happen by creating what it needs; prints the IDs made')
    .argument('<event>', 'PAYMENT_SETTLED, PAYMENT_CAPTURED or PAYMENT_FAILED (any case)')
    .option('--amount <amount>', 'order amount in rupees (default 1000.00)')
    .addOption(new Option('--mop <method>', 'method of payment (default upi)').choices(['upi', 'credit_card', 'debit_card', 'net_banking', 'qr']))
    .option('--link', 'pay through a payment link (payment events then carry link_id)')
    .addHelpText('after', TRIGGER_HELP)
    .action(async (event: string, opts: { amount?: string; mop?: string; link?: boolean }) => {
      const { runTrigger } = await import('./run.js');
      await runTrigger(ctx, { event, ...opts });
    });
}
