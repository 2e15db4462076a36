// `pgw link ...`: payment links as the support desk sees them.
import { Command } from 'commander';
import type { Context } from '../../context.js';

export function registerLink(program: Command, ctx: Context): void {
  const link = program.command('link').description('look up payment links');
  link
    .command('get')
    .description('a payment link with its payments (newest first); several as a table')
    .argument('[link_id...]', 'link IDs (PR...), or - to read them from stdin')
    .option('--from-file <path>', 'read link IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runLinkGet } = await import('./get.js');
      await runLinkGet(ctx, { ids, ...opts });
    });
}
