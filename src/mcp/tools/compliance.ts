// The cross-border compliance tools (vendor part 11): an order's documents, PAN verification and
// the LRS quote, in the compliance toolset. The PAN check and the quote are POSTs, so they are
// writes here (a quote reserves nothing, but the rule is the method: a tool that sends a POST
// never claims read-only).
import * as z from 'zod';
import { DOCUMENT_TYPES, lrsQuoteSchema, panVerifySchema } from '../../api/schemas/index.js';
import { formatAmount } from '../../money.js';
import { id } from '../inputs.js';
import { tool } from '../tool.js';

export const complianceTools = [
  tool({
    name: 'order_documents',
    title: "Upload an order's invoice or air waybill",
    toolset: 'compliance',
    extra: true,
    description:
      "Attach an invoice or an air waybill to an order (POST /pg/orders/{order_id}/documents/, vendor 11.1). The file is a path on this machine (pdf, jpg or jpeg, at most 2 MB), checked before anything is sent; on production the preview binds its content.",
    command: 'pgw order documents <order_id> --type invoice|awb --file <f>',
    effect: 'write',
    needs: 'any',
    destructive: true, // a second invoice replaces the first
    input: z.object({
      order_id: id('order ID (OD…)'),
      type: z.enum(DOCUMENT_TYPES).describe('invoice or awb (air waybill)'),
      file: z.string().min(1).describe("the file's path on this machine (relative to where pgw mcp runs)"),
      identifier: z.string().min(1).max(255).optional().describe("a label for the document (default: the file's name; an AWB's number)"),
    }),
    async run(ctx, input, mode) {
      const { runOrderDocuments } = await import('../../commands/order/documents.js');
      await runOrderDocuments(ctx, { orderId: input.order_id, type: input.type, file: input.file, identifier: input.identifier, dryRun: mode.dryRun, digests: mode.digests });
    },
  }),
  tool({
    name: 'pan_verify',
    title: 'Verify a PAN',
    toolset: 'compliance',
    extra: true,
    description: "Check a PAN against its holder's name and date of birth (POST /pg/pan/verify/, vendor 11.6); an LRS quote needs a verified PAN. A failed match is a result, not an error.",
    command: 'pgw pan verify --pan <PAN> --name <name> --dob <YYYY-MM-DD>',
    effect: 'write',
    needs: 'any',
    destructive: true, // the last check of a PAN is the one that counts
    idempotent: true,
    input: z.object({ ...panVerifySchema.shape }),
    async run(ctx, input, mode) {
      const { runPanVerify } = await import('../../commands/pan/verify.js');
      await runPanVerify(ctx, { pan: input.pan, name: input.name, dob: input.dob, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'lrs_quote',
    title: 'Quote an LRS remittance',
    toolset: 'compliance',
    extra: true,
    description: 'The TCS, fee and total payable for an outward remittance under the LRS (POST /pg/lrs/quote/, vendor 11.6), for a verified PAN and an enabled purpose code. Reserves nothing.',
    command: 'pgw lrs quote --pan <PAN> --amount <a> --purpose-code <code>',
    effect: 'write',
    needs: 'any',
    idempotent: true,
    // Read as money: "1200000.00" and 1200000 are one amount (a two-step token binds them alike).
    input: z.object({ ...lrsQuoteSchema.shape, amount: lrsQuoteSchema.shape.amount.transform((v) => formatAmount(v)) }),
    async run(ctx, input, mode) {
      const { runLrsQuote } = await import('../../commands/lrs/quote.js');
      await runLrsQuote(ctx, { pan: input.pan, amount: input.amount, purposeCode: input.purpose_code, dryRun: mode.dryRun });
    },
  }),
];
