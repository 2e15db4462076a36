// The merchants toolset: a PSP's sub-merchants (spec 2.10; beyond 5.1; vendor 7).
import * as z from 'zod';
import { companyDetailsSchema, merchantContactSchema, merchantCreateSchema, merchantUpdateSchema } from '../../api/schemas/index.js';
import { id, ids, page, pageOptions } from '../inputs.js';
import { tool } from '../tool.js';

export const merchantTools = [
  tool({
    name: 'merchant_list',
    title: 'List sub-merchants',
    toolset: 'merchants',
    description: "The PSP's sub-merchants (GET /partners/merchants/).",
    command: 'pgw merchant list',
    effect: 'read',
    needs: 'any',
    input: z.object({ ...page }),
    async run(ctx, input) {
      const { runMerchantList } = await import('../../commands/merchant/list.js');
      await runMerchantList(ctx, pageOptions(input));
    },
  }),
  tool({
    name: 'merchant_get',
    title: 'Look up sub-merchants',
    toolset: 'merchants',
    description: "A sub-merchant's company and settlement details and kyc_status (GET /partners/merchants/{merchant_id}/). Several IDs: a list.",
    command: 'pgw merchant get <merchant_id…>',
    effect: 'read',
    needs: 'any',
    input: z.object({ merchant_id: ids('sub-merchant IDs') }),
    async run(ctx, input) {
      const { runMerchantGet } = await import('../../commands/merchant/get.js');
      await runMerchantGet(ctx, { ids: input.merchant_id });
    },
  }),
  tool({
    name: 'merchant_create',
    title: 'Create a sub-merchant',
    toolset: 'merchants',
    extra: true,
    description:
      'Onboard a sub-merchant (POST /partners/merchants/, spec 2.10). company_details.communication_address, _city, _state, _country and _pincode are required when same_as_registered_address is false. Refused when its registration_number or tax_id matches an existing sub-merchant, unless allow_duplicates.',
    command: 'pgw merchant create --file -',
    effect: 'write',
    needs: 'any',
    // The contact (vendor 7.1: company_details.email, phone_number) is part of the body, as in the command's --file.
    input: z.object({
      ...merchantCreateSchema.shape,
      company_details: companyDetailsSchema.safeExtend(merchantContactSchema.shape),
      allow_duplicates: z.boolean().optional().describe('create it even when it matches an existing sub-merchant'),
    }),
    stdin: ({ allow_duplicates: _dup, ...body }) => body,
    async run(ctx, input, mode) {
      const { runMerchantCreate } = await import('../../commands/merchant/create.js');
      await runMerchantCreate(ctx, { file: '-', allowDuplicates: input.allow_duplicates, dryRun: mode.dryRun });
    },
  }),
  tool({
    name: 'merchant_update',
    title: 'Update a sub-merchant',
    toolset: 'merchants',
    extra: true,
    description: "Change fields of a sub-merchant's company_details or settlement_details (PATCH /partners/merchants/{merchant_id}/): at least one field; only what is given is sent.",
    command: 'pgw merchant update <merchant_id> --file -',
    effect: 'write',
    needs: 'any',
    destructive: true,
    idempotent: true,
    input: z.object({ merchant_id: id('sub-merchant ID'), ...z.object({ ...merchantUpdateSchema.shape }).shape }),
    stdin: ({ merchant_id: _id, ...body }) => body,
    async run(ctx, input, mode) {
      const { runMerchantUpdate } = await import('../../commands/merchant/update.js');
      await runMerchantUpdate(ctx, { id: input.merchant_id, file: '-', dryRun: mode.dryRun });
    },
    async preview(ctx, input) {
      const { partnerRequest, merchantPath } = await import('../../commands/merchant/partner.js');
      const { changeRows, changesOf } = await import('../../commands/merchant/changes.js');
      const { idArgument } = await import('../../commands/parse.js');
      const { merchant_id, ...body } = input;
      const current = await partnerRequest<Record<string, unknown>>(await ctx.api(), { method: 'GET', path: merchantPath(idArgument('merchant_id', merchant_id)) });
      return { changes: changeRows(current, changesOf(body)) };
    },
  }),
];
