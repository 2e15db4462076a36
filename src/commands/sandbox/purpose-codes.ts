// pgw sandbox purpose-codes [list] · enable <code…> · disable <code…> (issue 42 item 2): the
// purpose codes an account may declare (11.10 P4; vendor 11.2.4: "purpose codes must be enabled
// per account in sandbox too"), over GET/POST /sandbox/purpose-codes/. The account in use, or the
// sub-merchant named with -m. Sandbox only (exit 6 on production, nothing sent).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { B2B_SERVICES_CODES, LRS_CODES } from '../../api/schemas/verification.js';
import { emit, renderTable } from '../../output/render.js';
import { sandboxCall } from './call.js';

export interface PurposeCodes {
  merchant_id: string;
  enabled: string[];
  disabled?: string[];
}

const PATH = '/sandbox/purpose-codes/';
const ALL: readonly string[] = [...B2B_SERVICES_CODES, ...LRS_CODES];

/** Which checklist a code opens (vendor 11.2.1, 11.6), with business_model B2B for B2B services. */
export function checklistOf(code: string): string {
  if ((B2B_SERVICES_CODES as readonly string[]).includes(code)) return 'B2B services (business_model B2B)';
  if (code === 'S0305' || code === 'S1107') return 'LRS education';
  if ((LRS_CODES as readonly string[]).includes(code)) return 'LRS travel';
  return '-';
}

function codesArgument(codes: string[]): string[] {
  const wanted = [...new Set(codes.flatMap((c) => c.split(',')).map((c) => c.trim().toUpperCase()).filter((c) => c !== ''))];
  if (wanted.length === 0) throw new UsageError('give one or more purpose codes, e.g. S0802');
  const unknown = wanted.filter((c) => !ALL.includes(c));
  if (unknown.length) throw new UsageError(`${unknown.join(', ')}: not a purpose code the sandbox's checklists cover (${ALL.join(', ')})`);
  return wanted;
}

function render(ctx: Context, codes: PurposeCodes): void {
  const enabled = new Set(codes.enabled);
  ctx.io.out(renderTable(['code', 'enabled', 'checklist'], ALL.map((c) => [c, enabled.has(c) ? 'yes' : 'no', checklistOf(c)]), ctx.io.colorOut));
  ctx.log(`account ${codes.merchant_id}: ${codes.enabled.length} of ${ALL.length} enabled`);
}

export async function runPurposeCodes(ctx: Context, opts: { action: 'list' | 'enable' | 'disable'; codes?: string[]; dryRun?: boolean }): Promise<void> {
  const wanted = opts.action === 'list' ? [] : codesArgument(opts.codes ?? []);
  const current = (await sandboxCall<PurposeCodes>(ctx, `sandbox purpose-codes ${opts.action}`, { method: 'GET', path: PATH }))!;
  if (opts.action === 'list') {
    await emit(ctx.io, ctx.output, current, () => render(ctx, current));
    return;
  }
  // The route takes the whole disabled list: the current one, with these codes in or out.
  const disabled = new Set(current.disabled ?? ALL.filter((c) => !current.enabled.includes(c)));
  for (const c of wanted) {
    if (opts.action === 'enable') disabled.delete(c);
    else disabled.add(c);
  }
  const body = { disabled: ALL.filter((c) => disabled.has(c)) };
  const updated = await sandboxCall<PurposeCodes>(ctx, `sandbox purpose-codes ${opts.action}`, { method: 'POST', path: PATH, body }, opts.dryRun);
  if (!updated) return;
  await emit(ctx.io, ctx.output, updated, () => {
    render(ctx, updated);
    if (opts.action === 'enable') ctx.log(`next: pgw payment verify <payment_id> --field business_model=${(LRS_CODES as readonly string[]).includes(wanted[0]!) ? 'B2C' : 'B2B'} --field purpose_code=${wanted[0]}`);
  });
}
