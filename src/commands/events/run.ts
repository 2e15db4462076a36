// pgw events list|get|resend over GET /sandbox/events/, GET /sandbox/events/{id}/ and
// POST /sandbox/events/{id}/resend/ (docs/sandbox.md "Webhooks"). Sandbox only, like every helper.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isEventType, notAnEvent } from '../../events.js';
import { emit, renderDetail, renderTable } from '../../output/render.js';
import { formatTime } from '../../output/time.js';
import { httpUrlOption, idArgument, positiveIntOption } from '../parse.js';
import { sandboxCall } from '../sandbox/call.js';

export interface EventSummary {
  id: string;
  event_type: string;
  sequence_number: string;
  merchant_id: string;
  created_at: string;
  targets: string[];
  attempts: number;
  status: string;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

export interface EventDetail extends EventSummary {
  body: string;
  payload: unknown;
  deliveries: {
    url: string;
    kind: string;
    state: string;
    next_attempt_at: string | null;
    attempts: { n: number; at: string; status: number | null; error: string | null; ms: number }[];
  }[];
}

const EVENTS_PATH = '/sandbox/events/';

/** The table's `last`: the HTTP status, or the reason in a word or two. */
const shortLast = (e: { last_status: number | null; last_error: string | null }): string | undefined =>
  e.last_status !== null ? String(e.last_status) : e.last_error?.startsWith('refused:') ? 'refused (host)' : (e.last_error?.replace(/^connection /, '') ?? undefined);

const lastText = (e: { last_status: number | null; last_error: string | null }): string | undefined =>
  e.last_status !== null ? String(e.last_status) : (e.last_error ?? undefined);

export async function runEventsList(ctx: Context, opts: { type?: string; status?: string; about?: string; limit?: string }): Promise<void> {
  const limit = opts.limit === undefined ? undefined : positiveIntOption('--limit', opts.limit, 1000);
  const about = opts.about === undefined ? undefined : idArgument('--about', opts.about);
  if (opts.type !== undefined && !isEventType(opts.type)) throw new UsageError(`--type: ${notAnEvent(opts.type)}`);
  const events = (await sandboxCall<EventSummary[]>(ctx, 'events list', {
    method: 'GET',
    path: EVENTS_PATH,
    query: { event_type: opts.type, status: opts.status, about, limit },
  }))!;
  const local = ctx.io.stdoutIsTTY;
  await emit(ctx.io, ctx.output, events, () => {
    if (events.length === 0) {
      ctx.io.err('no events (they are recorded when a payment, settlement, refund or approval happens; pgw trigger makes one)\n');
      return;
    }
    // At 80 columns the ID, event, tries, last answer and status stay whole; the next attempt,
    // the creation time and the addresses give way first (fit.ts).
    const rows = events.map((e) => [
      e.id,
      e.event_type,
      e.status,
      e.attempts,
      shortLast(e),
      formatTime(e.next_attempt_at, local),
      formatTime(e.created_at, local),
      e.targets.length === 0 ? '(none)' : e.targets.join(' '),
    ]);
    ctx.io.out(
      renderTable(['id', 'event', 'status', 'tries', 'last', 'next attempt', 'created', 'target'], rows, ctx.io.colorOut, {
        columns: [{ keep: true, priority: 100 }, { keep: true, priority: 90 }, { keep: true, priority: 80 }, { priority: 70 }, { priority: 60 }, { priority: 40 }, { priority: 30 }, { priority: 10, cut: 'middle' }],
      }),
    );
  });
}

export async function runEventsGet(ctx: Context, opts: { id: string }): Promise<void> {
  const id = idArgument('id', opts.id);
  const event = (await sandboxCall<EventDetail>(ctx, 'events get', { method: 'GET', path: `${EVENTS_PATH}${id}/` }))!;
  await emit(ctx.io, ctx.output, event, () => ctx.io.out(eventDetail(ctx, event)));
}

export async function runEventsResend(ctx: Context, opts: { id: string; to?: string; dryRun?: boolean }): Promise<void> {
  const id = idArgument('id', opts.id);
  const to = opts.to === undefined ? undefined : httpUrlOption('--to', opts.to);
  const event = await sandboxCall<EventDetail>(ctx, 'events resend', { method: 'POST', path: `${EVENTS_PATH}${id}/resend/`, body: to === undefined ? {} : { url: to } }, opts.dryRun);
  if (!event) return;
  // The deliveries this resend made: the newest of kind resend, one per address.
  const resends = event.deliveries.filter((d) => d.kind === 'resend');
  const resent = to === undefined ? resends.slice(-event.targets.length) : resends.filter((d) => d.url === to).slice(-1);
  await emit(ctx.io, ctx.output, event, () => {
    ctx.io.out(eventDetail(ctx, event));
    for (const d of resent) {
      const a = d.attempts.at(-1);
      ctx.io.err(`resent to ${d.url}: ${a ? (a.status !== null ? `HTTP ${a.status}` : (a.error ?? 'no answer')) : 'not made yet'}${d.state === 'delivered' ? ' (delivered)' : ''}\n`);
    }
  });
}

function eventDetail(ctx: Context, e: EventDetail): string {
  const local = ctx.io.stdoutIsTTY;
  const sections: { title?: string; rows: [string, string | null | undefined][] }[] = [
    {
      rows: [
        ['id', e.id],
        ['event_type', e.event_type],
        ['sequence_number', e.sequence_number],
        ['merchant_id', e.merchant_id],
        ['created', formatTime(e.created_at, local)],
        ['status', e.status],
        ['attempts', String(e.attempts)],
        ['next attempt', formatTime(e.next_attempt_at, local)],
      ],
    },
    ...e.deliveries.map((d) => ({
      title: `${d.url} (${d.kind}, ${d.state})`,
      rows:
        d.attempts.length === 0
          ? ([['attempts', d.next_attempt_at ? `none yet; next ${formatTime(d.next_attempt_at, local)}` : 'none']] as [string, string][])
          : d.attempts.map((a) => [`#${a.n}`, `${formatTime(a.at, local)}  ${a.status !== null ? `HTTP ${a.status}` : (a.error ?? 'no answer')}  ${a.ms} ms`] as [string, string]),
    })),
    { title: 'body (as sent and signed)', rows: [['', e.body]] },
  ];
  return renderDetail(sections);
}
