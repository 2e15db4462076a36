// The settlements toolset: look-up, list, recon, the offline calculator, and the sandbox's
// mark-settled (spec 4.5, 4.6; beyond 4.1; vendor 5.1, 5.2).
import * as z from 'zod';
import { positiveAmount } from '../../api/schemas/index.js';
import { amount, day, id, ids, page, pageOptions } from '../inputs.js';
import { tool } from '../tool.js';

const amounts = (what: string) => z.array(amount(positiveAmount, what)).default([]);

export const settlementTools = [
  tool({
    name: 'settle_get',
    title: 'Look up a settlement',
    toolset: 'settlements',
    description: 'A settlement with its transactions and totals (GET /pg/settlements/{settlement_id}/).',
    command: 'pgw settle get <settlement_id>',
    effect: 'read',
    needs: 'any',
    input: z.object({ settlement_id: ids('settlement IDs') }),
    async run(ctx, input) {
      const { runSettleGet } = await import('../../commands/settle/get.js');
      await runSettleGet(ctx, { ids: input.settlement_id });
    },
  }),
  tool({
    name: 'settle_list',
    title: 'List settlements',
    toolset: 'settlements',
    description: 'Settlements by completion day (GET /pg/settlements/, beyond 4.1).',
    command: 'pgw settle list',
    effect: 'read',
    needs: 'any',
    input: z.object({ from: day('completed on or after this day').optional(), to: day('completed on or before this day').optional(), ...page }),
    async run(ctx, input) {
      const { runSettleList } = await import('../../commands/settle/list.js');
      await runSettleList(ctx, { from: input.from, to: input.to, ...pageOptions(input) });
    },
  }),
  tool({
    name: 'settle_recon',
    title: 'Reconcile a settlement',
    toolset: 'settlements',
    description: 'One row per capture, refund and chargeback of a settlement (GET /pg/settlements/{uid}/recon/, vendor 5.2).',
    command: 'pgw settle recon <settlement_id>',
    effect: 'read',
    needs: 'any',
    input: z.object({ settlement_id: id('settlement ID'), ...page }),
    async run(ctx, input) {
      const { runSettleRecon } = await import('../../commands/settle/recon.js');
      await runSettleRecon(ctx, { settlementId: input.settlement_id, ...pageOptions(input) });
    },
  }),
  tool({
    name: 'settle_report',
    title: 'Month-end report',
    toolset: 'settlements',
    description:
      "Every capture, refund and chargeback created in the days given, with fee, gst, net, settlement_id, UTR and settlement_status; per settlement its amount and whether the rows reconcile to it; the unsettled total. Composed of documented reads (about P/100 + R/250 + P + S/250 + S requests; `requests` says how many).",
    command: 'pgw settle report --from <day> --to <day>',
    effect: 'read',
    needs: 'any',
    input: z.object({ from: day('first day of the window'), to: day('last day of the window') }),
    example: { from: '2026-11-01', to: '2026-11-30' },
    async run(ctx, input) {
      const { runSettleReport } = await import('../../commands/settle/report.js');
      await runSettleReport(ctx, { from: input.from, to: input.to });
    },
  }),
  tool({
    name: 'settle_calc',
    title: 'Settlement calculator',
    toolset: 'settlements',
    description: 'Fee, GST and net of payments less refunds and chargebacks, exactly as mark-settled computes them (spec 4.6). Offline: nothing is sent.',
    command: 'pgw settle calc',
    effect: 'read',
    needs: 'any',
    offline: true,
    input: z.object({
      payments: z.array(amount(positiveAmount, 'a payment amount')).min(1).describe('payment amounts in rupees'),
      refunds: amounts('a refund amount').describe('refund amounts in rupees'),
      chargebacks: amounts('a chargeback amount').describe('chargeback amounts in rupees'),
    }),
    example: { payments: ['500.00', '300.00'], refunds: ['50.00'] },
    async run(ctx, input) {
      const { runSettleCalc } = await import('../../commands/settle/calc.js');
      await runSettleCalc(ctx, { payment: input.payments, refund: input.refunds, chargeback: input.chargebacks });
    },
  }),
  tool({
    name: 'settle_mark',
    title: 'Settle payments (sandbox)',
    toolset: 'settlements',
    description:
      'Sandbox only: settle captured payments with their refunds and chargebacks, as the gateway does at the end of a cycle (POST /pg/settlements/mark-settled/, spec 4.6). Sends PAYMENT_SETTLED.',
    command: 'pgw settle mark <payment_id…>',
    effect: 'write',
    needs: 'sandbox',
    destructive: true, // a settled payment stays settled
    input: z.object({
      payment_id: ids('captured payment IDs (PR…)'),
      refund: z.array(z.string().min(1)).default([]).describe('refunds to include: RF… or RF…=amount'),
      chargeback: z.array(z.string().min(1)).default([]).describe('chargebacks to include: CB… or CB…=amount'),
    }),
    async run(ctx, input, mode) {
      const { runSettleMark } = await import('../../commands/settle/mark.js');
      await runSettleMark(ctx, { ids: input.payment_id, refund: input.refund, chargeback: input.chargeback, dryRun: mode.dryRun });
    },
  }),
];
