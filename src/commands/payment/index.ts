// `pgw payment ...`: what happened to a payment, for support staff.
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';

export function registerPayment(program: Command, ctx: Context): void {
  const payment = program.command('payment').description('look up payments');
  payment
    .command('get')
    .alias('view') // gh's verb for the same thing
    .description('one payment as a readable summary, or several as a table (- reads IDs from stdin)')
    .argument('[payment_id...]', 'payment IDs (PR...), or - to read them from stdin')
    .option('--from-file <path>', 'read payment IDs from a file, one per line')
    .option('--concurrency <n>', 'look-ups in flight at once (default 8)')
    .addHelpText(
      'after',
      `
Refunds and chargebacks show with the payment (status "captured · refunded 2499.00", and a
section listing each). A reference such as INV-7781 is not a payment ID: pgw refuses it (exit 2,
nothing sent) and names the search, pgw payment list --reference-id INV-7781.

Examples:
  pgw payment get PR1234567890
  pgw payment list --reference-id 'INV-7781*'`,
    )
    .action(async (ids: string[], opts: { fromFile?: string; concurrency?: string }) => {
      const { runPaymentGet } = await import('./get.js');
      await runPaymentGet(ctx, { ids, ...opts });
    });

  payment
    .command('trace')
    .description('what happened to a payment, in order: order, attempts, capture, refunds, chargebacks, verification, settlement, webhooks')
    .argument('<payment_id|order_id|reference>', "a payment (PR...), an order (OD...), or the merchant's reference for the order")
    .addHelpText(
      'after',
      `
One line per step, oldest first: the order, each payment attempt and its outcome, each refund and
every status it moved through, each chargeback, the verification (what was asked and filed, the
reviewer's decision and words), the settlement (ID, UTR, net) and, on pgw's own sandbox, every
webhook delivery with each attempt's answer. --json gives the steps as [{at, kind, id, summary, ...}].

It reads the order, each attempt, each refund's settlement and a verification's checklist, with
the documented operations: 1 + attempts + refunds requests (+1 for a PR... or a reference). On
another gateway the deliveries are not in the API, and pgw says which steps it cannot see.

Examples:
  pgw payment trace PR1234567890
  pgw payment trace INV-7781
  pgw payment trace OD1234567890 --json --query "[?kind=='webhook'].summary"`,
    )
    .action(async (id: string) => {
      const { runPaymentTrace } = await import('./trace.js');
      await runPaymentTrace(ctx, { id });
    });

  payment
    .command('verification')
    .description("the payment's compliance checklist (vendor 11.2.1) as a table: what is owed, what is satisfied")
    .argument('<payment_id>', 'the payment (PR...)')
    .addHelpText(
      'after',
      `
A payment that is not yet classified asks for business_model and purpose_code only; once they
are declared the checklist of that pair follows (B2B services: 11 fields and the invoice).
--json prints the gateway's answer unchanged.

Examples:
  pgw payment verification PR1234567890
  pgw payment verification PR1234567890 --json --query 'fields[?!satisfied].code'`,
    )
    .action(async (paymentId: string) => {
      const { runPaymentVerification } = await import('./verification.js');
      await runPaymentVerification(ctx, { paymentId });
    });

  const collect = (value: string, previous: string[] = []) => [...previous, value];
  payment
    .command('verify')
    .description("answer the payment's checklist (vendor 11.2): upload the files, then one submit")
    .argument('<payment_id>', 'the payment (PR...)')
    .option('--field <code=value>', 'a checklist field, e.g. buyer_city=Berlin (repeatable)', collect)
    .option('--document <code=file>', 'a document to upload and submit, e.g. invoice=./inv.pdf (repeatable)', collect)
    .option('--waive <code=reason>', 'discharge a waivable document with a reason (repeatable)', collect)
    .option('--no-finalize', 'stage only: do not file a complete set for review')
    .option('--dry-run', 'print every request (uploads without file bytes, then the submit) and send nothing')
    .addHelpText(
      'after',
      `
Everything is checked before anything is sent (exit 2): the codes, a declaration's true/false,
each file's type (pdf, png, jpg, jpeg, docx, xlsx, csv) and size (at most 10 MB). Each file is
then uploaded and gives a ref; one submit carries the fields, the refs and the waivers. Sends
merge: what was sent earlier stays. A complete set is filed for review unless --no-finalize.

Examples:
  pgw payment verify PR1234567890 --field business_model=B2B --field purpose_code=S0802
  pgw payment verify PR1234567890 --field invoice_number=INV-1 --document invoice=./inv.pdf
  pgw payment verify PR1234567890 --field declaration=true --no-finalize --dry-run`,
    )
    .action(async (paymentId: string, opts: { field?: string[]; document?: string[]; waive?: string[]; finalize: boolean; dryRun?: boolean }) => {
      const { runPaymentVerify } = await import('./verify.js');
      await runPaymentVerify(ctx, { paymentId, ...opts, dryRun: opts.dryRun ?? false });
    });

  payment
    .command('list')
    .description('search payments (vendor 3.1): by reference, invoice, order, buyer name, status, method, day or currency')
    .option('--reference-id <ref>', "the order's reference_id (the merchant's own order number); 'INV-7781*' matches every reference starting with INV-7781")
    .option('--invoice-number <number>', "the order's invoice number (invoice.number)")
    .option('--order-id <id>', 'payments of this order (OD...)')
    .option('--buyer-name <name>', "part of the buyer's name, any case")
    .option('--status <status>', 'pending, captured or failed')
    .option('--mop <method>', 'upi, credit_card, debit_card, net_banking or qr')
    .option('--from <YYYY-MM-DD>', 'created on or after this day (from_created_at)')
    .option('--to <YYYY-MM-DD>', 'created on or before this day (to_created_at)')
    .option('--currency <code>', 'e.g. INR')
    .option('--settlement-status <S,...>', "the payment's settlement state (vendor 11.3, any case): READY_FOR_SETTLEMENT, ACTION_REQUIRED, SETTLED, ...")
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', "payments per page, at most 1000 (default: the gateway's, 10)")
    .addOption(new Option('--all', 'follow every page (progress on stderr in a terminal)').conflicts('page'))
    .addHelpText(
      'after',
      `
Newest first. Filters combine (all must match). -o csv prints RFC 4180 CSV with a header row.
Amounts have 2 decimals, the currency in its own column.

A trailing * in --reference-id matches every reference that starts with what comes before it
(any case), so INV-7781-1 and INV-7781-2 show together. Quote it ('INV-7781*'), or the shell may
expand the * into file names. The gateway's reference filter is exact, so pgw reads every page of
the other filters' results and keeps the matches: on a large account, narrow with --from/--to.
--invoice-number is sent to the gateway and also checked here on every page (the gateway's
documented filters do not include it). With either, every page is read (--page is refused).

The settlement and settlement_id columns (table and CSV) come from each payment's details: the
search does not carry them, so pgw reads them, one request per payment listed (--from/--to
narrows it). --settlement-status keeps the payments in those states (the 13 of vendor 11.3:
NOT_APPLICABLE, PAYMENT_PENDING, PAYMENT_FAILED, INFO_PENDING, ACTION_REQUIRED, UNDER_REVIEW,
VERIFIED, READY_FOR_SETTLEMENT, SETTLED, SETTLEMENT_ERROR, ON_HOLD, EXPIRED, REJECTED); every
page is read, and the JSON entries then carry settlement_status and settlement_id too.

Examples:
  pgw payment list --reference-id order-1042
  pgw payment list --reference-id 'INV-7781*'
  pgw payment list --invoice-number INV-2026-0001
  pgw payment list --buyer-name verma --status failed
  pgw payment list --from 2026-11-01 --to 2026-11-30 --all -o csv > payments.csv
  pgw payment list --from 2026-11-01 --to 2026-11-30 --settlement-status ready_for_settlement,action_required`,
    )
    .action(async (opts: { settlementStatus?: string; referenceId?: string; invoiceNumber?: string; orderId?: string; buyerName?: string; status?: string; mop?: string; from?: string; to?: string; currency?: string; page?: string; pageSize?: string; all?: boolean }) => {
      const { runPaymentList } = await import('./list.js');
      await runPaymentList(ctx, opts);
    });
}
