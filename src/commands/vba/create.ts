// pgw vba create: POST /pg/vba/ (vendor 11.7.1). The body is built from the flags and checked with
// the schema the sandbox uses before anything is sent; production asks first.
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { validate } from '../../api/schemas/common.js';
import { vbaCreateSchema } from '../../api/schemas/vba.js';
import { isAmountString } from '../../money.js';
import { confirmProduction } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit } from '../../output/render.js';
import { isProduction } from '../../rails.js';
import { vbaDetail, type Vba } from './view.js';

export interface VbaCreateFlags {
  remitter?: string[];
  minAmount?: string;
  maxAmount?: string;
}

export interface VbaCreateBody {
  remitter_lock_details?: { allowed_remitters: { account_number: string; ifsc?: string }[] };
  amount_lock_details?: { min_amount?: number; max_amount?: number };
}

/** Rupees as the vendor's JSON number (11.7.1): "1500.50" → 1500.5; a bad one is exit 2. */
function rupees(flag: string, value: string): number {
  const text = value.trim();
  if (!isAmountString(text)) throw new UsageError(`${flag}: "${value}" is not an amount (rupees, at most 2 decimals, e.g. 500000)`);
  return Number(text);
}

/** `acct[:ifsc]` → an allow-list entry; the IFSC's letters are upper-cased as banks print them. */
function remitter(value: string): { account_number: string; ifsc?: string } {
  const [account, ifsc, ...rest] = value.trim().split(':');
  if (rest.length > 0 || !account) throw new UsageError(`--remitter: "${value}" is not <account number>[:<IFSC>]`);
  return ifsc === undefined || ifsc === '' ? { account_number: account } : { account_number: account, ifsc: ifsc.toUpperCase() };
}

/** commander's flags → the request body; no I/O. */
export function buildVbaCreateBody(flags: VbaCreateFlags): VbaCreateBody {
  const body: VbaCreateBody = {};
  if (flags.remitter && flags.remitter.length > 0) body.remitter_lock_details = { allowed_remitters: flags.remitter.map(remitter) };
  const min = flags.minAmount === undefined ? undefined : rupees('--min-amount', flags.minAmount);
  const max = flags.maxAmount === undefined ? undefined : rupees('--max-amount', flags.maxAmount);
  if (min !== undefined || max !== undefined) body.amount_lock_details = { ...(min === undefined ? {} : { min_amount: min }), ...(max === undefined ? {} : { max_amount: max }) };
  return body;
}

export async function runVbaCreate(ctx: Context, opts: { body: VbaCreateBody; dryRun: boolean }): Promise<void> {
  const checked = validate(vbaCreateSchema, opts.body);
  if (!checked.ok) throw new ValidationError(checked.problems, 'invalid virtual bank account, nothing was sent');
  const profile = await ctx.profile();
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: '/pg/vba/', body: opts.body };
  if (opts.dryRun) return printDryRun(ctx.io, ctx.output, api.preview(req));
  await confirmProduction(ctx, profile, 'create a virtual bank account');
  // vendor 11.7.1: data is an array (one account today); JSON prints it unchanged.
  const data = await api.request<Vba[] | Vba>(req);
  const accounts = Array.isArray(data) ? data : [data];
  await emit(ctx.io, ctx.output, data, () => {
    ctx.io.out(accounts.map((v) => vbaDetail(v, ctx.io.colorOut)).join('\n'));
    // issue 42 item 4: money arrives by bank transfer; in the sandbox pgw makes one.
    const id = accounts[0]?.virtual_account_id;
    if (id) ctx.log(isProduction(profile) ? `credits arrive by bank transfer to its account number:\nnext: pgw vba payments ${id}` : `next: pgw sandbox vba transfer ${id} --amount 25000 --utr UTR${Date.now()}`);
  });
}
