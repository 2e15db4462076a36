// Virtual bank accounts (vendor 11.7), in the compliance toolset: bank-transfer collections arrive
// on them, and each credit then answers the compliance checklist. The sandbox's simulated credit
// (sandbox_vba_transfer) is in the same toolset, offered on pgw's own sandbox only.
import * as z from 'zod';
import { VBA_STATUSES, vbaCreateSchema, vbaTransferSchema } from '../../api/schemas/index.js';
import { id, ids, page, pageOptions } from '../inputs.js';
import { tool } from '../tool.js';

const credit = vbaTransferSchema.shape.vba_simulation.shape;

export const vbaTools = [
  tool({
    name: 'vba_create',
    title: 'Create a virtual bank account',
    toolset: 'compliance',
    extra: true,
    description: 'A virtual bank account for bank-transfer collections (POST /pg/vba/, vendor 11.7.1), optionally locked to remitters and an amount range (min_amount at most max_amount).',
    command: 'pgw vba create',
    effect: 'write',
    needs: 'any',
    input: z.object({ ...vbaCreateSchema.shape }),
    async run(ctx, input, mode) {
      const { runVbaCreate } = await import('../../commands/vba/create.js');
      await runVbaCreate(ctx, { body: input as never, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'vba_list',
    title: 'List virtual bank accounts',
    toolset: 'compliance',
    extra: true,
    description: 'The virtual bank accounts (GET /pg/vba/, vendor 11.7.2).',
    command: 'pgw vba list',
    effect: 'read',
    needs: 'any',
    input: z.object({ status: z.enum(VBA_STATUSES).optional().describe('ACTIVE or INACTIVE'), ...page }),
    async run(ctx, input) {
      const { runVbaList } = await import('../../commands/vba/list.js');
      await runVbaList(ctx, { status: input.status, ...pageOptions(input) });
    },
  }),
  tool({
    name: 'vba_get',
    title: 'Look up virtual bank accounts',
    toolset: 'compliance',
    extra: true,
    description: 'A virtual bank account with its locks (GET /pg/vba/{virtual_account_id}/). Several IDs: a list.',
    command: 'pgw vba get <virtual_account_id…>',
    effect: 'read',
    needs: 'any',
    input: z.object({ virtual_account_id: ids('virtual account IDs') }),
    async run(ctx, input) {
      const { runVbaGet } = await import('../../commands/vba/get.js');
      await runVbaGet(ctx, { ids: input.virtual_account_id });
    },
  }),
  tool({
    name: 'vba_payments',
    title: "A virtual bank account's payments",
    toolset: 'compliance',
    extra: true,
    description: 'Credits received on a virtual bank account, newest first (GET …/payments/, vendor 11.7.4), or the one with a UTR (…/payment-by-utr/).',
    command: 'pgw vba payments <virtual_account_id>',
    effect: 'read',
    needs: 'any',
    input: z.object({
      virtual_account_id: id('virtual account ID'),
      utr: z.string().min(1).optional().describe('only the credit with this UTR'),
      from: z.string().min(1).optional().describe('created on or after (YYYY-MM-DD or ISO time)'),
      to: z.string().min(1).optional().describe('created on or before (YYYY-MM-DD or ISO time)'),
      since: z.string().min(1).optional().describe('only credits created after this payment ID'),
      ...page,
    }),
    async run(ctx, input) {
      const { runVbaPayments } = await import('../../commands/vba/payments.js');
      await runVbaPayments(ctx, { id: input.virtual_account_id, utr: input.utr, from: input.from, to: input.to, since: input.since, ...pageOptions(input) });
    },
  }),
];

export const vbaSandboxTools = [
  tool({
    name: 'sandbox_vba_transfer',
    title: 'Credit a virtual bank account (sandbox)',
    toolset: 'compliance',
    extra: true,
    description:
      'A bank transfer arriving on a virtual bank account (POST /pg/vba/simulate-transfer/, vendor 11.7.6): a captured payment that sends PAYMENT_SUCCESSFUL with utr and virtual_account_id, or a failed one when a lock or limit is broken.',
    command: 'pgw sandbox vba transfer <virtual_account_id> --amount <a> --utr <u>',
    effect: 'write',
    needs: 'pgw',
    input: z.object({
      virtual_account_id: id('virtual account ID'),
      amount: z.union([z.string().min(1), z.number().positive()]).describe('amount in rupees'),
      utr: credit.utr.describe('the transfer\'s UTR, unique on the account'),
      remitter_name: credit.remitter_name.optional().describe('default: a test remitter'),
      remitter_account: credit.remitter_account.optional(),
      remitter_ifsc: credit.remitter_ifsc.optional(),
      remarks: credit.remarks,
    }),
    async run(ctx, input, mode) {
      const { runVbaTransfer } = await import('../../commands/sandbox/vba-transfer.js');
      await runVbaTransfer(ctx, {
        id: input.virtual_account_id,
        amount: String(input.amount),
        utr: input.utr,
        remitterName: input.remitter_name,
        remitterAccount: input.remitter_account,
        remitterIfsc: input.remitter_ifsc,
        remarks: input.remarks,
        dryRun: mode.dryRun,
      });
    },
  }),
];
