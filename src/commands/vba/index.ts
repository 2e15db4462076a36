// `pgw vba ...`: virtual bank accounts (vendor 11.7): create, list, get, and the money they
// received. Each action loads its verb file when it runs. Money is sent to an account with
// `pgw sandbox vba transfer` (the sandbox's simulate-transfer, vendor 11.7.6).
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

const CREATE_HELP = `
Without options the account takes any sender and any amount. --remitter limits who may pay in
(repeat it for several: an account number, and optionally its IFSC after a colon); --min-amount
and --max-amount limit each credit, in rupees. A credit that breaks a rule is still recorded, as
a failed payment (vendor 11.7.6).

Examples:
  pgw vba create
  pgw vba create --remitter 000123456789:HDFC0001234 --remitter 987654321 --max-amount 500000
  pgw vba create --min-amount 100 --dry-run`;

const LIST_HELP = `
Examples:
  pgw vba list
  pgw vba list --status INACTIVE
  pgw vba list --all --json`;

const GET_HELP = `
Examples:
  pgw vba get 12345678
  pgw vba get 12345678 87654321 --json`;

const PAYMENTS_HELP = `
Newest first, as the gateway lists them (vendor 11.7.4). --from and --to take a day
(YYYY-MM-DD, whole UTC days) or an ISO 8601 time, and bound the creation time. --utr looks up the
one credit with that bank reference instead (vendor 11.7.5).

Examples:
  pgw vba payments 12345678
  pgw vba payments 12345678 --utr UTR202611280001
  pgw vba payments 12345678 --from 2026-11-01 --to 2026-11-30 --all -o csv`;

export function registerVba(program: Command, ctx: Context): void {
  const vba = program.command('vba').description('virtual bank accounts: create, list, look up, and the credits they received');

  vba
    .command('create')
    .description('create a virtual bank account (vendor 11.7.1); prints its virtual_account_id and bank details')
    .option('--remitter <acct[:ifsc]>', 'only this sender may pay in (repeatable): account number, optionally :IFSC', collect)
    .option('--min-amount <rupees>', 'smallest credit accepted')
    .option('--max-amount <rupees>', 'largest credit accepted')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', CREATE_HELP)
    .action(async (opts: { remitter?: string[]; minAmount?: string; maxAmount?: string; dryRun?: boolean }) => {
      const { buildVbaCreateBody, runVbaCreate } = await import('./create.js');
      await runVbaCreate(ctx, { body: buildVbaCreateBody(opts), dryRun: opts.dryRun === true });
    });

  vba
    .command('list')
    .description('virtual bank accounts, newest first, as a table (vendor 11.7.2)')
    .option('--status <status>', 'only ACTIVE or INACTIVE accounts (any case)')
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', "accounts per page, at most 1000 (default: the gateway's, 250)")
    .addOption(new Option('--all', 'follow every page (progress on stderr in a terminal)').conflicts('page'))
    .addHelpText('after', LIST_HELP)
    .action(async (opts: { status?: string; page?: string; pageSize?: string; all?: boolean }) => {
      const { runVbaList } = await import('./list.js');
      await runVbaList(ctx, opts);
    });

  vba
    .command('get')
    .description('a virtual bank account with its bank details and locks; several as a table')
    .argument('[virtual_account_id...]', 'account IDs (digits), or - to read them from stdin')
    .option('--from-file <path>', 'read account IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .addHelpText('after', GET_HELP)
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runVbaGet } = await import('./get.js');
      await runVbaGet(ctx, { ids, ...opts });
    });

  vba
    .command('payments')
    .description('the credits a virtual bank account received (vendor 11.7.4), or one by UTR (11.7.5)')
    .argument('<virtual_account_id>', 'the account (digits)')
    .option('--utr <utr>', 'the one credit with this bank reference (UTR)')
    .option('--from <date|time>', 'created at or after (YYYY-MM-DD or ISO 8601)')
    .option('--to <date|time>', 'created at or before (YYYY-MM-DD: the whole day)')
    .option('--since <payment_id>', 'only credits made after this one (since_id)')
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', "credits per page, at most 1000 (default: the gateway's, 250)")
    .addOption(new Option('--all', 'follow every page (progress on stderr in a terminal)').conflicts('page'))
    .addHelpText('after', PAYMENTS_HELP)
    .action(async (id: string, opts: { utr?: string; from?: string; to?: string; since?: string; page?: string; pageSize?: string; all?: boolean }) => {
      const { runVbaPayments } = await import('./payments.js');
      await runVbaPayments(ctx, { id, ...opts });
    });
}
