// pgw payment verification <payment_id>: GET /pg/payments/{payment_id}/verification/ (vendor
// 11.2.1), the payment's compliance checklist as a table (code, label, satisfied, provided,
// optional/conditional/waivable). --json prints the gateway's data unchanged.
import type { Context } from '../../context.js';
import { emit, renderDetail, renderTable } from '../../output/render.js';
import { plainText } from '../../safety/terminal-text.js';
import { idArgument } from '../parse.js';
import { stateLabel } from '../../settlement-states.js';

export interface ChecklistItem {
  code: string;
  message?: string;
  satisfied?: boolean;
  provided?: boolean;
  optional?: boolean;
  condition?: string;
  waivable?: boolean;
}

export interface Requirements {
  payment_id: string;
  order_id?: string;
  settlement_status?: string;
  business_model?: string | null;
  purpose_code?: string | null;
  fields?: ChecklistItem[];
  documents?: ChecklistItem[];
}

/** What an item is besides required: optional, conditional (its condition) or waivable; "-" when none. */
export function itemKind(i: ChecklistItem): string {
  const kinds = [i.optional ? 'optional' : undefined, i.condition ? `conditional (${i.condition})` : undefined, i.waivable ? 'waivable' : undefined].filter((k) => k);
  return kinds.length ? kinds.join(', ') : '-';
}

/** The codes still blocking completion (vendor 11.2.1: satisfied false). */
export function outstandingOf(r: Requirements): string[] {
  return [...(r.fields ?? []), ...(r.documents ?? [])].filter((i) => i.satisfied === false).map((i) => i.code);
}

export function renderRequirements(r: Requirements, color: boolean): string {
  const text = (v: unknown) => (typeof v === 'string' ? plainText(v) : undefined);
  const yes = (b: boolean | undefined) => (b === undefined ? '-' : b ? 'yes' : 'no');
  const rows = [
    ...[...(r.fields ?? []), ...(r.documents ?? [])].map((i) => [text(i.code), text(i.message), yes(i.satisfied), yes(i.provided), itemKind(i)]),
  ];
  const outstanding = outstandingOf(r);
  const head = renderDetail([
    {
      rows: [
        ['payment_id', text(r.payment_id)],
        ['order_id', text(r.order_id)],
        ['settlement', stateLabel(text(r.settlement_status))],
        ['business_model', text(r.business_model) ?? 'not declared'],
        ['purpose_code', text(r.purpose_code) ?? 'not declared'],
        ['outstanding', outstanding.length ? `${outstanding.length}: ${outstanding.join(', ')}` : 'nothing'],
        // The table lists fields, then documents: which codes are documents (sent with --document).
        ['documents', (r.documents ?? []).map((d) => text(d.code)).join(', ') || 'none'],
      ],
    },
  ]);
  return `${head}\n${renderTable(['code', 'label', 'satisfied', 'provided', 'optional/conditional/waivable'], rows, color, {
    columns: [{ priority: 9, keep: true }, { priority: 3 }, { priority: 8 }, { priority: 6 }, { priority: 5 }],
  })}`;
}

export async function runPaymentVerification(ctx: Context, opts: { paymentId: string }): Promise<void> {
  const id = idArgument('payment_id', opts.paymentId);
  const api = await ctx.api();
  const r = await api.request<Requirements>({ method: 'GET', path: `/pg/payments/${id}/verification/` });
  await emit(ctx.io, ctx.output, r, () => {
    ctx.io.out(renderRequirements(r, ctx.io.colorOut));
    const left = outstandingOf(r);
    // Only a payment that still takes details (vendor 11.3 gating) gets the suggestion.
    const open = r.settlement_status === 'ACTION_REQUIRED' || r.settlement_status === 'INFO_PENDING';
    if (open && left.length) ctx.log(`next: pgw payment verify ${id} ${left.map((c) => (r.documents ?? []).some((d) => d.code === c) ? `--document ${c}=<file>` : `--field ${c}=<value>`).join(' ')}`);
  });
}
