// Payment verification (vendor 11.2, 11.3): the checklist a cross-border payment must answer
// before it settles, answering it, and (sandbox) moving a review. All in the compliance toolset;
// the review simulator is offered on pgw's own sandbox only.
import * as z from 'zod';
import { SIMULATED_STATES, VERDICTS } from '../../api/schemas/verification.js';
import { id } from '../inputs.js';
import { tool } from '../tool.js';

const answer = z.union([z.string().min(1), z.number(), z.boolean()]);
/** `{code: value}` → the command line's `code=value` arguments. */
const pairs = (record: Record<string, unknown> | undefined): string[] => Object.entries(record ?? {}).map(([code, value]) => `${code}=${String(value)}`);

export const verificationTools = [
  tool({
    name: 'payment_verification',
    title: "A payment's compliance checklist",
    toolset: 'compliance',
    extra: true,
    description:
      "What a payment must answer before it settles (GET /pg/payments/{payment_id}/verification/, vendor 11.2.1): its settlement_status, business_model and purpose_code, and every field and document of its checklist, satisfied or not.",
    command: 'pgw payment verification <payment_id>',
    effect: 'read',
    needs: 'any',
    input: z.object({ payment_id: id('payment ID (PR…)') }),
    async run(ctx, input) {
      const { runPaymentVerification } = await import('../../commands/payment/verification.js');
      await runPaymentVerification(ctx, { paymentId: input.payment_id });
    },
  }),
  tool({
    name: 'payment_verify',
    title: "Answer a payment's checklist",
    toolset: 'compliance',
    extra: true,
    description:
      "Answer checklist items (POST …/verification/, vendor 11.2.2): fields by code, documents as files on this machine (uploaded first, each giving a ref, 11.2.3), waivers for waivable documents. Sends merge; a complete set is filed unless finalize is false. An unclassified payment first takes business_model and purpose_code, together.",
    command: 'pgw payment verify <payment_id> --field code=value … --document code=<file> … --waive code=<reason>',
    effect: 'write',
    needs: 'any',
    destructive: true, // a later value for a code replaces the earlier one
    flags: { '--field': 'fields', '--document': 'documents', '--waive': 'waive' },
    input: z.object({
      payment_id: id('payment ID (PR…)'),
      fields: z.record(z.string().min(1), answer).optional().describe('checklist field codes and their values, e.g. {"business_model": "B2B", "purpose_code": "S1005"}; payment_verification lists the codes'),
      documents: z.record(z.string().min(1), z.string().min(1)).optional().describe('document codes and the path of the file for each, e.g. {"invoice": "invoice.pdf"}'),
      waive: z.record(z.string().min(1), z.string().min(1)).optional().describe('waivable document codes and the reason for each'),
      finalize: z.boolean().optional().describe('file the set once it is complete (default true); false only stages'),
    }),
    async run(ctx, input, mode) {
      const { runPaymentVerify } = await import('../../commands/payment/verify.js');
      await runPaymentVerify(ctx, {
        paymentId: input.payment_id,
        field: pairs(input.fields),
        document: pairs(input.documents),
        waive: pairs(input.waive),
        finalize: input.finalize !== false,
        dryRun: mode.dryRun,
        digests: mode.digests,
      });
    },
  }),
];

export const verificationSandboxTools = [
  tool({
    name: 'sandbox_verification',
    title: "Move a payment's review (sandbox)",
    toolset: 'compliance',
    extra: true,
    description:
      "Move a payment's settlement_status as the vendor's reviewer would (POST …/simulate-verification/, docs/sandbox.md): UNDER_REVIEW, a send-back to ACTION_REQUIRED with a message, VERIFIED, ON_HOLD, EXPIRED or REJECTED (both refund what is left); an LRS verdict sends VERIFICATION_STATUS.",
    command: 'pgw sandbox verification <payment_id> <STATUS>',
    effect: 'write',
    needs: 'pgw',
    destructive: true,
    idempotent: true,
    input: z.object({
      payment_id: id('payment ID (PR…)'),
      status: z.enum(SIMULATED_STATES),
      message: z.string().min(1).optional().describe("the reviewer's comment (a send-back)"),
      verdict: z.enum(VERDICTS).optional().describe('LRS only: the verdict VERIFICATION_STATUS carries'),
    }),
    async run(ctx, input, mode) {
      const { runSandboxVerification } = await import('../../commands/sandbox/verification.js');
      await runSandboxVerification(ctx, { paymentId: input.payment_id, status: input.status, message: input.message, verdict: input.verdict, dryRun: mode.dryRun });
    },
  }),
];
