// `pgw order ...`: registered by program.ts; verbs are added here, each loading its file lazily.
import { Option, type Command } from 'commander';
import type { Context } from '../../context.js';
import { ORDER_FIELD_FLAGS } from './flags.js';

const CREATE_HELP = `
The body comes from --file (JSON, the request of spec 2.1) and the flags above;
flags win. In a terminal, what is missing is asked for: the collection mode and
method first, then the rest, with a review before anything is sent.
Card details come only from --card-file <path> (JSON of spec 2.5), --card-file -
(piped stdin) or masked prompts in a terminal: never from flags.
--api-version 1.x/2.x sends the earlier variant (uppercase mop_type, vpa,
upi_app_name; return_url and invoice optional).

Examples:
  pgw order create
  pgw order create --print-template > order.json
  pgw order create --file order.json --amount 1500 --reference-id ord-42
  pgw order create --file order.json --mode s2s --mop upi --upi-flow intent
  pgw order create --file order.json --mode s2s --mop credit_card \\
      --card-file card.json --acs-out 3ds.html
  pgw order create --file order.json --dry-run`;

const UPDATE_HELP = `
Sends only the fields given (spec 4.2). --file takes
{"buyer":{"pan_number","dob"},"invoice":{"number","date"}}; flags win over it.

Examples:
  pgw order update OD1234567890 --pan ABCDE1234F --dob 1990-02-28
  pgw order update OD1234567890 --invoice-number INV-9 --invoice-date 2026-01-31`;

const GET_HELP = `
One order: a summary with its payments, newest first (status, amount, method, settlement),
each refund and chargeback, and a refunded payment's status as "captured · refunded 2499.00".
Several: a table, one row each. JSON is the gateway's data unchanged (an array for several IDs).
Holding only the customer's reference (INV-7781), not the order ID? pgw refuses it (exit 2,
nothing sent) and names the search: pgw payment list --reference-id INV-7781 (or 'INV-7781*').

Examples:
  pgw order get OD12345678901234
  pgw order get OD12345678901234 OD12345678901235 --json
  pgw order get - < order-ids.txt`;

const DOCUMENTS_HELP = `
Uploads an invoice or an air waybill to an order (multipart: identifier, document_type, file).
The file must be a pdf, jpg or jpeg, by its name and by its content, and at most 2 MB: checked
before anything is sent. --identifier labels the document (default: the order ID; an air
waybill's number). The answer is the order, with invoice.file and air_waybills[].file holding
addresses that serve the files; in the sandbox a second invoice replaces the first and each
air waybill is added.

Examples:
  pgw order documents OD12345678901234 --type invoice --file invoice.pdf
  pgw order documents OD12345678901234 --type awb --file awb.jpg --identifier AWB-778812
  pgw order documents OD12345678901234 --type invoice --file invoice.pdf --dry-run`;

export function registerOrder(program: Command, ctx: Context): void {
  const order = program.command('order').description('create, look up and update orders');

  const create = order
    .command('create')
    .description('create an order: hosted checkout (default), S2S UPI, or S2S card with 3-D Secure')
    .option('-f, --file <path>', 'JSON body (spec 2.1); - reads stdin');
  for (const f of ORDER_FIELD_FLAGS) {
    const option = new Option(f.flag, f.description);
    if (f.key === 'mode') option.choices(['hosted_payment', 's2s']);
    if (f.key === 'upiFlow') option.choices(['intent', 'collection']);
    create.addOption(option);
  }
  create
    .option('--card-file <path>', 'card details JSON (spec 2.5); - reads piped stdin')
    .option('--print-template', 'print a complete example body for the chosen mode and send nothing')
    .option('--acs-out <file>', 'S2S card: write the decoded 3-D Secure page (HTML) to this file (mode 0600)')
    .option('--open', 'open the 3-D Secure page (S2S card) or the checkout page (hosted) in the browser')
    .option('--dry-run', 'print the request that would be sent (card masked, CVV removed) and send nothing')
    .addHelpText('after', CREATE_HELP)
    .action(async (flags: Record<string, unknown>) => {
      const { buildOrderCreateOptions, runOrderCreate } = await import('./create.js');
      await runOrderCreate(ctx, buildOrderCreateOptions(flags));
    });

  order
    .command('get')
    .alias('view') // gh's verb for the same thing
    .description('an order with its payments (beyond 1.1); several as a table (- reads IDs from stdin)')
    .argument('[order_id...]', 'order IDs (OD...), or - to read them from stdin')
    .option('--from-file <path>', 'read order IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .addHelpText('after', GET_HELP)
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runOrderGet } = await import('./get.js');
      await runOrderGet(ctx, { ids, ...opts });
    });

  order
    .command('status')
    .description('the status of orders (vendor 4.2): payment_pending, payment_successful or failed; several as a table')
    .argument('[order_id...]', 'order IDs (OD...), or - to read them from stdin')
    .option('--from-file <path>', 'read order IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .addHelpText('after', `
Examples:
  pgw order status OD12345678901234
  pgw order status OD1… OD2… --json
  pgw order status OD12345678901234 --query status`)
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runOrderStatus } = await import('./status.js');
      await runOrderStatus(ctx, { ids, ...opts });
    });

  order
    .command('update')
    .description('set buyer PAN and date of birth, invoice number and date (only the fields given)')
    .argument('<order_id>', 'order to update (OD...)')
    .option('-f, --file <path>', 'JSON with the fields to change (spec 4.2); - reads stdin')
    .option('--pan <pan>', 'buyer PAN, e.g. ABCDE1234F')
    .option('--dob <date>', 'buyer date of birth, YYYY-MM-DD')
    .option('--invoice-number <number>', 'invoice number')
    .option('--invoice-date <date>', 'invoice date, YYYY-MM-DD')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .addHelpText('after', UPDATE_HELP)
    .action(async (orderId: string, flags: Record<string, unknown>) => {
      const { buildOrderUpdateOptions, runOrderUpdate } = await import('./update.js');
      await runOrderUpdate(ctx, buildOrderUpdateOptions(orderId, flags));
    });

  order
    .command('documents')
    .description('upload an invoice or air waybill to an order (pdf, jpg or jpeg, at most 2 MB)')
    .argument('<order_id>', 'order to attach the document to (OD...)')
    .addOption(new Option('--type <type>', 'the kind of document').choices(['invoice', 'awb']))
    .option('--file <path>', 'the file to upload: pdf, jpg or jpeg, at most 2 MB')
    .option('--identifier <label>', "a label for the document (default: the order ID); an air waybill's number")
    .option('--dry-run', "print the request that would be sent (the file's name, type and size, never its bytes) and send nothing")
    .addHelpText('after', DOCUMENTS_HELP)
    .action(async (orderId: string, flags: { type?: string; file?: string; identifier?: string; dryRun?: boolean }) => {
      const { runOrderDocuments } = await import('./documents.js');
      await runOrderDocuments(ctx, { orderId, type: flags.type, file: flags.file, identifier: flags.identifier, dryRun: flags.dryRun === true });
    });
}
