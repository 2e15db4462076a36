// `pgw sandbox ...`: the embedded gateway's server and its helpers (contract table; sandbox.md).
// Each action loads its verb file only when it runs.
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';

export function registerSandbox(program: Command, ctx: Context): void {
  const sandbox = program
    .command('sandbox')
    .description("pgw's offline, stateful gateway: serve it, and move money in it");

  sandbox
    .command('serve')
    .description('run the sandbox as an HTTP server (prints its base URL and demo credentials)')
    .addOption(new Option('--port <port>', 'port to listen on; 0 for a free one').default('4010'))
    .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
    .option('--db <file>', 'SQLite database file (default: the embedded profiles\' <config dir>/sandbox.db)')
    .option('-q, --quiet', 'no request log (by default each request is one line on stderr)')
    .action(async (opts: { port: string; host: string; db?: string; quiet?: boolean }) => {
      const { runSandboxServe } = await import('./serve.js');
      await runSandboxServe(ctx, opts);
    });

  sandbox
    .command('pay')
    .description("complete the buyer's side of an order (a captured payment, or a failed one with --fail)")
    .argument('<order_id>', 'order to pay')
    .option('--fail', 'make the payment fail')
    .option('--mop <method>', 'method of payment: upi, credit_card, debit_card, net_banking, qr')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (orderId: string, opts: { fail?: boolean; mop?: string; dryRun?: boolean }) => {
      const { runSandboxPay } = await import('./pay.js');
      await runSandboxPay(ctx, { orderId, ...opts });
    });

  for (const kind of ['refund', 'chargeback'] as const) {
    sandbox
      .command(kind)
      .description(kind === 'refund' ? 'add a refund (RF...) to a captured payment' : 'add a chargeback (CB...) to a captured payment')
      .argument('<payment_id>', 'captured payment')
      .requiredOption('--amount <amount>', 'amount in rupees, e.g. 100.00')
      .option('--dry-run', 'print the request and send nothing')
      .action(async (paymentId: string, opts: { amount: string; dryRun?: boolean }) => {
        const { runSandboxDebit } = await import('./debit.js');
        await runSandboxDebit(ctx, { kind, paymentId, ...opts });
      });
  }

  const link = sandbox.command('link').description('payment links for orders');
  link
    .command('create')
    .description('create a payment link for an order')
    .requiredOption('--order <order_id>', 'order the link collects')
    .option('--expires-in <duration>', 'time to expiry: 90s, 30m, 12h, 7d (default 7d)')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (opts: { order: string; expiresIn?: string; dryRun?: boolean }) => {
      const { runLinkCreate } = await import('./link.js');
      await runLinkCreate(ctx, opts);
    });
  link
    .command('deactivate')
    .description('deactivate a payment link (it then reads expired)')
    .argument('<link_id>', 'link to deactivate')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (linkId: string, opts: { dryRun?: boolean }) => {
      const { runLinkDeactivate } = await import('./link.js');
      await runLinkDeactivate(ctx, { linkId, ...opts });
    });

  sandbox
    .command('subscription')
    .description('subscriptions to simulate payments on')
    .command('create')
    .description('create a subscription; prints its uid')
    .requiredOption('--amount <amount>', 'amount per payment in rupees')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (opts: { amount: string; dryRun?: boolean }) => {
      const { runSubscriptionCreate } = await import('./subscription.js');
      await runSubscriptionCreate(ctx, opts);
    });

  sandbox
    .command('webhook')
    .description('webhook addresses the sandbox posts events to')
    .command('add')
    .description('register an address for PAYMENT_SETTLED and payment events')
    .argument('<url>', 'http(s) address that receives POSTed JSON')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (url: string, opts: { dryRun?: boolean }) => {
      const { runWebhookAdd } = await import('./webhook.js');
      await runWebhookAdd(ctx, { url, ...opts });
    });

  sandbox
    .command('seed')
    .description('create demo data: orders, captured payments, a link and a settlement')
    .option('--payments <n>', 'instead: N captured payments in one transaction (IDs printed)')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (opts: { payments?: string; dryRun?: boolean }) => {
      const { runSeed } = await import('./seed.js');
      await runSeed(ctx, opts);
    });

  sandbox
    .command('reset')
    .description('empty the sandbox (accounts and their credentials stay); asks first')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (opts: { dryRun?: boolean }) => {
      const { runReset } = await import('./reset.js');
      await runReset(ctx, opts);
    });
}
