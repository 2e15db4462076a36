// pgw pan verify: POST /pg/pan/verify/ (vendor 11.6) with pan, name and dob, validated first by the
// schema the sandbox uses. A failed match is a 200 with verified false: data, exit 0.
import type { Context } from '../../context.js';
import { panVerifySchema, validate } from '../../api/schemas/index.js';
import { UsageError, ValidationError } from '../../errors.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail } from '../../output/render.js';
import { plainText } from '../../safety/terminal-text.js';

export interface PanVerifyOptions {
  pan?: string;
  name?: string;
  dob?: string;
  dryRun: boolean;
}

interface PanOutcome {
  pan_id?: string;
  verified?: boolean;
  pan_status?: string | null;
  entity_type?: string | null;
  reason?: string | null;
}

export async function runPanVerify(ctx: Context, opts: PanVerifyOptions): Promise<void> {
  const missing = (['pan', 'name', 'dob'] as const).filter((k) => opts[k] === undefined).map((k) => `--${k}`);
  if (missing.length > 0) throw new UsageError(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required: pgw pan verify --pan <pan> --name <name> --dob <YYYY-MM-DD>`);
  const body = { pan: opts.pan!.trim().toUpperCase(), name: opts.name!, dob: opts.dob!.trim() };
  const checked = validate(panVerifySchema, body);
  if (!checked.ok) throw new ValidationError(checked.problems.map((p) => ({ path: `--${p.path}`, message: p.message })), 'invalid PAN check');
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: '/pg/pan/verify/', body: checked.data };
  if (opts.dryRun) return printDryRun(ctx.io, ctx.output, api.preview(req));
  const outcome = await api.request<PanOutcome>(req);
  await emit(ctx.io, ctx.output, outcome, () => {
    const text = (v: unknown) => (typeof v === 'string' ? plainText(v) : v === null || v === undefined ? '-' : String(v));
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['pan', body.pan],
            ['verified', outcome?.verified === true ? 'yes' : 'no'],
            ['reason', text(outcome?.reason)],
            ['pan_status', text(outcome?.pan_status)],
            ['entity_type', text(outcome?.entity_type)],
            ['pan_id', text(outcome?.pan_id)],
          ],
        },
      ]),
    );
  });
}
