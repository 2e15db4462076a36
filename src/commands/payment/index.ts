// `pgw payment ...`: what happened to a payment, for support staff.
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';

export function registerPayment(program: Command, ctx: Context): void {
  const payment = program.command('payment').description('look up, list and trace payments; answer their compliance checklists');
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
    .description("the payment's compliance checklist (vendor 11.2.1): what is owed, what the reviewer said; without an ID, every open verification")
    .argument('[payment_id]', 'the payment (PR...); without it, the work queue')
    .option('--state <states>', 'the queue only: INFO_PENDING, ACTION_REQUIRED, UNDER_REVIEW or ON_HOLD (commas for several)')
    .option('--from <YYYY-MM-DD>', 'the queue only: payments created on or after this day')
    .option('--to <YYYY-MM-DD>', 'the queue only: payments created on or before this day')
    .option('--concurrency <n>', 'the queue only: checklists read at once (default 8)')
    .addHelpText(
      'after',
      `
With an ID: the checklist, the reviewer's last message, what it asks for and the deadline, and
the command that answers it. A payment that is not yet classified asks for business_model and
purpose_code only; once they are declared the checklist of that pair follows (B2B services: 11
fields and the invoice). A payment that needs no verification (NOT_APPLICABLE,
READY_FOR_SETTLEMENT, SETTLED) says so in one line. --json prints the gateway's answer unchanged.

Without an ID: the work queue, every payment whose verification is open (INFO_PENDING,
ACTION_REQUIRED, UNDER_REVIEW, ON_HOLD), oldest deadline first, with what is owed and the
reviewer's last message. The gateway has no such list, so pgw composes it from documented reads:
every page of GET /pg/payments/?status=captured (vendor 3.1), then each payment's GET
/pg/payments/{id}/verification/ (11.2.1), --concurrency at a time; it says how many requests it
made. The reviewer's message and the deadline travel only in the VERIFICATION_NEEDED webhook
(11.4.2): on pgw's own sandbox they are read from its delivery log (two more reads per open
payment); elsewhere those columns stay empty. -o csv and --json print the rows.

Examples:
  pgw payment verification
  pgw payment verification --state ACTION_REQUIRED -o csv > owed.csv
  pgw payment verification PR1234567890
  pgw payment verification PR1234567890 --json --query 'fields[?!satisfied].code'`,
    )
    .action(async (paymentId: string | undefined, opts: { state?: string; from?: string; to?: string; concurrency?: string }) => {
      const { runPaymentVerification } = await import('./verification.js');
      await runPaymentVerification(ctx, { paymentId, ...opts });
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
Everything is checked before the first upload, every problem at once (exit 2): the codes, each
value by the gateway's own rule (dates YYYY-MM-DD, a 6-digit PIN, an email, a phone with its
country code, B2B or B2C, a purpose code, amounts like 1000.00, a declaration true), each file's
type (pdf, png, jpg, jpeg, docx, xlsx, csv) and size (at most 10 MB); then, read from the payment,
its state (only ACTION_REQUIRED and INFO_PENDING take details), its checklist and, on pgw's
sandbox, whether the purpose code is enabled (pgw sandbox purpose-codes). Uploads are immutable,
so nothing the gateway would refuse costs one. Each file is then uploaded and gives a ref; one
submit carries the fields, the refs and the waivers. Sends merge: what was sent earlier stays. A
complete set is filed for review unless --no-finalize.

The B2B services checklist asks for an Indian PIN code (buyer_postal_code, 6 digits) because the
buyer paying under an S purpose code is the Indian importer the remittance is reported against,
and filing writes it onto the order, whose address is Indian (vendor 11.2.2 rule 4).

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
