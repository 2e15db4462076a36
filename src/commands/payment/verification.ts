// pgw payment verification <payment_id>: GET /pg/payments/{payment_id}/verification/ (vendor
// 11.2.1), the payment's compliance checklist as a table (code, label, satisfied, provided,
// optional/conditional/waivable), what the reviewer last said (review.ts: on pgw's sandbox, from
// its delivery log) and the next step; a payment that needs no verification in one line (issue
// 42 item 2). --json prints the gateway's data unchanged. Without an ID: the work queue (queue.ts).
import type { Context } from '../../context.js';
import { emit, renderDetail, renderTable, wantsJson } from '../../output/render.js';
import { plainText } from '../../safety/terminal-text.js';
import { idArgument } from '../parse.js';
import { stateLabel } from '../../settlement-states.js';
import { BOOLEAN_FIELDS, FIELD_CODES, VERIFICATION_DOCUMENT_TYPES } from '../../api/schemas/verification.js';
import { reviewOf, reviewRows, reviewSource, type ReviewFacts } from './review.js';
import { ACCEPTING_STATES, NO_VERIFICATION_STATES, openReviewHint, stateSentence } from './states.js';

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

export function renderRequirements(r: Requirements, color: boolean, review?: ReviewFacts, local = false): string {
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
        ...reviewRows(review, r.settlement_status, local),
      ],
    },
  ]);
  return `${head}\n${renderTable(['code', 'label', 'satisfied', 'provided', 'optional/conditional/waivable'], rows, color, {
    columns: [{ priority: 9, keep: true }, { priority: 3 }, { priority: 8 }, { priority: 6 }, { priority: 5 }],
  })}`;
}

/** `pgw payment verify <id> --field a=<value> --document b=<file>`: the command that answers what is owed. */
export function verifyCommand(id: string, r: Requirements, codes: string[]): string {
  // A document by the checklist, or by its code (the checklist read may predate the classification).
  const isDocument = (c: string) => (r.documents ?? []).some((d) => d.code === c) || ((VERIFICATION_DOCUMENT_TYPES as readonly string[]).includes(c) && !(FIELD_CODES as readonly string[]).includes(c));
  const flag = (c: string) => (isDocument(c) ? `--document ${c}=<file>` : BOOLEAN_FIELDS.includes(c) ? `--field ${c}=true` : `--field ${c}=<value>`);
  return `pgw payment verify ${id} ${codes.map(flag).join(' ')}`;
}

export async function runPaymentVerification(ctx: Context, opts: { paymentId?: string; state?: string; from?: string; to?: string; concurrency?: string }): Promise<void> {
  if (opts.paymentId === undefined) {
    const { runVerificationQueue } = await import('./queue.js');
    return runVerificationQueue(ctx, opts);
  }
  if (opts.state !== undefined || opts.from !== undefined || opts.to !== undefined || opts.concurrency !== undefined) {
    const { UsageError } = await import('../../errors.js');
    throw new UsageError('--state, --from, --to and --concurrency are for the work queue: give them without a payment ID (pgw payment verification --state ACTION_REQUIRED)');
  }
  const id = idArgument('payment_id', opts.paymentId);
  if (ctx.output.format === 'csv') {
    const { UsageError } = await import('../../errors.js');
    throw new UsageError('-o csv is for the work queue (pgw payment verification without an ID); use -o json or -o table for one payment');
  }
  const profile = await ctx.profile();
  const api = await ctx.api();
  const r = await api.request<Requirements>({ method: 'GET', path: `/pg/payments/${id}/verification/` });
  const state = String(r.settlement_status ?? '');
  const sandbox = reviewSource(profile) !== undefined;
  // The reviewer's last word, for a person (JSON stays the gateway's answer, unchanged).
  const review = sandbox && !wantsJson(ctx.output) && !NO_VERIFICATION_STATES.includes(state) ? await reviewOf(api, id) : undefined;
  await emit(ctx.io, ctx.output, r, () => {
    // A payment that needs no verification: one line, not a list of what nobody will ask for.
    if (NO_VERIFICATION_STATES.includes(state)) {
      ctx.io.out(`${stateSentence(id, state)}\n`);
      const hint = openReviewHint(id, state, sandbox);
      if (hint) ctx.log(`hint: ${hint}`);
      return;
    }
    ctx.io.out(renderRequirements(r, ctx.io.colorOut, review, ctx.io.stdoutIsTTY));
    const left = outstandingOf(r);
    const asked = left.length ? left : (review?.asks ?? []);
    if (ACCEPTING_STATES.includes(state)) {
      if (asked.length) ctx.log(`next: ${verifyCommand(id, r, asked)}`);
      else if (review?.message) ctx.log(`next: answer the reviewer ("${plainText(review.message)}") with pgw payment verify ${id} --field <code>=<value> or --document <code>=<file>; a send with nothing new files the set again: pgw payment verify ${id}`);
      return;
    }
    ctx.log(stateSentence(id, state));
    const hint = openReviewHint(id, state, sandbox);
    if (hint) ctx.log(`hint: ${hint}`);
  });
}
