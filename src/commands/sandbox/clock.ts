// pgw sandbox clock [show] · advance <duration> · set <time> · reset (issue 19): the sandbox's own
// time, kept in its database (GET/POST /sandbox/clock/). Advancing answers once every webhook
// attempt that fell due has been made, so a script can check the receiver right after.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { MAX_CLOCK_STEP_SECONDS } from '../../api/schemas/sandbox.js';
import { parseIsoTime } from '../../api/schemas/links.js';
import { emit, renderDetail } from '../../output/render.js';
import { boundedDurationOption } from '../parse.js';
import { sandboxCall } from './call.js';
import { isProduction } from '../../rails.js';
import { listenMode } from '../listen/mode.js';

export interface ClockView {
  now: string;
  machine_now: string;
  offset_seconds: number;
}

export interface ClockOptions {
  action: 'show' | 'advance' | 'set' | 'reset';
  value?: string;
}

const CLOCK_PATH = '/sandbox/clock/';

function body(opts: ClockOptions): Record<string, unknown> | undefined {
  switch (opts.action) {
    case 'show':
      return undefined;
    case 'advance':
      return { advance_seconds: boundedDurationOption('duration', opts.value ?? '', MAX_CLOCK_STEP_SECONDS) };
    case 'set': {
      const text = (opts.value ?? '').trim();
      if (parseIsoTime(text) === undefined) {
        throw new UsageError(`time: "${opts.value}" is not an ISO 8601 date-time with a zone, e.g. 2027-01-31T09:00:00Z`);
      }
      return { set: text };
    }
    case 'reset':
      return { reset: true };
  }
}

/** "+1d 02:00:00", "-00:05:00", "none" */
export function offsetText(seconds: number): string {
  if (seconds === 0) return 'none (machine time)';
  const sign = seconds < 0 ? '-' : '+';
  let rest = Math.round(Math.abs(seconds));
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hms = [Math.floor(rest / 3600), Math.floor((rest % 3600) / 60), rest % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return `${sign}${days > 0 ? `${days}d ` : ''}${hms} (sandbox ${seconds < 0 ? 'behind' : 'ahead of'} the machine)`;
}

export async function runClock(ctx: Context, opts: ClockOptions): Promise<void> {
  const payload = body(opts);
  const view = (await sandboxCall<ClockView>(ctx, `sandbox clock ${opts.action}`, payload === undefined ? { method: 'GET', path: CLOCK_PATH } : { method: 'POST', path: CLOCK_PATH, body: payload }))!;
  await emit(ctx.io, ctx.output, view, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['sandbox time', view.now],
            ['machine time', view.machine_now],
            ['offset', offsetText(view.offset_seconds)],
          ],
        },
      ]),
    );
    if (opts.action === 'advance' || opts.action === 'set') ctx.io.err('webhook attempts that fell due have been made (pgw events list)\n');
  });
}

/**
 * "Now" for a relative time a command turns into an absolute one (`link create --expires-in`):
 * on pgw's own sandbox its clock (which `pgw sandbox clock` may have moved), elsewhere the
 * machine's. Never fails: a sandbox without the clock answers with the machine's time.
 */
export async function sandboxNow(ctx: Context): Promise<Date> {
  const profile = await ctx.profile();
  if (isProduction(profile) || listenMode(profile).kind !== 'sandbox') return ctx.clock();
  try {
    const api = await ctx.api();
    const view = await api.request<ClockView>({ method: 'GET', path: CLOCK_PATH });
    const ms = Date.parse(view.now);
    return Number.isNaN(ms) ? ctx.clock() : new Date(ms);
  } catch {
    return ctx.clock();
  }
}
