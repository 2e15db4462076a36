// The sandbox clock and the delivery log under /sandbox/ (issue 19): GET/POST /sandbox/clock/,
// GET /sandbox/events/, GET /sandbox/events/{id}/, POST /sandbox/events/{id}/resend/.
import { sandboxClockSchema, sandboxResendSchema } from '../../api/schemas/sandbox.js';
import { parseIsoTime } from '../../api/schemas/links.js';
import { EVENT_STATUSES, type EventStatus } from '../store/outbox.js';
import { validationError } from '../errors.js';
import type { Scope } from '../store/core.js';
import type { Handler, RequestContext } from './types.js';
import { parseBody } from './util.js';

/**
 * The merchants whose events the request may reach. An X-Merchant-ID the caller may not act for is
 * 404 ERR_MERCHANT_002, as on every other route (snapshots.ts, the pg routes), not an empty scope
 * that reads as "no events" (issue 31 item 10).
 */
function eventScope(ctx: RequestContext): Scope {
  ctx.caller.acting();
  return ctx.caller.scope;
}

/** GET /sandbox/clock/ → the caller's sandbox time (its account tree's clock), the machine's, and the offset between them. */
export const getClock: Handler = (ctx) => ({ message: 'clock fetched successfully', data: ctx.store.clock(ctx.caller.acting()) });

/**
 * POST /sandbox/clock/ {advance_seconds | set | reset}: moves the caller's clock for every
 * process that shares the database, then makes every expiry, automatic refund and webhook attempt
 * that fell due (waiting for those another process is making) before answering with the clock
 * and `caused`: what the move did (store/clock-effects.ts).
 */
export const moveClock: Handler = async (ctx) => {
  const body = parseBody(sandboxClockSchema, ctx.body);
  // I2: the caller's account tree's clock only (a PSP's is its sub-merchants' too); every clock
  // moves only on the file (`pgw sandbox clock --all`), never over HTTP.
  const merchantId = ctx.caller.acting();
  const target = { merchantId };
  // issue 42 item 5: what the move causes is reported for the tree it moves (a PSP's: its sub-merchants').
  const tree = ctx.store.clockTree(merchantId);
  const mark = ctx.store.markClock(tree.scope);
  if (body.advance_seconds !== undefined) ctx.store.advanceClock(target, body.advance_seconds);
  else if (body.set !== undefined) ctx.store.setClock(target, parseIsoTime(body.set)! * 1000);
  else ctx.store.resetClock(target);
  await ctx.store.deliverDue(tree.root);
  return { message: 'clock moved successfully', data: { ...ctx.store.clock(merchantId), caused: ctx.store.clockCaused(mark) } };
};

const MAX_LIMIT = 1000;

/** GET /sandbox/events/?event_type=&status=&about=<id>&limit= → newest first, the caller's merchants only. */
export const listEvents: Handler = (ctx) => {
  const scope = eventScope(ctx);
  const q = ctx.query;
  const status = q.get('status') ?? undefined;
  if (status !== undefined && !EVENT_STATUSES.includes(status as EventStatus)) {
    throw validationError([{ path: 'status', message: `must be one of ${EVENT_STATUSES.join(', ')}` }]);
  }
  const limitText = q.get('limit') ?? '50';
  const limit = /^[0-9]+$/.test(limitText) ? Number.parseInt(limitText, 10) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw validationError([{ path: 'limit', message: `must be a whole number from 1 to ${MAX_LIMIT}` }]);
  const type = q.get('event_type')?.toUpperCase() || undefined;
  const about = q.get('about') || undefined;
  if (about !== undefined && !/^[A-Za-z0-9_-]{1,100}$/.test(about)) throw validationError([{ path: 'about', message: 'must be an ID (letters, digits, _ and -)' }]);
  return { message: 'events fetched successfully', data: ctx.store.listEvents(scope, { type, about, status: status as EventStatus | undefined, limit }) };
};

/** GET /sandbox/events/{id}/ (an event ID or its sequence_number) → the body sent and every attempt. */
export const getEvent: Handler = (ctx) => ({ message: 'event fetched successfully', data: ctx.store.event(eventScope(ctx), ctx.params.event_id!) });

/** POST /sandbox/events/{id}/resend/ {url?} → one new attempt now, answered once it is made. */
export const resendEvent: Handler = async (ctx) => {
  const scope = eventScope(ctx);
  const { url } = parseBody(sandboxResendSchema, ctx.body ?? {});
  const { eventId } = ctx.store.resendEvent(scope, ctx.params.event_id!, url);
  await ctx.store.deliverDue();
  return { message: 'event resent', data: ctx.store.event(scope, eventId) };
};

/**
 * GET /sandbox/encryption-key/ → the Encryption Key that signs the caller's events (vendor 1.2:
 * the sandbox's stand-in for the dashboard's Developer section; `pgw listen --print-key`).
 */
export const getEncryptionKey: Handler = (ctx) => {
  const merchantId = ctx.caller.acting();
  return { message: 'encryption key fetched successfully', data: { merchant_id: merchantId, encryption_key: ctx.store.encryptionKeyFor(merchantId) } };
};
