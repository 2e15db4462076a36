// `pgw sub ...`: subscriptions (spec 4.7). Each action loads its verb file only when it runs.
import type { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerSub(program: Command, ctx: Context): void {
  const sub = program.command('sub').description('subscriptions: simulate their payments (sandbox only)');

  sub
    .command('simulate')
    .description('sandbox only: simulate a payment of a subscription (spec 4.7)')
    .argument('<subscription_id>', 'the subscription uid')
    .requiredOption('--status <status>', 'SUCCESS or FAILED (any case; sent uppercase)')
    .option('--payment-id <id>', 'the payment to act on (default: the gateway chooses; the sandbox makes a new charge)')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (subscriptionId: string, opts: { status: string; paymentId?: string; dryRun?: boolean }) => {
      const { runSubSimulate } = await import('./simulate.js');
      await runSubSimulate(ctx, { subscriptionId, ...opts });
    });
}
