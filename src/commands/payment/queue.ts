// pgw payment verification (no ID): the work queue of compliance operations (issue 42 item 1):
// "which payments need me?" Every payment whose verification is open (INFO_PENDING,
// ACTION_REQUIRED, UNDER_REVIEW, ON_HOLD), oldest deadline first, with what is owed, the deadline
// and the reviewer's last message. The gateway has no such list: it is composed from documented
// reads, and says how many it made:
//   GET /pg/payments/?status=captured, every page (vendor 3.1), then
//   GET /pg/payments/{id}/verification/ for each (vendor 11.2.1: its settlement_status and items);
//   on pgw's own sandbox, for each open one, its delivery log (GET /sandbox/events/, review.ts):
//   the message and the deadline travel only in the compliance events (vendor 11.4.2).
// Exact on the sandbox (its list holds every payment); on production as exact as those reads.
import type { Context } from '../../context.js';
import { GatewayError, UsageError } from '../../errors.js';
import { displayAmount } from '../../money.js';
import { toCsv, type CsvColumn } from '../../output/csv.js';
import { emit, renderTable, wantsJson } from '../../output/render.js';
import { startProgress } from '../../output/progress.js';
import { plainText } from '../../safety/terminal-text.js';
import { dayRange } from '../dates.js';
import { DEFAULT_CONCURRENCY, fetchAll } from '../lookup.js';
import { fetchListed, pageWithResults, type Page } from '../pages.js';
import { positiveIntOption } from '../parse.js';
import { MAX_PAYMENT_PAGE_SIZE, amountOf, type PaymentListItem } from './list.js';
import { reviewOf, reviewSource } from './review.js';
import { outstandingOf, type Requirements } from './verification.js';

/** vendor 11.3: the states in which a verification is open (something owed, or a review under way). */
export const OPEN_STATES = ['INFO_PENDING', 'ACTION_REQUIRED', 'UNDER_REVIEW', 'ON_HOLD'] as const;

export interface QueueOptions {
  state?: string;
  from?: string;
  to?: string;
  concurrency?: string;
}

export interface QueueRow {
  payment_id: string;
  order_id: string | null;
  merchant_id: string | null;
  merchant_name: string | null;
  amount: string | null;
  currency: string | null;
  settlement_status: string;
  business_model: string | null;
  purpose_code: string | null;
  /** The checklist's unsatisfied codes (vendor 11.2.1). */
  outstanding: string[];
  /** What the reviewer's last event asks for; its message; when the verification expires. Null where pgw cannot know (no delivery log). */
  asks: string[] | null;
  message: string | null;
  message_at: string | null;
  deadline: string | null;
  created_at: string | null;
}

/** --state: any case, commas; only the open states (others are not in a queue). */
export function parseStates(value: string | undefined): string[] {
  if (value === undefined) return [...OPEN_STATES];
  const states = value.split(',').map((s) => s.trim().toUpperCase()).filter((s) => s !== '');
  const bad = states.filter((s) => !(OPEN_STATES as readonly string[]).includes(s));
  if (states.length === 0 || bad.length) {
    throw new UsageError(`--state: ${bad.length ? `${bad.join(', ')} ${bad.length === 1 ? 'is' : 'are'} not` : 'give'} one of the open states ${OPEN_STATES.join(', ')} (a verification in any other state needs nothing: pgw payment verification <id> says why)`);
  }
  return [...new Set(states)];
}

/** What is owed, in a word or a list: the checklist's items, else what the reviewer asks, else why nothing. */
export function owedText(r: Pick<QueueRow, 'outstanding' | 'asks' | 'settlement_status'>): string {
  // In review or on hold nothing can be sent (vendor 11.3 gating), whatever the checklist lacks.
  if (r.settlement_status === 'UNDER_REVIEW') return 'nothing: in review';
  if (r.settlement_status === 'ON_HOLD') return 'nothing: on hold';
  if (r.outstanding.length) return r.outstanding.join(', ');
  if (r.asks?.length) return r.asks.join(', ');
  return 'see the message';
}

const CSV: CsvColumn<QueueRow>[] = [
  { header: 'payment_id', value: (r) => r.payment_id },
  { header: 'merchant_id', value: (r) => r.merchant_id },
  { header: 'amount', value: (r) => r.amount },
  { header: 'currency', value: (r) => r.currency },
  { header: 'settlement_status', value: (r) => r.settlement_status },
  { header: 'owed', value: (r) => owedText(r) },
  { header: 'deadline', value: (r) => r.deadline },
  { header: 'message', value: (r) => r.message },
  { header: 'order_id', value: (r) => r.order_id },
  { header: 'purpose_code', value: (r) => r.purpose_code },
];

/** Oldest deadline first; no deadline after every dated one; then the oldest payment. */
function byDeadline(a: QueueRow, b: QueueRow): number {
  if (a.deadline !== b.deadline) {
    if (a.deadline === null) return 1;
    if (b.deadline === null) return -1;
    return a.deadline < b.deadline ? -1 : 1;
  }
  return (a.created_at ?? '') < (b.created_at ?? '') ? -1 : (a.created_at ?? '') > (b.created_at ?? '') ? 1 : 0;
}

/** The 40359 answer of a payment no checklist covers: it has no open verification to list. */
const noChecklist = (err: unknown) => err instanceof GatewayError && String(err.code) === '40359';

export async function runVerificationQueue(ctx: Context, opts: QueueOptions): Promise<void> {
  const states = parseStates(opts.state);
  const { from, to } = dayRange(opts.from, opts.to);
  const concurrency = opts.concurrency === undefined ? DEFAULT_CONCURRENCY : positiveIntOption('--concurrency', opts.concurrency, 64);
  const profile = await ctx.profile();
  const api = await ctx.api();
  let requests = 0;
  const listed = await fetchListed<PaymentListItem>(ctx, { all: true, pageSize: String(MAX_PAYMENT_PAGE_SIZE) }, MAX_PAYMENT_PAGE_SIZE, 'captured payments', async (page, pageSize) => {
    requests++;
    const data = await api.request<Page<PaymentListItem>>({ method: 'GET', path: '/pg/payments/', query: { page, page_size: pageSize, status: 'captured', from_created_at: from, to_created_at: to } });
    return pageWithResults(data, 'the payment list');
  });
  const pages = requests;
  const payments = listed.items.filter((p): p is PaymentListItem & { payment_id: string } => typeof p.payment_id === 'string');
  const progress = startProgress(ctx.io, payments.length, 'reading checklists');
  const checklists = await fetchAll(payments.map((p) => p.payment_id), concurrency, (id) => {
    requests++;
    return api.request<Requirements>({ method: 'GET', path: `/pg/payments/${id}/verification/` });
  }, () => progress.tick());
  progress.done();
  let unreadable = 0;
  const open: { p: PaymentListItem & { payment_id: string }; r: Requirements }[] = [];
  checklists.forEach((o, i) => {
    if (!o.ok) {
      if (noChecklist(o.error)) return void unreadable++;
      throw o.error;
    }
    if (o.value && states.includes(String(o.value.settlement_status))) open.push({ p: payments[i]!, r: o.value });
  });
  const source = reviewSource(profile);
  const reviews = source ? await fetchAll(open.map((x) => x.p.payment_id), concurrency, (id) => ((requests += 2), reviewOf(api, id))) : [];
  const rows: QueueRow[] = open
    .map(({ p, r }, i) => {
      const review = reviews[i]?.ok ? reviews[i].value : undefined;
      const { amount, currency } = amountOf(p);
      const dated = r.settlement_status === 'ACTION_REQUIRED' || r.settlement_status === 'INFO_PENDING';
      return {
        payment_id: p.payment_id,
        order_id: r.order_id ?? p.order_id ?? null,
        merchant_id: p.merchant?.id ?? null,
        merchant_name: p.merchant?.name ?? null,
        amount: displayAmount(amount) ?? null,
        currency: currency ?? null,
        settlement_status: String(r.settlement_status),
        business_model: r.business_model ?? null,
        purpose_code: r.purpose_code ?? null,
        outstanding: outstandingOf(r),
        asks: source ? (review?.asks ?? []) : null,
        message: review?.message ?? null,
        message_at: review?.at ?? null,
        // Only an open ask runs against the clock (the sandbox expires ACTION_REQUIRED and INFO_PENDING).
        deadline: dated ? (review?.deadline ?? null) : null,
        created_at: p.created_at ?? null,
      };
    })
    .sort(byDeadline);
  const local = ctx.io.stdoutIsTTY;
  // The deadline on a terminal is how long is left, on the clock the deadline runs on (the
  // sandbox's own: pgw sandbox clock may have moved it).
  let now = ctx.clock();
  if (!wantsJson(ctx.output) && ctx.output.format !== 'csv' && rows.some((r) => r.deadline !== null)) {
    const { sandboxNow } = await import('../sandbox/clock.js');
    now = await sandboxNow(ctx);
  }
  await emit(
    ctx.io,
    ctx.output,
    rows,
    () => {
      if (rows.length) ctx.io.out(queueTable(rows, ctx.io.colorOut, now));
      else ctx.log(`no open verification${states.length < OPEN_STATES.length ? ` in ${states.join(', ')}` : ''} among ${payments.length} captured payment${payments.length === 1 ? '' : 's'}`);
      const reads = [`${pages} page${pages === 1 ? '' : 's'} of captured payments`, `${payments.length} checklist${payments.length === 1 ? '' : 's'}`];
      if (source && open.length) reads.push(`${open.length * 2} reads of the sandbox's delivery log (the messages and deadlines)`);
      ctx.log(`note: ${requests} requests: ${reads.join(', ')}`);
      if (!source) ctx.log("note: the reviewer's messages and deadlines travel only in VERIFICATION_NEEDED webhooks, which this gateway's reads do not carry (pgw listen shows them as they come)");
      if (unreadable) ctx.log(`note: ${unreadable} payment${unreadable === 1 ? "'s" : "s'"} checklist could not be read (40359: no checklist covers its business model and purpose code)`);
      if (rows.length) ctx.log(`next: pgw payment verification ${rows[0]!.payment_id}`);
    },
    (csv) => toCsv(CSV, rows, csv),
  );
}

/**
 * At 80 columns: the payment, its state, what is owed and the reviewer's message (why it came
 * back) stay; the deadline (the rows are in its order), the amount and the merchant give way.
 */
/** "6d 23h left", "2h 5m overdue": a deadline as the time that is left (a time cell would be the first column dropped, fit.ts). */
export function leftText(deadline: string | null, now: Date): string | undefined {
  if (deadline === null) return undefined;
  const ms = Date.parse(deadline) - now.getTime();
  if (Number.isNaN(ms)) return deadline;
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  const span = d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`;
  return ms >= 0 ? `${span} left` : `${span} overdue`;
}

function queueTable(rows: QueueRow[], color: boolean, now: Date): string {
  const text = (v: string | null | undefined) => (v ? plainText(v) : undefined);
  return renderTable(
    ['payment', 'state', 'owed', 'deadline', 'message', 'amount', 'currency', 'merchant'],
    rows.map((r) => [r.payment_id, r.settlement_status, text(owedText(r)), leftText(r.deadline, now), text(r.message), r.amount ?? undefined, r.amount ? (r.currency ?? undefined) : undefined, text(r.merchant_name ?? r.merchant_id)]),
    color,
    {
      columns: [
        { keep: true, priority: 100 },
        { keep: true, priority: 90 },
        { priority: 85, cut: 'wrap' },
        { priority: 75 },
        { priority: 80, cut: 'wrap' },
        { money: true, priority: 60 },
        { priority: 59 },
        { priority: 40, cut: 'end' },
      ],
    },
  );
}
