// `pgw sandbox ...`: the embedded gateway's server and its helpers (contract table; sandbox.md).
// Each action loads its verb file only when it runs.
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { refundCreateOptions, type RefundCreateFlags } from '../refund/index.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** A verb's examples, as every help ends (test/commands/help.test.ts). */
const ex = (...lines: string[]): string => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;

const SERVE_HELP = `
Browser pages on loopback origins (http://localhost:*, http://127.0.0.1:*, http://[::1]:*) may call
it (CORS); other origins only with --cors-origin. Never "*".
Bound beyond loopback (--host 0.0.0.0, a LAN address), it posts webhooks only to loopback
addresses and to the hosts named with --allow-webhook-host: otherwise anyone who can reach it
could make it send requests anywhere its network reaches.

Examples:
  pgw sandbox serve
  pgw sandbox serve --port 8000 --db ./team-sandbox.db
  pgw sandbox serve --cors-origin http://devbox.local:3000 --json
  pgw sandbox serve --host 0.0.0.0 --allow-webhook-host ci-receiver.internal`;

const WEBHOOK_ADD_HELP = `
Events are POSTed as the gateway sends them: JSON {event_type, event_time, version,
sequence_number, data}, signed with the account's Encryption Key (X-Webhook-Signature), which
the answer shows; retried at 1, 5, 15 and 60 minutes of sandbox time until answered 200. The
list and each payload are in docs/sandbox.md. To watch them without writing a receiver, use
pgw listen; to see each delivery and its attempts, pgw events list.

Examples:
  pgw sandbox webhook add http://127.0.0.1:3000/webhooks/pgw
  pgw sandbox webhook add https://shop.example/hooks --dry-run`;

const CLOCK_HELP = `
Each account tree (a merchant; a PSP with its sub-merchants) has its own sandbox clock, kept in
the database and shared by every process that opens it (the embedded profiles, pgw sandbox
serve): created and completed times, event_time, link expiry and webhook retries of the
account's objects read it. It runs with the machine's clock, shifted by what advance, set and
reset did. These commands move the clock of the account in use; --all moves every clock, on the
embedded profile or on a file named with --db (never over HTTP). Time stays between 1970 and 9999.

Examples:
  pgw sandbox clock
  pgw sandbox clock advance 1h      # a failing handler gets all five webhook attempts now
  pgw sandbox clock set 2027-01-31T09:00:00Z
  pgw sandbox clock reset
  pgw sandbox clock advance 1d --all`;

const WEBHOOK_LIST_HELP = `
Examples:
  pgw sandbox webhook list
  pgw sandbox webhook list --query '[].id'`;

const RESET_HELP = `
Over HTTP (any profile with a base URL, and the embedded one), reset empties only the data of the
account in use: its orders, payments, refunds, chargebacks, links, settlements, subscriptions,
webhook addresses and faults, and for a PSP its sub-merchants' too (those it created through the
API are deleted). Seeded accounts and their credentials stay. --all empties every account's data
in the database file, and only works where the file is: the embedded profile, or --db <file>.
The sandbox clock is kept, and the reset says what time it shows; --clock resets it to the
machine's time too (with --all, every clock in the file).

Examples:
  pgw sandbox reset --yes
  pgw sandbox reset --clock --yes
  pgw -p local-psp sandbox reset
  pgw sandbox reset --all --db ./team-sandbox.db --yes`;

const WEBHOOK_REMOVE_HELP = `
Examples:
  pgw sandbox webhook remove WH1234567890`;

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
    .option('--cors-origin <origin>', 'let browser pages from this origin call the sandbox (repeatable; loopback origins always can)', collect)
    .option('-q, --quiet', 'print nothing but errors: no banner, no request log (credentials: --ready-file or --json)')
    .option('--allow-webhook-host <host>', 'bound beyond loopback: let webhooks go to this host too (repeatable)', collect)
    .option('--allow-global-snapshots', 'snapshots over HTTP cover the whole database, not only the caller\'s data')
    .option('--ready-file <path>', 'once listening, write the JSON line (base_url, accounts) there; removed on stop')
    .addHelpText('after', SERVE_HELP)
    .action(async (opts: { port: string; host: string; db?: string; corsOrigin?: string[]; quiet?: boolean; allowWebhookHost?: string[]; allowGlobalSnapshots?: boolean; readyFile?: string }) => {
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

  // The real operation exists now (POST /pg/refunds/): `sandbox refund` is `refund create` on a sandbox profile.
  refundCreateOptions(sandbox.command('refund').description('add a refund (RF...) to a captured payment: pgw refund create, on sandbox profiles only'))
    .addHelpText('after', '\nExamples:\n  pgw sandbox refund PR1234567890 --amount 100\n  pgw sandbox refund PR1234567890')
    .action(async (paymentId: string, opts: RefundCreateFlags) => {
      const { runRefundCreate } = await import('../refund/create.js');
      await runRefundCreate(ctx, { paymentId, ...opts, sandboxAlias: true });
    });

  sandbox
    .command('chargeback')
    .description('add a chargeback (CB...) to a captured payment')
    .argument('<payment_id>', 'captured payment')
    .requiredOption('--amount <amount>', 'amount in rupees, e.g. 100.00')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (paymentId: string, opts: { amount: string; dryRun?: boolean }) => {
      const { runSandboxDebit } = await import('./debit.js');
      await runSandboxDebit(ctx, { kind: 'chargeback', paymentId, ...opts });
    });

  sandbox
    .command('vba')
    .description('virtual bank accounts: money arriving by bank transfer')
    .command('transfer')
    .description('a bank transfer into a virtual account (vendor 11.7.6): a captured payment, or a failed one when it breaks a rule')
    .argument('<virtual_account_id>', 'the account receiving the money (digits)')
    .option('--amount <rupees>', 'amount in rupees, e.g. 25000 (required)')
    .option('--utr <utr>', "the transfer's bank reference (UTR), unique per account (required)")
    .option('--remitter-name <name>', 'who sends it (default "Sandbox Remitter")')
    .option('--remitter-account <number>', 'their account number (default 000123456789)')
    .option('--remitter-ifsc <ifsc>', 'their IFSC (default TEST0000001)')
    .option('--remarks <text>', "the sender's remarks (the payment's payment_message)")
    .option('--payment-date <YYYY-MM-DD>', 'the day the bank completed it (default: now); sent as the gateway\'s DD/MM/YYYY')
    .option('--bank-txn <ref>', "the bank's transaction number (the payment's bank_ref_num)")
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText(
      'after',
      `
A credit into an INACTIVE account, above 25 lakh rupees, from a sender outside the account's
--remitter list or outside its amount range is still recorded, as a failed payment with the
reason (exit 0). A UTR already used on the account tree is refused (409) and nothing is made.
--payment-date takes YYYY-MM-DD, as every date flag of pgw; pgw sends it as DD/MM/YYYY, the form
of the gateway's payment_date (vendor 11.7.6).
${ex('pgw sandbox vba transfer 12345678 --amount 25000 --utr UTR202611280001', 'pgw sandbox vba transfer 12345678 --amount 500 --utr UTR2 --remitter-account 987654321 --remitter-ifsc HDFC0001234 --json')}`,
    )
    .action(async (id: string, opts: Omit<import('./vba-transfer.js').VbaTransferOptions, 'id'>) => {
      const { runVbaTransfer } = await import('./vba-transfer.js');
      await runVbaTransfer(ctx, { id, ...opts });
    });

  sandbox
    .command('verification')
    .description("move a payment's verification as the gateway's review would (11.10 P2); sends the compliance events")
    .argument('<payment_id>', 'the payment (PR...)')
    .argument('<STATUS>', 'ACTION_REQUIRED, UNDER_REVIEW, VERIFIED, ON_HOLD, EXPIRED, REJECTED or READY_FOR_SETTLEMENT (any case)')
    .option('--message <text>', "the reviewer's words (a send-back's message)")
    .addOption(new Option('--verdict <verdict>', 'LRS only: APPROVED or REJECTED (sends VERIFICATION_STATUS)').choices(['APPROVED', 'REJECTED']))
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText(
      'after',
      `
UNDER_REVIEW sends VERIFICATION_NEEDED IN_REVIEW (PAYMENT_UNDER_REVIEW for LRS); ACTION_REQUIRED
from review sends it back (staging reopens; on a card payment it opens a verification with a
7-day deadline); ON_HOLD and EXPIRED send VERIFICATION_NEEDED; EXPIRED and REJECTED refund the
payment in full; VERIFIED lets pgw settle mark settle it. The same status again changes nothing.
${ex('pgw sandbox verification PR1234567890 VERIFIED', 'pgw sandbox verification PR1234567890 action_required --message "Invoice unreadable"')}`,
    )
    .action(async (paymentId: string, status: string, opts: { message?: string; verdict?: string; dryRun?: boolean }) => {
      const { runSandboxVerification } = await import('./verification.js');
      await runSandboxVerification(ctx, { paymentId, status, ...opts });
    });

  const purpose = sandbox
    .command('purpose-codes')
    .description('the purpose codes an account may declare on a verification (11.10 P4): list, enable, disable')
    .addHelpText(
      'after',
      `
A payment's verification is classified by business_model and purpose_code; the gateway takes
only codes enabled for the settling account (vendor 11.2.2 rule 2, "Purpose code ... is not
enabled"), and so does the sandbox. Every account starts with the 16 codes its checklists cover:
the 11 B2B services codes (S0802 ... S1106, with business_model B2B) and the 5 LRS codes (S0305
and S1107 education, S0303, S0304 and S0306 travel). -m <merchant_id> works on a sub-merchant.
${ex('pgw sandbox purpose-codes', 'pgw sandbox purpose-codes disable S0802', 'pgw -p local-psp -m 1234567890 sandbox purpose-codes enable S0802,S0803')}`,
    );
  purpose
    .command('list', { isDefault: true })
    .description('every code the checklists cover, enabled or not')
    .addHelpText('after', ex('pgw sandbox purpose-codes list', 'pgw sandbox purpose-codes --json --query enabled'))
    .action(async () => {
      const { runPurposeCodes } = await import('./purpose-codes.js');
      await runPurposeCodes(ctx, { action: 'list' });
    });
  for (const action of ['enable', 'disable'] as const) {
    purpose
      .command(action)
      .description(`${action} purpose codes for the account in use (or -m)`)
      .argument('<code...>', 'purpose codes, e.g. S0802 (commas or spaces)')
      .option('--dry-run', 'print the request and send nothing')
      .addHelpText('after', ex(`pgw sandbox purpose-codes ${action} S0802`, `pgw -p local-psp -m <merchant_id> sandbox purpose-codes ${action} S0305,S1107`))
      .action(async (codes: string[], opts: { dryRun?: boolean }) => {
        const { runPurposeCodes } = await import('./purpose-codes.js');
        await runPurposeCodes(ctx, { action, codes, ...opts });
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

  const merchant = sandbox.command('merchant').description("a PSP's sub-merchants in the sandbox");
  merchant
    .command('kyc')
    .description("move a sub-merchant's kyc_status (the gateway's review, offline); APPROVED fires MERCHANT_APPROVED")
    .argument('<merchant_id>', 'sub-merchant ID (digits)')
    .argument('<STATUS>', 'PENDING, IN_REVIEW, CHANGES_REQUESTED, APPROVED or REJECTED (any case)')
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText(
      'after',
      `
A sub-merchant is created PENDING (as in production) and can be updated while PENDING or
CHANGES_REQUESTED. Run it on the PSP's profile.

Examples:
  pgw -p local-psp sandbox merchant kyc 1234567890 APPROVED
  pgw -p local-psp sandbox merchant kyc 1234567890 changes_requested --json`,
    )
    .action(async (merchantId: string, status: string, opts: { dryRun?: boolean }) => {
      const { runMerchantKyc } = await import('./kyc.js');
      await runMerchantKyc(ctx, { merchantId, status, ...opts });
    });

  const webhook = sandbox.command('webhook').description('webhook addresses the sandbox posts events to');
  webhook
    .command('add')
    .description("register an address for the account's webhook events (prints the Encryption Key that signs them)")
    .argument('<url>', 'http(s) address that receives POSTed JSON')
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText('after', WEBHOOK_ADD_HELP)
    .action(async (url: string, opts: { dryRun?: boolean }) => {
      const { runWebhookAdd } = await import('./webhook.js');
      await runWebhookAdd(ctx, { url, ...opts });
    });
  webhook
    .command('list')
    .description('the addresses registered for the account in use (a running pgw listen shows as kind "pgw listen")')
    .addHelpText('after', WEBHOOK_LIST_HELP)
    .action(async () => {
      const { runWebhookList } = await import('./webhook.js');
      await runWebhookList(ctx);
    });
  webhook
    .command('remove')
    .description('stop posting events to an address')
    .argument('<id>', 'registration to remove (WH...)')
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText('after', WEBHOOK_REMOVE_HELP)
    .action(async (id: string, opts: { dryRun?: boolean }) => {
      const { runWebhookRemove } = await import('./webhook.js');
      await runWebhookRemove(ctx, { id, ...opts });
    });

  const clock = sandbox
    .command('clock')
    .description("the sandbox's own time: show it, move it forward, set it, reset it")
    .addHelpText('after', CLOCK_HELP);
  clock
    .command('show', { isDefault: true })
    .description('sandbox time, the machine\'s time and the offset between them')
    .addHelpText('after', `\nExamples:\n  pgw sandbox clock
  pgw sandbox clock show --json`)
    .option('--all', 'every account tree\'s clock and the default (embedded profile, or --db)')
    .option('--db <file>', 'with --all: the sandbox database file to read')
    .action(async (opts: { all?: boolean; db?: string }) => {
      const { runClock } = await import('./clock.js');
      await runClock(ctx, { action: 'show', ...opts });
    });
  clock
    .command('advance')
    .description('move sandbox time forward; every webhook attempt that falls due is made before it returns')
    .argument('<duration>', '90s, 5m, 1h, 7d')
    .addHelpText('after', `\nExamples:\n  pgw sandbox clock advance 90s
  pgw sandbox clock advance 1h      # all five webhook attempts of a failing handler`)
    .option('--all', 'move every account tree\'s clock (embedded profile, or --db)')
    .option('--db <file>', 'with --all: the sandbox database file to work on')
    .action(async (duration: string, opts: { all?: boolean; db?: string }) => {
      const { runClock } = await import('./clock.js');
      await runClock(ctx, { action: 'advance', value: duration, ...opts });
    });
  clock
    .command('set')
    .description('make sandbox time this moment (it runs on from there)')
    .argument('<time>', 'ISO 8601 with a zone, e.g. 2027-01-31T09:00:00Z')
    .addHelpText('after', `\nExamples:\n  pgw sandbox clock set 2027-01-31T09:00:00Z`)
    .option('--all', 'set every account tree\'s clock (embedded profile, or --db)')
    .option('--db <file>', 'with --all: the sandbox database file to work on')
    .action(async (time: string, opts: { all?: boolean; db?: string }) => {
      const { runClock } = await import('./clock.js');
      await runClock(ctx, { action: 'set', value: time, ...opts });
    });
  clock
    .command('reset')
    .description("back to the machine's time")
    .addHelpText('after', `\nExamples:\n  pgw sandbox clock reset`)
    .option('--all', 'reset every account tree\'s clock (embedded profile, or --db)')
    .option('--db <file>', 'with --all: the sandbox database file to work on')
    .action(async (opts: { all?: boolean; db?: string }) => {
      const { runClock } = await import('./clock.js');
      await runClock(ctx, { action: 'reset', ...opts });
    });

  sandbox
    .command('seed')
    .description('create demo data: orders, captured payments, a link and a settlement')
    .option('--payments <n>', 'instead: N captured payments in one transaction (IDs printed)')
    .option('--snapshot <name>', 'then save the sandbox as this snapshot (pgw sandbox snapshot restore <name> brings it back)')
    .option('--dry-run', 'print the request and send nothing')
    .action(async (opts: { payments?: string; snapshot?: string; dryRun?: boolean }) => {
      const { runSeed } = await import('./seed.js');
      await runSeed(ctx, opts);
    });

  sandbox
    .command('reset')
    .description("empty the account in use's data (a PSP's includes its sub-merchants); names what goes and asks first")
    .option('--all', 'empty the whole database, every account (on the embedded profile, or with --db)')
    .option('--db <file>', 'with --all: the SQLite database file to empty (on the machine that holds it)')
    .option('--clock', "reset the sandbox clock too (kept otherwise): back to the machine's time")
    .option('--dry-run', 'print the request (with --all: what would be deleted) and change nothing')
    .addHelpText('after', RESET_HELP)
    .action(async (opts: { all?: boolean; db?: string; dryRun?: boolean; clock?: boolean }) => {
      const { runReset } = await import('./reset.js');
      await runReset(ctx, opts);
    });

  registerSnapshot(sandbox, ctx);
  registerFault(sandbox, ctx);

  sandbox
    .command('wait')
    .description('exit 0 once a sandbox server is ready: its ready file is there and its health check answers')
    .option('--ready-file <path>', 'wait for this file of pgw sandbox serve --ready-file, then for the address in it')
    .option('--url <url>', "wait for the sandbox at this address (default: the profile's; on the embedded profile, the serve of its database)")
    .addHelpText(
      'after',
      `
Asks GET /sandbox/health/ every 50 ms: for CI steps and docker compose health checks, instead of
fixed sleeps. The address: the one in --ready-file (once the file is there), else --url, else the
profile's base URL; on the embedded profile, the serve running on its database (where it
listens, any --port), else where sandbox serve listens by default (http://127.0.0.1:4010). The global --timeout (ms, or 30s, 2m) bounds the whole wait here (default
30s); past it, exit 3 naming the address (or the file) it waited for.
${ex('pgw sandbox wait --ready-file ./sandbox.ready --timeout 30s', 'pgw sandbox wait --url http://127.0.0.1:4010 --timeout 2m', 'pgw sandbox wait --json')}`,
    )
    .action(async (opts: { readyFile?: string; url?: string }) => {
      const { runSandboxWait } = await import('./wait.js');
      await runSandboxWait(ctx, opts);
    });

  sandbox
    .command('env')
    .description("print PGW_BASE_URL, PGW_CLIENT_ID, PGW_CLIENT_SECRET, PGW_ENCRYPTION_KEY of a pgw sandbox's account, to eval")
    .option('--ready-file <path>', 'the sandbox that pgw sandbox serve --ready-file <path> runs (default: the embedded profile\'s database, at the address of the serve running on it, else http://127.0.0.1:4010)')
    .option('--account <name>', 'which account: merchant, psp, or its name, client_id or merchant_id (default: the merchant)')
    .option('--psp', 'the PSP account (--account psp)')
    .option('--shell <shell>', 'sh (export K=\'v\'; bash, zsh), fish (set -gx K \'v\') or github (K=v, for $GITHUB_ENV)', 'sh')
    .addHelpText(
      'after',
      `
The one command that prints a secret: the credentials of a pgw sandbox account, from the ready
file its serve wrote or from the embedded profile's database (the one serve uses without --db).
Refused (exit 6) for a production profile and for any gateway that is not a pgw sandbox.
${ex('eval "$(pgw sandbox env --ready-file ./sandbox.ready)"', 'pgw sandbox env --ready-file "$RUNNER_TEMP/ready" --shell github >> "$GITHUB_ENV"', 'pgw sandbox env --psp --shell fish | source')}`,
    )
    .action(async (opts: { readyFile?: string; account?: string; psp?: boolean; shell?: string }) => {
      const { runSandboxEnv } = await import('./env.js');
      await runSandboxEnv(ctx, opts);
    });

  sandbox
    .command('compare')
    .description("run one documented scenario against a test gateway and pgw's sandbox; report every difference a client could trip on")
    .option('--against <profile>', 'the test (UAT) profile whose gateway is compared (production: refused)')
    .option('--only <steps>', 'only these steps: names, a group (bad, sandbox-only) or a prefix (link); comma-separated, repeatable', collect)
    .option('--steps', 'list the scenario\'s steps and send nothing')
    .option('--payment <payment_id>', "a captured payment of the gateway, not yet settled: adds the refund and sandbox-only steps (it is refunded 1.00 and settled)")
    .option('--subscription <id>', 'a subscription of the gateway: adds its simulated payment')
    .option('--psp', "the profile is a PSP's: adds the sub-merchant list (implied by a merchant ID)")
    .option('--read-only', 'only the steps that send nothing but GET')
    .option('--record <dir>', "write both sides' exchanges and the report there (gateway.json, sandbox.json, report.json), secrets and card data removed")
    .option('--dry-run', 'print the requests the gateway would get and send nothing')
    .addHelpText(
      'after',
      `
Each step is one request to the profile's gateway and the same request to pgw's own sandbox, run
in this process on a temporary database (seeded as pgw sandbox seed seeds). Compared: the HTTP
status, the envelope (success, message, data or error), the error code, and for every key its
presence and JSON type, enum values and the form of IDs; never values that must differ (IDs,
times, references). Differences docs/sandbox.md records as decisions are listed as known, not
as failures. Exit 0 when nothing else differs, 1 when something does; the run sends at most 21
requests to the gateway. The test orders and links it makes stay there (the link is deactivated).
${ex('pgw sandbox compare --against uat', 'pgw sandbox compare --against uat --only order,bad --json', 'pgw sandbox compare --against uat --payment PR1234567890 --record ./drift', 'pgw sandbox compare --steps')}`,
    )
    .action(async (opts: { against?: string; only?: string[]; steps?: boolean; payment?: string; subscription?: string; psp?: boolean; readOnly?: boolean; record?: string; dryRun?: boolean }) => {
      const { runSandboxCompare } = await import('./compare.js');
      await runSandboxCompare(ctx, opts);
    });

  sandbox
    .command('coverage')
    .description("how much of the gateway's documented operations, events, statuses and error codes the sandbox covers, and the report")
    .addHelpText(
      'after',
      `
The figures come from docs/parity.md, generated from the list of what the gateway documents and
the trace of the test suite: per operation, what the sandbox does and which tests exercise it.
${ex('pgw sandbox coverage', 'pgw sandbox coverage --query operations')}`,
    )
    .action(async () => {
      const { runSandboxCoverage } = await import('./coverage.js');
      await runSandboxCoverage(ctx);
    });
}

const FAULT_HELP = `
A fault belongs to the account whose credentials make the request (the profile's; -m does not
move it to another merchant) and fails only that account's requests, on the embedded profile and
on pgw sandbox serve alike (faults live in the database); add, list and clear name it. One of:
  --status <code>   answer with this HTTP status in the gateway's error envelope (500
                    ERR_SERVICE_ERROR_000, 429 and 503 with Retry-After); nothing is changed
  --delay <d>       answer normally after the delay (500ms, 2s, 1m)
  --drop            close the connection without an answer; nothing is changed
  --after-commit    make the change, then close the connection without the answer
How often: --times <n> (then it is spent), --rate <p> (each match fails with probability p,
reproducibly with --seed <s>); both together: at most n failures. Neither: every match.
Route: '<METHOD> <path>', METHOD one of GET POST PATCH PUT DELETE *; in the path * (or {id},
:id) is one segment and ** the rest. /sandbox/faults/ and /sandbox/health/ are never faulted.

Examples:
  pgw sandbox fault add --route 'POST /pg/orders/' --status 503 --times 2
  pgw sandbox fault add --route 'GET /pg/payments/*/' --status 429 --rate 0.3 --seed 42
  pgw sandbox fault add --route 'POST /pg/orders/' --after-commit --times 1
  pgw sandbox fault list
  pgw sandbox fault clear`;

function registerFault(sandbox: Command, ctx: Context): void {
  const fault = sandbox.command('fault').description("failures on demand for the account in use's requests").addHelpText('after', FAULT_HELP);
  fault
    .command('add')
    .description('arm a fault on a route (one of --status, --delay, --drop, --after-commit)')
    .option('--route <route>', "'<METHOD> <path>', e.g. 'POST /pg/orders/'")
    .option('--status <code>', 'answer with this HTTP status (400-599)')
    .option('--delay <duration>', 'answer after this long (500ms, 2s, 1m)')
    .option('--drop', 'close the connection without an answer')
    .option('--after-commit', 'make the change, then lose the answer')
    .option('--times <n>', 'fail this many matching requests, then stop')
    .option('--rate <p>', 'fail each matching request with probability p (0-1]')
    .option('--seed <s>', 'with --rate: the seed that makes the sequence reproducible')
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText('after', FAULT_HELP)
    .action(async (opts: import('./fault.js').FaultFlags) => {
      const { runFaultAdd } = await import('./fault.js');
      await runFaultAdd(ctx, opts);
    });
  fault
    .command('list')
    .description('the faults of the account in use: what each does, how often, how many fired')
    .addHelpText('after', ex('pgw sandbox fault list', "pgw sandbox fault list --query '[].id'"))
    .action(async () => {
      const { runFaultList } = await import('./fault.js');
      await runFaultList(ctx);
    });
  fault
    .command('clear')
    .description('remove every fault of the account in use, or one')
    .argument('[id]', 'the fault to remove (FT...)')
    .option('--dry-run', 'print the request and send nothing')
    .addHelpText('after', ex('pgw sandbox fault clear', 'pgw sandbox fault clear FT1234567890'))
    .action(async (id: string | undefined, opts: { dryRun?: boolean }) => {
      const { runFaultClear } = await import('./fault.js');
      await runFaultClear(ctx, { id, ...opts });
    });
}

const SNAPSHOT_HELP = `
On the embedded profile, or with --db <file>, a snapshot is of the whole database file, the
sandbox clock included. Against a server over HTTP it covers the data of the account in use (a
PSP's includes its sub-merchants), unless the server runs with --allow-global-snapshots.
Snapshots live beside the database, in <db>-snapshots/.

Examples:
  pgw sandbox seed --snapshot base
  pgw sandbox snapshot restore base --yes
  pgw sandbox snapshot list
  pgw sandbox snapshot save nightly --db ./team-sandbox.db`;

function registerSnapshot(sandbox: Command, ctx: Context): void {
  const snapshot = sandbox
    .command('snapshot')
    .description('save the sandbox and bring it back: consistent copies, restored atomically')
    .addHelpText('after', SNAPSHOT_HELP);
  const db = () => new Option('--db <file>', 'work on this SQLite database file directly (whole database)');
  snapshot
    .command('save')
    .description('save the sandbox as <name> (one of that name is replaced)')
    .argument('<name>', 'letters, digits, dots, dashes, underscores')
    .addOption(db())
    .option('--dry-run', 'print the request and save nothing')
    .addHelpText('after', ex('pgw sandbox snapshot save base', 'pgw sandbox seed --snapshot base', 'pgw sandbox snapshot save nightly --db ./team.db'))
    .action(async (name: string, opts: { db?: string; dryRun?: boolean }) => {
      const { runSnapshotSave } = await import('./snapshot.js');
      await runSnapshotSave(ctx, { name, ...opts });
    });
  snapshot
    .command('restore')
    .description('replace the data with snapshot <name>, in one transaction (asks first)')
    .argument('<name>', 'snapshot to restore')
    .addOption(db())
    .option('--dry-run', 'print the request and change nothing')
    .addHelpText('after', ex('pgw sandbox snapshot restore base', 'pgw sandbox snapshot restore base --yes --json'))
    .action(async (name: string, opts: { db?: string; dryRun?: boolean }) => {
      const { runSnapshotRestore } = await import('./snapshot.js');
      await runSnapshotRestore(ctx, { name, ...opts });
    });
  snapshot
    .command('list')
    .description('the snapshots you can restore')
    .addOption(db())
    .addHelpText('after', ex('pgw sandbox snapshot list', "pgw sandbox snapshot list --query '[].name'"))
    .action(async (opts: { db?: string }) => {
      const { runSnapshotList } = await import('./snapshot.js');
      await runSnapshotList(ctx, opts);
    });
  snapshot
    .command('delete')
    .description('delete snapshot <name> (asks first)')
    .argument('<name>', 'snapshot to delete')
    .addOption(db())
    .option('--dry-run', 'print the request and delete nothing')
    .addHelpText('after', ex('pgw sandbox snapshot delete base', 'pgw sandbox snapshot delete base --yes'))
    .action(async (name: string, opts: { db?: string; dryRun?: boolean }) => {
      const { runSnapshotDelete } = await import('./snapshot.js');
      await runSnapshotDelete(ctx, { name, ...opts });
    });
}
