// `pgw trigger <EVENT>`: registered by program.ts; the verb file is loaded only when it runs.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { EVENT_TYPES } from '../../events.js';

const TRIGGER_HELP = `
Sandbox only (exit 6 on a production profile, before anything is sent). Makes the event happen
the way the gateway would, through the same operations a client uses:
  PAYMENT_SUCCESSFUL    an order, then a captured payment          (--order: pay that order)
  PAYMENT_FAILED        an order, then a failed payment            (--order: fail that order)
  PAYMENT_SETTLED       a captured payment, then mark-settled      (--payment: settle that one)
  PAYMENT_REFUNDED      a refund of a captured payment, REFUNDED   (--payment, --refund)
  REFUND_FAILED         a refund, then FAILED                      (--payment, --refund)
  REFUND_STATUS_UPDATE  a refund, then --refund-status (PROCESSING, REVERSED, ON_HOLD,
                        BANK_REJECTED_REFUND; default PROCESSING)  (--payment, --refund)
  MERCHANT_APPROVED     a PSP's new sub-merchant, then approved    (--merchant: approve that one)
  VERIFICATION_NEEDED   a captured payment's verification opened   (--payment: open that one's)
  LRS_VERIFICATION_NEEDED  opened, then an LRS purpose code declared (S0305)     (--payment)
  PAYMENT_UNDER_REVIEW  LRS, then the review starts                (--payment)
  VERIFICATION_STATUS   LRS, under review, then approved           (--payment)
  PAYMENT_DETAILS_MISSING  the retired event: turns the account's compatibility flag on,
                        then a bank transfer to a new virtual account (--payment)
Making what an event needs sends the events of each step too (a settled payment was first
successful). With --link the payment goes through a payment link, so payment events carry
link_id. Then it says where the event went: the registered addresses, or none (run pgw listen
in another terminal, or pgw sandbox webhook add <url>); pgw events list shows every delivery.

Examples:
  pgw trigger PAYMENT_SETTLED
  pgw trigger PAYMENT_SUCCESSFUL --amount 2500 --mop credit_card --link
  pgw trigger payment_failed --json --query payment_id
  pgw trigger REFUND_STATUS_UPDATE --payment PR1234567890 --refund-status ON_HOLD
  pgw -p local-psp trigger MERCHANT_APPROVED`;

export function registerTrigger(program: Command, ctx: Context): void {
  program
    .command('trigger')
    .description('sandbox only: make a webhook event happen (on new objects, or existing ones); prints the IDs and where the event went')
    .argument('<event>', `${EVENT_TYPES.join(', ')} (any case)`)
    .option('--amount <amount>', 'order amount in rupees (default 1000.00)')
    .addOption(new Option('--mop <method>', 'method of payment (default upi)').choices(['upi', 'credit_card', 'debit_card', 'net_banking', 'qr']))
    .option('--link', 'pay through a payment link (payment events then carry link_id)')
    .option('--order <order_id>', 'pay this existing order instead of creating one')
    .option('--payment <payment_id>', 'start from this captured payment (settle, refund or verify it)')
    .option('--refund <refund_id>', 'move this existing refund')
    .option('--merchant <merchant_id>', 'approve this sub-merchant (MERCHANT_APPROVED)')
    .addOption(new Option('--refund-status <status>', 'REFUND_STATUS_UPDATE: the status to move the refund to').choices(['PROCESSING', 'REVERSED', 'ON_HOLD', 'BANK_REJECTED_REFUND']))
    .addHelpText('after', TRIGGER_HELP)
    .action(async (event: string, opts: { amount?: string; mop?: string; link?: boolean; order?: string; payment?: string; refund?: string; merchant?: string; refundStatus?: string }) => {
      const { runTrigger } = await import('./run.js');
      await runTrigger(ctx, { event, ...opts });
    });
}
