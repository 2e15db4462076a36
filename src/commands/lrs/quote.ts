// pgw lrs quote: POST /pg/lrs/quote/ (vendor 11.6): pan, amount (a JSON number of rupees, as the
// docs type it, from the exact decimal text given) and purpose_code, validated first by the schema
// the sandbox uses. The figures are shown as the gateway sent them (decimal strings).
import type { Context } from '../../context.js';
import { lrsQuoteSchema, validate } from '../../api/schemas/index.js';
import { UsageError, ValidationError } from '../../errors.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail } from '../../output/render.js';
import { amountAsJsonValue, displayAmount } from '../../money.js';
import { plainText } from '../../safety/terminal-text.js';

export interface LrsQuoteOptions {
  pan?: string;
  amount?: string;
  purposeCode?: string;
  dryRun: boolean;
}

type Quote = Record<string, unknown>;

const FLAG_OF: Record<string, string> = { pan: '--pan', amount: '--amount', purpose_code: '--purpose-code' };

export async function runLrsQuote(ctx: Context, opts: LrsQuoteOptions): Promise<void> {
  const missing = (['pan', 'amount', 'purposeCode'] as const).filter((k) => opts[k] === undefined).map((k) => (k === 'purposeCode' ? '--purpose-code' : `--${k}`));
  if (missing.length > 0) throw new UsageError(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required: pgw lrs quote --pan <pan> --amount <rupees> --purpose-code <code>`);
  const given = { pan: opts.pan!.trim().toUpperCase(), amount: opts.amount!.trim(), purpose_code: opts.purposeCode!.trim() };
  const checked = validate(lrsQuoteSchema, given);
  if (!checked.ok) throw new ValidationError(checked.problems.map((p) => ({ path: FLAG_OF[p.path] ?? p.path, message: p.message })), 'invalid LRS quote');
  // vendor 11.6 types amount as a number: the checked decimal text (at most 2 decimals) as one.
  const body = { pan: checked.data.pan, amount: amountAsJsonValue(checked.data.amount), purpose_code: checked.data.purpose_code };
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: '/pg/lrs/quote/', body };
  if (opts.dryRun) return printDryRun(ctx.io, ctx.output, api.preview(req));
  const quote = await api.request<Quote>(req);
  await emit(ctx.io, ctx.output, quote, () => {
    const text = (v: unknown) => (typeof v === 'string' ? plainText(v) : v === null || v === undefined ? '-' : String(v));
    const money = (v: unknown) => displayAmount(v) ?? '-';
    const yesNo = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : '-');
    const q = quote ?? {};
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['pan', text(q.pan)],
            ['financial year', text(q.financial_year)],
            ['committed (INR)', money(q.committed_inr)],
            ['remittance (INR)', money(q.remittance_inr)],
            ['taxable (INR)', money(q.taxable_inr)],
            ['TCS rate', text(q.tcs_rate)],
            ['TCS (INR)', money(q.tcs_inr)],
            ['total payable (INR)', money(q.total_payable_inr)],
            ['threshold crossed', `before ${yesNo(q.tcs_threshold_breached_before)}, after ${yesNo(q.tcs_threshold_breached_after)}`],
            ['TCS reason', text(q.tcs_reason)],
          ],
        },
      ]),
    );
  });
}
