// pgw events list|get|resend over GET /sandbox/events/, GET /sandbox/events/{id}/ and
// POST /sandbox/events/{id}/resend/ (docs/sandbox.md "Webhooks"). Sandbox only, like every helper.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isEventType, notAnEvent } from '../../events.js';
import { emit, renderTable, wantsJson } from '../../output/render.js';
import { httpUrlOption, idArgument, positiveIntOption } from '../parse.js';
import { sandboxCall } from '../sandbox/call.js';
import { LIST_COLUMNS, LIST_HEAD, emptyFilteredLine, eventDetail, listRow } from './view.js';

export interface EventSummary {
  id: string;
  event_type: string;
  /** The ID the event is about (its payment, refund, settlement or merchant; absent from older sandboxes). */
  about?: string | null;
  sequence_number: string;
  merchant_id: string;
  created_at: string;
  targets: string[];
  attempts: number;
  status: string;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  /** Each address's state and latest answer (a sandbox from before this field: absent). */
  addresses?: { url: string; state: string; attempts: number; last_status: number | null; last_error: string | null; failing: boolean }[];
}

export interface EventDetail extends EventSummary {
  body: string;
  payload: unknown;
  deliveries: {
    url: string;
    kind: string;
    state: string;
    next_attempt_at: string | null;
    attempts: { n: number; at: string; status: number | null; error: string | null; ms: number; signature?: string | null; signature_v2?: string | null }[];
  }[];
}

const EVENTS_PATH = '/sandbox/events/';

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
  // An empty list filtered by status says what else there is (issue 33 item 8): one more read,
  // same filters but the status, made only for a person reading a table.
  let emptyLine: string | undefined;
  if (events.length === 0 && opts.status !== undefined && !wantsJson(ctx.output)) {
    const others = (await sandboxCall<EventSummary[]>(ctx, 'events list', {
      method: 'GET',
      path: EVENTS_PATH,
      query: { event_type: opts.type, about, limit: 1000 },
    }))!;
    emptyLine = emptyFilteredLine(opts.status, others);
  }
  await emit(ctx.io, ctx.output, events, () => {
    if (events.length === 0) {
      ctx.io.err(`${emptyLine ?? 'no events (they are recorded when a payment, settlement, refund or approval happens; pgw trigger makes one)'}\n`);
      return;
    }
    ctx.io.out(renderTable(LIST_HEAD, events.map((e) => listRow(e, local)), ctx.io.colorOut, { columns: LIST_COLUMNS }));
  });
}

export async function runEventsGet(ctx: Context, opts: { id: string }): Promise<void> {
  const id = idArgument('id', opts.id);
  const event = (await sandboxCall<EventDetail>(ctx, 'events get', { method: 'GET', path: `${EVENTS_PATH}${id}/` }))!;
  await emit(ctx.io, ctx.output, event, () => ctx.io.out(eventDetail(event, ctx.io.stdoutIsTTY)));
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
    ctx.io.out(eventDetail(event, ctx.io.stdoutIsTTY));
    for (const d of resent) {
      const a = d.attempts.at(-1);
      ctx.io.err(`resent to ${d.url}: ${a ? (a.status !== null ? `HTTP ${a.status}` : (a.error ?? 'no answer')) : 'not made yet'}${d.state === 'delivered' ? ' (delivered)' : ''}\n`);
    }
  });
}
