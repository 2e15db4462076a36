// The sandbox toolset: the buyer's side, events on demand, refund and subscription outcomes, and
// the test platform (clock, snapshots, faults, seed). Never offered on production (catalog.ts).
import * as z from 'zod';
import { EVENT_TYPES } from '../../events.js';
import { KYC_STATUS_VALUES, MOP_TYPES, REFUND_SIMULATE_STATUSES, orderAmount, positiveAmount, sandboxFaultSchema } from '../../api/schemas/index.js';
import { amount, id } from '../inputs.js';
import { tool } from '../tool.js';

const fault = sandboxFaultSchema.shape;
const mop = z.enum(MOP_TYPES).optional().describe('method of payment (default upi)');
const snapshotName = z.string().min(1).max(64).describe('snapshot name: letters, digits, dots, dashes, underscores');

export const sandboxTools = [
  tool({
    name: 'sandbox_pay',
    title: 'Pay an order (sandbox)',
    toolset: 'sandbox',
    description: "Complete the buyer's side of an order: a captured payment, or a failed one with fail. Sends PAYMENT_SUCCESSFUL or PAYMENT_FAILED.",
    command: 'pgw sandbox pay <order_id>',
    effect: 'write',
    needs: 'pgw',
    input: z.object({ order_id: id('order to pay (OD…)'), fail: z.boolean().optional().describe('make the payment fail'), mop }),
    async run(ctx, input, mode) {
      const { runSandboxPay } = await import('../../commands/sandbox/pay.js');
      await runSandboxPay(ctx, { orderId: input.order_id, fail: input.fail, mop: input.mop, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_trigger',
    title: 'Trigger a webhook event (sandbox)',
    toolset: 'sandbox',
    description: 'Make an event happen by creating what it needs (or on existing objects); returns the IDs made and where the event went.',
    command: 'pgw trigger <EVENT>',
    effect: 'write',
    needs: 'pgw',
    input: z.object({
      event: z.enum(EVENT_TYPES).describe('the event to cause'),
      amount: amount(orderAmount, 'order amount in rupees (default 1000.00)').optional(),
      mop: z.enum(['upi', 'credit_card', 'debit_card', 'net_banking', 'qr']).optional(),
      link: z.boolean().optional().describe('pay through a payment link'),
      order: z.string().min(1).optional().describe('pay this existing order'),
      payment: z.string().min(1).optional().describe('start from this captured payment'),
      refund: z.string().min(1).optional().describe('move this existing refund'),
      merchant: z.string().min(1).optional().describe('approve this sub-merchant (MERCHANT_APPROVED)'),
      refund_status: z.enum(['PROCESSING', 'REVERSED', 'ON_HOLD', 'BANK_REJECTED_REFUND']).optional().describe('REFUND_STATUS_UPDATE: the status to move to'),
    }),
    async run(ctx, input) {
      const { runTrigger } = await import('../../commands/trigger/run.js');
      const { refund_status, ...rest } = input;
      await runTrigger(ctx, { ...rest, refundStatus: refund_status });
    },
  }),
  tool({
    name: 'sandbox_refund_simulate',
    title: "Move a refund's status (sandbox)",
    toolset: 'sandbox',
    description: 'Set a refund to a status of vendor 2.5 (POST /pg/refunds/{id}/simulate-status/, vendor 2.4); REFUNDED or FAILED send their events.',
    command: 'pgw refund simulate <refund_id> --status <STATUS>',
    effect: 'write',
    needs: 'sandbox',
    destructive: true,
    idempotent: true,
    input: z.object({
      refund_id: id('refund ID (RF…)'),
      status: z.enum(REFUND_SIMULATE_STATUSES as [string, ...string[]]).describe('the status to move to'),
      message: z.string().min(1).optional(),
      bank_ref: z.string().min(1).optional().describe('bank reference number'),
    }),
    async run(ctx, input, mode) {
      const { runRefundSimulate } = await import('../../commands/refund/simulate.js');
      await runRefundSimulate(ctx, { refundId: input.refund_id, status: input.status, message: input.message, bankRef: input.bank_ref, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_chargeback',
    title: 'Add a chargeback (sandbox)',
    toolset: 'sandbox',
    extra: true,
    description: 'Add a chargeback (CB…) to a captured payment.',
    command: 'pgw sandbox chargeback <payment_id> --amount <a>',
    effect: 'write',
    needs: 'pgw',
    input: z.object({ payment_id: id('captured payment (PR…)'), amount: amount(positiveAmount, 'amount in rupees') }),
    async run(ctx, input, mode) {
      const { runSandboxDebit } = await import('../../commands/sandbox/debit.js');
      await runSandboxDebit(ctx, { kind: 'chargeback', paymentId: input.payment_id, amount: input.amount, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_clock_show',
    title: "The sandbox's clock",
    toolset: 'sandbox',
    description: "The sandbox's own time for this account.",
    command: 'pgw sandbox clock show',
    effect: 'read',
    needs: 'pgw',
    input: z.object({}),
    async run(ctx) {
      const { runClock } = await import('../../commands/sandbox/clock.js');
      await runClock(ctx, { action: 'show' });
    },
  }),
  tool({
    name: 'sandbox_clock_advance',
    title: "Advance the sandbox's clock",
    toolset: 'sandbox',
    description: "Move the account's clock forward; every webhook retry, expiry and automatic refund that falls due happens before it returns, and `caused` says what (failed deliveries, expiries, refunds with amounts).",
    command: 'pgw sandbox clock advance <duration>',
    effect: 'write',
    needs: 'pgw',
    input: z.object({ duration: z.string().min(1).describe('90s, 5m, 1h, 7d') }),
    async run(ctx, input) {
      const { runClock } = await import('../../commands/sandbox/clock.js');
      await runClock(ctx, { action: 'advance', value: input.duration });
    },
  }),
  tool({
    name: 'sandbox_clock_set',
    title: "Set the sandbox's clock",
    toolset: 'sandbox',
    description: "Set the account's clock to a time (forward: what falls due happens, and `caused` says what).",
    command: 'pgw sandbox clock set <time>',
    effect: 'write',
    needs: 'pgw',
    destructive: true,
    idempotent: true,
    input: z.object({ time: z.string().min(1).describe('ISO 8601 with a zone, e.g. 2027-01-31T09:00:00Z') }),
    async run(ctx, input) {
      const { runClock } = await import('../../commands/sandbox/clock.js');
      await runClock(ctx, { action: 'set', value: input.time });
    },
  }),
  tool({
    name: 'sandbox_snapshot_save',
    title: 'Save a sandbox snapshot',
    toolset: 'sandbox',
    description: 'A consistent copy of the sandbox under a name (an existing one of that name is replaced).',
    command: 'pgw sandbox snapshot save <name>',
    effect: 'write',
    needs: 'pgw',
    destructive: true,
    idempotent: true,
    input: z.object({ name: snapshotName }),
    async run(ctx, input, mode) {
      const { runSnapshotSave } = await import('../../commands/sandbox/snapshot.js');
      await runSnapshotSave(ctx, { name: input.name, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_snapshot_restore',
    title: 'Restore a sandbox snapshot',
    toolset: 'sandbox',
    description: 'Bring the sandbox back to a saved snapshot: what happened since is gone.',
    command: 'pgw sandbox snapshot restore <name>',
    effect: 'write',
    needs: 'pgw',
    destructive: true,
    idempotent: true,
    input: z.object({ name: snapshotName }),
    async run(ctx, input, mode) {
      const { runSnapshotRestore } = await import('../../commands/sandbox/snapshot.js');
      await runSnapshotRestore(ctx, { name: input.name, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_snapshot_list',
    title: 'List sandbox snapshots',
    toolset: 'sandbox',
    description: 'The saved snapshots.',
    command: 'pgw sandbox snapshot list',
    effect: 'read',
    needs: 'pgw',
    input: z.object({}),
    async run(ctx) {
      const { runSnapshotList } = await import('../../commands/sandbox/snapshot.js');
      await runSnapshotList(ctx, {});
    },
  }),
  tool({
    name: 'sandbox_fault_add',
    title: 'Add a fault (sandbox)',
    toolset: 'sandbox',
    extra: true,
    description: "Make this account's requests to a route fail on demand: exactly one of status, delay, drop or after_commit; a number of times, or at a rate (seed only with rate).",
    command: "pgw sandbox fault add --route '<METHOD> <path>'",
    effect: 'write',
    needs: 'pgw',
    input: z.object({
      // The bounds are the sandbox's own (sandboxFaultSchema); a delay is a duration, as for the flag.
      route: fault.route.describe("'<METHOD> <path>', e.g. 'POST /pg/orders/' (* for any method)"),
      status: fault.status.describe('answer with this HTTP status'),
      delay: z.string().min(1).optional().describe('answer this much later: 500ms, 2s'),
      drop: z.boolean().optional().describe('close the connection without an answer'),
      after_commit: z.boolean().optional().describe('make the change, then fail (the caller cannot know it happened)'),
      times: fault.times.describe('this many times, then stop'),
      rate: fault.rate.describe('fail this fraction of requests (with seed)'),
      seed: fault.seed,
    }),
    async run(ctx, input, mode) {
      const { runFaultAdd } = await import('../../commands/sandbox/fault.js');
      const text = (v: number | undefined) => (v === undefined ? undefined : String(v));
      await runFaultAdd(ctx, {
        route: input.route,
        status: text(input.status),
        delay: input.delay,
        drop: input.drop,
        afterCommit: input.after_commit,
        times: text(input.times),
        rate: text(input.rate),
        seed: text(input.seed),
        dryRun: mode.dryRun,
      });
    },
  }),
  tool({
    name: 'sandbox_fault_list',
    title: 'List faults (sandbox)',
    toolset: 'sandbox',
    extra: true,
    description: 'The faults armed for this account.',
    command: 'pgw sandbox fault list',
    effect: 'read',
    needs: 'pgw',
    input: z.object({}),
    async run(ctx) {
      const { runFaultList } = await import('../../commands/sandbox/fault.js');
      await runFaultList(ctx);
    },
  }),
  tool({
    name: 'sandbox_fault_clear',
    title: 'Clear faults (sandbox)',
    toolset: 'sandbox',
    extra: true,
    description: 'Remove one fault by its ID, or all of this account\'s.',
    command: 'pgw sandbox fault clear [id]',
    effect: 'write',
    needs: 'pgw',
    destructive: true,
    idempotent: true,
    input: z.object({ fault_id: z.string().min(1).optional().describe('the fault to remove (all when absent)') }),
    async run(ctx, input, mode) {
      const { runFaultClear } = await import('../../commands/sandbox/fault.js');
      await runFaultClear(ctx, { id: input.fault_id, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_seed',
    title: 'Seed demo data (sandbox)',
    toolset: 'sandbox',
    description: 'Demo data: orders, captured payments, a link, a settlement; or payments captured payments at once.',
    command: 'pgw sandbox seed',
    effect: 'write',
    needs: 'pgw',
    input: z.object({
      payments: z.number().int().positive().max(10000).optional().describe('instead: this many captured payments'),
      snapshot: snapshotName.optional().describe('then save the sandbox as this snapshot'),
    }),
    async run(ctx, input, mode) {
      const { runSeed } = await import('../../commands/sandbox/seed.js');
      await runSeed(ctx, { payments: input.payments === undefined ? undefined : String(input.payments), snapshot: input.snapshot, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_merchant_kyc',
    title: "Move a sub-merchant's KYC (sandbox)",
    toolset: 'sandbox',
    extra: true,
    description: "Set a sub-merchant's kyc_status; APPROVED sends MERCHANT_APPROVED.",
    command: 'pgw sandbox merchant kyc <merchant_id> <STATUS>',
    effect: 'write',
    needs: 'pgw',
    destructive: true,
    idempotent: true,
    input: z.object({ merchant_id: id('sub-merchant ID'), status: z.enum(KYC_STATUS_VALUES) }),
    async run(ctx, input, mode) {
      const { runMerchantKyc } = await import('../../commands/sandbox/kyc.js');
      await runMerchantKyc(ctx, { merchantId: input.merchant_id, status: input.status, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_subscription_create',
    title: 'Create a subscription (sandbox)',
    toolset: 'sandbox',
    extra: true,
    description: 'A subscription to simulate payments on (sub_simulate).',
    command: 'pgw sandbox subscription create --amount <a>',
    effect: 'write',
    needs: 'pgw',
    input: z.object({ amount: amount(orderAmount, 'amount in rupees') }),
    async run(ctx, input, mode) {
      const { runSubscriptionCreate } = await import('../../commands/sandbox/subscription.js');
      await runSubscriptionCreate(ctx, { amount: input.amount, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'sandbox_compare',
    title: "Compare pgw's sandbox with this test gateway",
    toolset: 'sandbox',
    extra: true,
    description:
      "Send the scenario's read-only steps (payment search, link and settlement lists, sub-merchants for a PSP, unknown IDs, a bad API version) to this test gateway and to pgw's own sandbox, and return every difference a client written from the docs could trip on (status, envelope, error code, keys, types, enums, ID forms); documented ones are marked known. The full scenario, which creates test orders and links, is pgw sandbox compare on the command line.",
    command: 'pgw sandbox compare --against <profile> --read-only',
    effect: 'read',
    needs: 'sandbox',
    input: z.object({
      only: z.array(z.string().min(1)).optional().describe('step names, groups or prefixes (pgw sandbox compare --steps); read-only ones run'),
      psp: z.boolean().optional().describe("the profile is a PSP's: adds the sub-merchant list"),
    }),
    async run(ctx, input) {
      const { runSandboxCompare } = await import('../../commands/sandbox/compare.js');
      await runSandboxCompare(ctx, { only: input.only, psp: input.psp, readOnly: true, asTool: true });
    },
  }),
  tool({
    name: 'sub_simulate',
    title: 'Simulate a subscription payment (sandbox)',
    toolset: 'sandbox',
    extra: true,
    description: 'A subscription payment that succeeds or fails (POST /pg/subscriptions/{id}/simulate_payment/, vendor 8).',
    command: 'pgw sub simulate <subscription_id> --status SUCCESS|FAILED',
    effect: 'write',
    needs: 'sandbox',
    input: z.object({ subscription_id: id('subscription uid'), status: z.enum(['SUCCESS', 'FAILED']), payment_id: z.string().min(1).optional() }),
    async run(ctx, input, mode) {
      const { runSubSimulate } = await import('../../commands/sub/simulate.js');
      await runSubSimulate(ctx, { subscriptionId: input.subscription_id, status: input.status, paymentId: input.payment_id, dryRun: mode.dryRun });
    },
  }),
];
