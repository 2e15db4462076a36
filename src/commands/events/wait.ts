// pgw events wait --type <EVENT> [--about <id>] [--status <s>] [--timeout <d>] (issue 42 item 6):
// CI asserts "the webhook arrived" without polling its own receiver's log. Exit 0 with the event
// (as `events get` shows it) once one matches, 3 when the time runs out, naming what it waited
// for and where the nearest event stands. pgw's own sandbox only (its delivery log): exit 6 on a
// production profile, nothing sent. It reads GET /sandbox/events/ every POLL_MS; on the embedded
// profile this process also makes the attempts that fall due meanwhile, as any pgw run does.
import type { Context } from '../../context.js';
import { InterruptedError, NetworkError, UsageError } from '../../errors.js';
import { isEventType, notAnEvent } from '../../events.js';
import { emit } from '../../output/render.js';
import { idArgument } from '../parse.js';
import { sandboxCall } from '../sandbox/call.js';
import type { EventDetail, EventSummary } from './run.js';
import { eventDetail } from './view.js';

export interface EventsWaitOptions {
  type?: string;
  about?: string;
  status?: string;
}

const POLL_MS = 200;
const STATUSES = ['pending', 'delivered', 'failed', 'no_address'];

/** "a PAYMENT_SUCCESSFUL event about PR1234567890 with status delivered" */
function wanted(type: string, about: string | undefined, status: string | undefined): string {
  return `a ${type} event${about ? ` about ${about}` : ''}${status ? ` with status ${status}` : ''}`;
}

/** Where the nearest event stood when the time ran out: the hint of the exit-3 error. */
function nearest(e: EventSummary | undefined, type: string, about: string | undefined): string {
  if (!e) return `no ${type} event${about ? ` about ${about}` : ''} was recorded at all: did the payment, refund or approval happen? (pgw events list)`;
  const last = e.last_status !== null ? `last answer ${e.last_status}` : e.last_error ? `last: ${e.last_error}` : 'no attempt yet';
  const next = e.next_attempt_at ? `; next attempt at ${e.next_attempt_at} on the sandbox clock (pgw sandbox clock advance makes it due now)` : '';
  return `the latest, ${e.id}, is ${e.status} (${e.attempts} attempts, ${last}${next}): pgw events get ${e.id}`;
}

export async function runEventsWait(ctx: Context, opts: EventsWaitOptions): Promise<void> {
  if (opts.type === undefined) throw new UsageError('--type: which event to wait for, e.g. --type PAYMENT_SUCCESSFUL');
  const type = opts.type.toUpperCase();
  if (!isEventType(type)) throw new UsageError(`--type: ${notAnEvent(opts.type)}`);
  if (opts.status !== undefined && !STATUSES.includes(opts.status)) throw new UsageError(`--status: "${opts.status}" is not one of ${STATUSES.join(', ')}`);
  const about = opts.about === undefined ? undefined : idArgument('--about', opts.about);
  // The global --timeout bounds the whole wait here (as `pgw sandbox wait`); 30 s without it.
  const { parseTimeout } = await import('../../config/profiles.js');
  const timeoutMs = ctx.globals.timeout === undefined ? 30_000 : parseTimeout(ctx.globals.timeout, '--timeout');
  const deadline = Date.now() + timeoutMs;
  const query = { event_type: type, about, status: opts.status, limit: 1 };
  for (;;) {
    if (ctx.signal.aborted) throw new InterruptedError('interrupted');
    const [match] = (await sandboxCall<EventSummary[]>(ctx, 'events wait', { method: 'GET', path: '/sandbox/events/', query }))!;
    if (match) {
      const event = (await sandboxCall<EventDetail>(ctx, 'events wait', { method: 'GET', path: `/sandbox/events/${match.id}/` }))!;
      await emit(ctx.io, ctx.output, event, () => ctx.io.out(eventDetail(event, ctx.io.stdoutIsTTY)));
      return;
    }
    if (Date.now() >= deadline) {
      const [latest] = opts.status === undefined ? [] : (await sandboxCall<EventSummary[]>(ctx, 'events wait', { method: 'GET', path: '/sandbox/events/', query: { ...query, status: undefined } }))!;
      throw new NetworkError(`timed out after ${timeoutMs / 1000} s waiting for ${wanted(type, about, opts.status)}`, {
        code: 'TIMEOUT',
        details: { nearest: nearest(latest, type, about) },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
  }
}
