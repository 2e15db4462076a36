// `pgw link ...`: payment links as the support desk sees them (spec 2.8, 4.4) and as the vendor's
// client makes them (gateway-api-beyond.md 3). Each action loads its verb file when it runs.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { LINK_FIELD_FLAGS } from './flags.js';

const GET_HELP = `
Examples:
  pgw link get PR1234567890
  pgw link get PR1234567890 PR1234567891 --json`;

const CREATE_HELP = `
The body comes from --file (JSON, beyond 3.1) and the flags above; flags win. Only --amount is
needed. Without --reference-id one is generated and printed on stderr.
The expiry is sent as UTC ISO 8601 with milliseconds; without one the gateway decides (365 days,
in the vendor's docs and in pgw's sandbox).

Examples:
  pgw link create --amount 1499 --product-description "Annual plan"
  pgw link create --amount 1499 --product-description "Annual plan" --buyer-email asha@example.com --expires-in 3d --qr
  pgw link create --print-template > link.json && pgw link create --file link.json --dry-run`;

const LIST_HELP = `
Examples:
  pgw link list
  pgw link list --page 2 --page-size 50
  pgw link list --all --json`;

const DEACTIVATE_HELP = `
Deactivation cannot be undone: in a terminal pgw asks first, otherwise it needs --yes.

Examples:
  pgw link deactivate PR1234567890
  pgw link deactivate PR1234567890 --yes`;

const EXTEND_HELP = `
Examples:
  pgw link extend PR1234567890 --expires-in 7d
  pgw link extend PR1234567890 --expires-at 2026-12-31T18:30:00Z`;

export function registerLink(program: Command, ctx: Context): void {
  const link = program.command('link').description('payment links: create, look up, list, extend, deactivate');
  link
    .command('get')
    .alias('view') // gh's verb for the same thing
    .description('a payment link with its payments (newest first); several as a table')
    .argument('[link_id...]', 'link IDs (PR...), or - to read them from stdin')
    .option('--from-file <path>', 'read link IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .addHelpText('after', GET_HELP)
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runLinkGet } = await import('./get.js');
      await runLinkGet(ctx, { ids, ...opts });
    });

  const create = link
    .command('create')
    .description('create a payment link (beyond 3.1); prints link_id and payment_link')
    .option('-f, --file <path>', 'JSON body (beyond 3.1); - reads stdin');
  for (const f of LINK_FIELD_FLAGS) create.addOption(new Option(f.flag, f.description));
  create
    .addOption(new Option('--expires-at <time>', 'expiry, ISO 8601 with a zone, e.g. 2026-12-31T18:30:00Z').conflicts('expiresIn'))
    .option('--expires-in <duration>', 'expiry from now: 90s, 30m, 12h, 7d')
    .option('--print-template', 'print a complete example body and send nothing')
    .option('--qr', 'on a terminal, draw the link as a QR code')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', CREATE_HELP)
    .action(async (flags: Record<string, unknown>) => {
      const { buildLinkCreateOptions, runLinkCreate } = await import('./create.js');
      await runLinkCreate(ctx, buildLinkCreateOptions(flags));
    });

  link
    .command('list')
    .description('payment links, newest first, as a table (beyond 3.2)')
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', "links per page, at most 100 (default: the gateway's)")
    .addOption(new Option('--all', 'follow every page (progress on stderr in a terminal)').conflicts('page'))
    .addHelpText('after', LIST_HELP)
    .action(async (opts: { page?: string; pageSize?: string; all?: boolean }) => {
      const { runLinkList } = await import('./list.js');
      await runLinkList(ctx, opts);
    });

  link
    .command('deactivate')
    .description('deactivate a payment link for good (beyond 3.3); asks first, or --yes')
    .argument('<link_id>', 'link to deactivate (PR...)')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', DEACTIVATE_HELP)
    .action(async (linkId: string, opts: { dryRun?: boolean }) => {
      const { runLinkDeactivate } = await import('./change.js');
      await runLinkDeactivate(ctx, { linkId, ...opts });
    });

  link
    .command('extend')
    .description("move a payment link's expiry later (beyond 3.4)")
    .argument('<link_id>', 'link to extend (PR...)')
    .addOption(new Option('--expires-at <time>', 'new expiry, ISO 8601 with a zone').conflicts('expiresIn'))
    .option('--expires-in <duration>', 'new expiry from now: 90s, 30m, 12h, 7d')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', EXTEND_HELP)
    .action(async (linkId: string, opts: { expiresAt?: string; expiresIn?: string; dryRun?: boolean }) => {
      const { runLinkExtend } = await import('./change.js');
      await runLinkExtend(ctx, { linkId, ...opts });
    });
}
