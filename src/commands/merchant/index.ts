// `pgw merchant ...`: a PSP's sub-merchants (spec 2.10, 4.8-4.10). Registered by program.ts; each
// action loads its verb file only when it runs.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import type { MerchantCreateOptions } from './create.js';

const CREATE_HELP = `
One merchant: a JSON object with company_details and settlement_details (see --print-template). Several: a JSON array, JSON Lines (one merchant per line, e.g. merchants.jsonl), or CSV (a .csv file whose header row names the fields as --print-template --csv prints them; an empty cell leaves the field out).
All are checked before anything is sent, by the guided flow's rules (a SWIFT/BIC is 8 or 11 characters). A row identical to an earlier row, or with the registration_number or tax_id of an earlier row or of an existing sub-merchant, is a duplicate, refused unless --allow-duplicates. Each refused row is listed with its line and reason, and nothing is sent.
Then they are created one at a time, each outcome appended to --results. An interrupted or partly failed run is finished with --resume <results file>: merchants already created are skipped (matched by content), so nothing is created twice.
Without --file, in a terminal, the fields are asked for one by one.

Examples:
  pgw merchant create --print-template > acme.json
  pgw merchant create --file acme.json
  pgw merchant create --print-template --csv > merchants.csv
  pgw merchant create --file merchants.csv --results created.jsonl
  pgw merchant create --file merchants.jsonl --resume created.jsonl`;

const UPDATE_HELP = `
Only the fields given are sent. --set takes a dotted path into company_details
or settlement_details; hs_codes takes a comma list or a JSON array, booleans
true or false.

Examples:
  pgw merchant update 1000000003 \\
      --set company_details.website=https://acme.example
  pgw merchant update 1000000003 \\
      --set company_details.hs_codes=62141000,85176290
  pgw merchant update 1000000003 --file changes.json --dry-run`;

const GET_HELP = `
On a terminal the bank account number shows its last 4 characters only; JSON is the gateway's data.
-o csv: one row per ID (id, legal_name, brand_name, kyc_status, country, email, created_at, updated_at).

Examples:
  pgw -p local-psp merchant get 1000000003
  pgw -p local-psp merchant get 1000000003 1000000004 --json`;

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function registerMerchant(program: Command, ctx: Context): void {
  const merchant = program.command('merchant').description("a PSP's sub-merchants: list, look up, onboard, update");

  merchant
    .command('list')
    .description('sub-merchants as a table (id, brand, KYC status, created); -o csv adds legal name, country, email, updated')
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', 'sub-merchants per page, at most 1000 (default: the gateway\'s, 250)')
    .addOption(new Option('--all', 'follow every page (progress on stderr in a terminal)').conflicts('page'))
    .action(async (opts: { page?: string; pageSize?: string; all?: boolean }) => {
      const { runMerchantList } = await import('./list.js');
      await runMerchantList(ctx, opts);
    });

  merchant
    .command('get')
    .alias('view') // gh's verb for the same thing
    .description("one sub-merchant's company and settlement details and kyc_status (beyond 5.1); several as a table")
    .argument('[merchant_id...]', 'sub-merchant IDs, or - to read them from stdin')
    .option('--from-file <path>', 'read sub-merchant IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .addHelpText('after', GET_HELP)
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runMerchantGet } = await import('./get.js');
      await runMerchantGet(ctx, { ids, ...opts });
    });

  merchant
    .command('create')
    .description('onboard one sub-merchant, or many from a JSON array, JSON Lines or CSV file')
    .option('--file <path|->', 'merchant JSON (object, array or JSON Lines) or CSV; - reads stdin')
    .option('--print-template', 'print a complete example body and send nothing')
    .option('--csv', 'with --print-template: the CSV header (and an example row) for --file')
    .option('--results <file.jsonl>', 'append each outcome ({"line","id"} or {"line","error"}) to this file as it happens')
    .option('--resume <file.jsonl>', 'finish an earlier run: skip the merchants its results file shows created')
    .option('--skip-invalid', 'send the valid merchants of a batch even if some are invalid')
    .option('--allow-duplicates', 'create rows that repeat another row or an existing sub-merchant')
    .option('--dry-run', 'print the request(s) that would be sent and send nothing')
    .addHelpText('after', CREATE_HELP)
    .action(async (opts: MerchantCreateOptions) => {
      const { runMerchantCreate } = await import('./create.js');
      await runMerchantCreate(ctx, opts);
    });

  merchant
    .command('update')
    .description('change some fields of a sub-merchant; prints updated_fields')
    .argument('<merchant_id>', 'sub-merchant to change')
    .option('--file <path|->', 'JSON with the fields to change (company_details and/or settlement_details)')
    .option('--set <path=value>', 'one field, e.g. company_details.website=https://... (repeatable)', collect)
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', UPDATE_HELP)
    .action(async (id: string, opts: { file?: string; set?: string[]; dryRun?: boolean }) => {
      const { runMerchantUpdate } = await import('./update.js');
      await runMerchantUpdate(ctx, { id, ...opts });
    });
}
