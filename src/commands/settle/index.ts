// `pgw settle ...`: settlements (spec 2.9, 4.5, 4.6). Each action loads its verb file only when it
// runs; `settle calc` is offline and loads neither undici nor conf.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';

/** Repeatable flags: `--refund a --refund b` → ['a', 'b'] (kept here: args.ts loads decimal.js). */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const LIST_HELP = `
Examples:
  pgw settle list
  pgw settle list --from 2026-11-01 --to 2026-11-30
  pgw settle list --all --json`;

export function registerSettle(program: Command, ctx: Context): void {
  const settle = program.command('settle').description('settlements: look them up, the month-end report, mark payments settled (sandbox), compute the figures offline');

  settle
    .command('get')
    .alias('view') // gh's verb for the same thing
    .description('a settlement with its transactions table and totals; several as a table (- reads IDs from stdin)')
    .argument('[settlement_id...]', 'settlement IDs (ST...), or - to read them from stdin')
    .option('--from-file <path>', 'read settlement IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runSettleGet } = await import('./get.js');
      await runSettleGet(ctx, { ids, ...opts });
    });

  settle
    .command('list')
    .description('settlements, newest first, as a table (beyond 4.1): --from/--to completion dates')
    .option('--from <YYYY-MM-DD>', 'settled on or after this day (settlement_completed_date__gte)')
    .option('--to <YYYY-MM-DD>', 'settled on or before this day (settlement_completed_date__lte)')
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', "settlements per page, at most 1000 (default: the gateway's, 250)")
    .addOption(new Option('--all', 'follow every page (progress on stderr in a terminal)').conflicts('page'))
    .addHelpText('after', LIST_HELP)
    .action(async (opts: { from?: string; to?: string; page?: string; pageSize?: string; all?: boolean }) => {
      const { runSettleList } = await import('./list.js');
      await runSettleList(ctx, opts);
    });

  settle
    .command('recon')
    .description('one row per capture, refund and chargeback of a settlement (vendor 5.2); -o csv for spreadsheets')
    .argument('<settlement_id>', 'settlement ID (ST...)')
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', "rows per page, at most 1000 (default: the gateway's, 250)")
    .addOption(new Option('--all', 'follow every page (progress on stderr in a terminal)').conflicts('page'))
    .addHelpText(
      'after',
      `
Rows newest first; refunds and chargebacks carry a negative net and no fee. -o csv prints RFC 4180
CSV with a header row and the amounts exactly as the gateway gives them (text that a spreadsheet
would run as a formula gets a leading ', --csv-raw writes it as given). A PSP sees its own and
its sub-merchants' rows; -m <merchant_id> narrows them to one sub-merchant.

Examples:
  pgw settle recon ST1234567890
  pgw settle recon ST1234567890 --all -o csv > ST1234567890.csv
  pgw settle recon ST1234567890 --json --query '[?settlement_type==\`refund\`].transaction_id'`,
    )
    .action(async (settlementId: string, opts: { page?: string; pageSize?: string; all?: boolean }) => {
      const { runSettleRecon } = await import('./recon.js');
      await runSettleRecon(ctx, { settlementId, ...opts });
    });

  settle
    .command('report')
    .description('the month-end report: every capture, refund and chargeback of the days, its settlement and UTR, and each settlement reconciled')
    .option('--from <YYYY-MM-DD>', 'first day of the window (created on or after it)')
    .option('--to <YYYY-MM-DD>', 'last day of the window (created on or before it)')
    .addHelpText(
      'after',
      `
One row per money movement created in the window: each captured payment (type capture), each
refund and each chargeback, with the order's reference_id and invoice number, the method, the
amount, the fee, gst and net the settlement states, the settlement_id, UTR and settled day, and
the payment's settlement_status (blank where a figure does not apply yet). Failed and pending
payments are listed too (type payment), counted in no total. Under the rows, each settlement
completed in the window or holding one of its rows: its amount, the net of these rows and of its
rows outside the window, and "reconciles ✓" or the difference; then the unsettled total.

It reads with the documented operations only: the window's payments (by day) and refunds,
each of those payments, the settlements completed since --from and each one's recon. A window of
P payments, R refunds and S settlements costs about P/100 + R/250 + P + S/250 + S requests,
8 at a time; the count is printed on stderr. -o csv writes the rows (RFC 4180) and the summary on
stderr; --json the whole report: {from, to, rows, settlements, unsettled, requests}.

Examples:
  pgw settle report --from 2026-11-01 --to 2026-11-30
  pgw settle report --from 2026-11-01 --to 2026-11-30 -o csv > november.csv
  pgw settle report --from 2026-11-01 --to 2026-11-30 --json --query 'settlements[].[settlement_id,reconciles]'`,
    )
    .action(async (opts: { from?: string; to?: string }) => {
      const { runSettleReport } = await import('./report.js');
      await runSettleReport(ctx, opts);
    });

  settle
    .command('mark')
    .description('sandbox only: settle captured payments now (mark-settled); --dry-run computes the breakdown instead')
    .argument('[payment_id...]', 'payment IDs (PR...), or - to read them from stdin')
    .option('--refund <id[=amount]>', 'refund to debit (RF...), repeatable; a dry run needs its amount: RF123=100.00', collect)
    .option('--chargeback <id[=amount]>', 'chargeback to debit (CB...), repeatable; a dry run needs its amount: CB123=50.00', collect)
    .option('--from-file <path>', 'read payment IDs from a file, one per line')
    .option('--dry-run', 'look the payments up and print the breakdown mark-settled would produce; mark nothing')
    .option('--concurrency <n>', 'dry run: look-ups in flight at once (default 8)')
    .action(async (ids: string[], opts: { refund?: string[]; chargeback?: string[]; fromFile?: string; dryRun?: boolean; concurrency?: string }) => {
      const { runSettleMark } = await import('./mark.js');
      await runSettleMark(ctx, { ...opts, ids, refund: opts.refund ?? [], chargeback: opts.chargeback ?? [] });
    });

  settle
    .command('calc')
    .description('offline: fee, GST and net per payment and the totals, exactly as mark-settled computes them (spec 4.6)')
    .option('--payment <amount>', 'a payment amount in rupees, repeatable', collect)
    .option('--refund <amount>', 'a refund amount (debited in full), repeatable', collect)
    .option('--chargeback <amount>', 'a chargeback amount (debited in full), repeatable', collect)
    .option('--from-settlement <settlement_id>', "recompute a settlement from the gateway's own rows and say whether it agrees (repeatable; reads it: one request each)", collect)
    .addHelpText(
      'after',
      `
Offline, the amounts are yours. With --from-settlement, the settlement's rows are read (GET
/pg/settlements/{id}/) and recomputed: each capture's fee, gst and net, each refund's and
chargeback's net, and the settlement_amount, set beside the gateway's. Exit 0 when every figure
agrees, 1 naming those that differ (code SETTLEMENT_DIFFERS). The arithmetic is spec 4.6's, the
simulator's fee schedule: a production settlement priced otherwise differs on fee and gst.

Examples:
  pgw settle calc --payment 1000 --refund 100 --chargeback 50
  pgw settle calc --from-settlement ST1234567890
  pgw settle calc --from-settlement ST1234567890 --json --query agrees`,
    )
    .action(async (opts: { payment?: string[]; refund?: string[]; chargeback?: string[]; fromSettlement?: string[] }) => {
      const { runSettleCalc } = await import('./calc.js');
      await runSettleCalc(ctx, { payment: opts.payment ?? [], refund: opts.refund ?? [], chargeback: opts.chargeback ?? [], fromSettlement: opts.fromSettlement ?? [] });
    });
}
