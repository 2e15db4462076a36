// pgw merchant create: POST /partners/merchants/ (spec 4.9, body 2.10). The body comes from
// --file (one merchant, or a batch: see bulk.ts; JSON, JSON Lines or CSV) or, in a terminal, from the guided prompts; it is
// checked whole before anything is sent (every problem with its field path, exit 2).
import type { Context } from '../../context.js';
import type { ApiRequest } from '../../api/types.js';
import type { MerchantCreate } from '../../api/schemas/merchants.js';
import { UsageError } from '../../errors.js';
import { confirmProduction, isProduction } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit } from '../../output/render.js';
import { MERCHANT_TEMPLATE } from './template.js';
import { parseMerchantInput, readSource } from './input.js';
import { checkCreate, requireValid } from './validate.js';
import { MERCHANTS_PATH, partnerRequest } from './partner.js';
import { createdDetail, type CreatedMerchant } from './view.js';
import { afterCreated } from './next-step.js';

export interface MerchantCreateOptions {
  file?: string;
  printTemplate?: boolean;
  dryRun?: boolean;
  results?: string;
  resume?: string;
  skipInvalid?: boolean;
  allowDuplicates?: boolean;
  csv?: boolean;
}

const FILE_HINT = 'pgw merchant create --print-template > merchant.json; edit it; pgw merchant create --file merchant.json';

export async function runMerchantCreate(ctx: Context, opts: MerchantCreateOptions): Promise<void> {
  if (opts.printTemplate) {
    if (opts.csv) {
      const { csvTemplate } = await import('./csv-template.js');
      ctx.io.outOwn(csvTemplate()); // pgw's own example: never masked
      return;
    }
    ctx.io.outOwn(`${JSON.stringify(MERCHANT_TEMPLATE, null, 2)}\n`); // pgw's own example: never masked
    return;
  }
  if (opts.csv) throw new UsageError('--csv goes with --print-template (a CSV --file is read as CSV by itself)');
  void ctx.output; // a bad -o is refused before any question or request
  if (opts.file === undefined) {
    const batchFlag =
      opts.results !== undefined ? '--results' : opts.resume !== undefined ? '--resume' : opts.skipInvalid ? '--skip-invalid' : opts.allowDuplicates ? '--allow-duplicates' : undefined;
    if (batchFlag) throw new UsageError(`${batchFlag} works on a batch: give the merchants with --file <path|->`);
    if (!ctx.io.canPrompt) {
      throw new UsageError('merchant create needs --file <path|-> when it cannot ask (not a terminal, or --no-input)', {
        suggestion: FILE_HINT,
      });
    }
    const prompter = await ctx.loadPrompter();
    const { promptMerchant } = await import('./prompt-flow.js');
    const body = await promptMerchant(prompter, ctx.io);
    await createOne(ctx, requireValid(checkCreate(body), 'invalid merchant'), opts.dryRun);
    return;
  }
  const { name, text } = await readSource(opts.file, ctx.io.stdin);
  const asBatch = opts.results !== undefined || opts.resume !== undefined || opts.skipInvalid === true;
  const input = parseMerchantInput(name, text, asBatch);
  if (input.kind === 'single') {
    const body = requireValid(checkCreate(input.value), `invalid merchant in ${name}`);
    if (!opts.allowDuplicates) await refuseExisting(ctx, name, body);
    await createOne(ctx, body, opts.dryRun);
    return;
  }
  const { runBatch } = await import('./bulk.js');
  await runBatch(ctx, input, opts);
}

/** A file's one merchant with the registration_number or tax_id of an existing sub-merchant: exit 2, nothing sent. */
async function refuseExisting(ctx: Context, name: string, body: MerchantCreate): Promise<void> {
  const { matchExisting } = await import('./duplicates.js');
  const reason = (await matchExisting(ctx, await ctx.api(), [{ n: 1, hash: '', value: body }])).get(1);
  if (reason !== undefined) {
    throw new UsageError(`${name}: ${reason}, nothing was sent`, { code: 'DUPLICATE', suggestion: '--allow-duplicates creates it anyway' });
  }
}

async function createOne(ctx: Context, body: MerchantCreate, dryRun?: boolean): Promise<void> {
  const profile = await ctx.profile();
  const api = await ctx.api();
  const req: ApiRequest = { method: 'POST', path: MERCHANTS_PATH, body };
  if (dryRun) {
    await printDryRun(ctx.io, ctx.output, api.preview(req));
    return;
  }
  await confirmProduction(ctx, profile, 'merchant create');
  const created = await partnerRequest<CreatedMerchant>(api, req);
  await emit(ctx.io, ctx.output, created, () => {
    ctx.io.out(createdDetail(created, ctx.io.colorOut, ctx.io.stdoutIsTTY));
    const next = afterCreated(created.id ? [created.id] : [], isProduction(profile));
    if (next) ctx.log(next);
  });
}
