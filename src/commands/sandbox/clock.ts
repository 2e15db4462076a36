// pgw sandbox clock [show] · advance <duration> · set <time> · reset (issue 19): the sandbox's own
// time, kept in its database (GET/POST /sandbox/clock/). A move answers once every webhook
// attempt, expiry and automatic refund that fell due has happened, and says what it caused
// (issue 42 item 5: a table, and `caused` in JSON), so a script can check the receiver right after.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { MAX_CLOCK_STEP_SECONDS } from '../../api/schemas/sandbox.js';
import { parseIsoTime } from '../../api/schemas/links.js';
import { emit, renderDetail, renderTable } from '../../output/render.js';
import { wholeDatabaseFile } from './database-file.js';
import { boundedDurationOption } from '../parse.js';
import { sandboxCall } from './call.js';
import { isProduction } from '../../rails.js';
import { listenMode } from '../listen/mode.js';
import { causedLine, causedNext, renderCaused, type ClockCaused } from './clock-report.js';

export interface ClockView {
  now: string;
  machine_now: string;
  offset_seconds: number;
  /** The account tree whose clock it is (a merchant or a PSP); null: the database's default. Absent from older sandboxes. */
  account?: string | null;
  /** What a move caused (POST only; absent from older sandboxes). */
  caused?: ClockCaused;
}

export interface ClockOptions {
  action: 'show' | 'advance' | 'set' | 'reset';
  value?: string;
  /** Every account tree's clock and the default: on the file (the embedded profile's, or --db). */
  all?: boolean;
  db?: string;
}

const CLOCK_PATH = '/sandbox/clock/';
/** I5 (docs/sandbox.md, "Invariants"): the sandbox's time stays a real date between 1970 and 9999. */
const CALENDAR_MS = { min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) };
const LAST_DAY = '9999-12-31T23:59:59Z';

function body(opts: ClockOptions): Record<string, unknown> | undefined {
  switch (opts.action) {
    case 'show':
      return undefined;
    case 'advance':
      return { advance_seconds: boundedDurationOption('duration', opts.value ?? '', MAX_CLOCK_STEP_SECONDS) };
    case 'set': {
      const text = (opts.value ?? '').trim();
      const ms = parseIsoTime(text);
      if (ms === undefined) {
        throw new UsageError(`time: "${opts.value}" is not an ISO 8601 date-time with a zone, e.g. 2027-01-31T09:00:00Z`);
      }
      if (ms < CALENDAR_MS.min || ms > CALENDAR_MS.max) throw new UsageError(`time: "${opts.value}" is outside the sandbox's calendar: from 1970-01-01T00:00:00Z to ${LAST_DAY}`);
      return { set: text };
    }
    case 'reset':
      return { reset: true };
  }
}

/** `advance` refuses to land where `set` would (I5): checked against every clock it would move, before anything is sent. */
function checkAdvance(seconds: number, clocks: readonly ClockView[]): void {
  for (const c of clocks) {
    const lands = Date.parse(c.now) + seconds * 1000;
    if (lands > CALENDAR_MS.max) {
      throw new UsageError(`duration: advancing ${c.account ? `the clock of ${c.account}` : 'the sandbox clock'} from ${c.now} by ${seconds} s would pass ${LAST_DAY}, the end of the sandbox's calendar`);
    }
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
  if (opts.db !== undefined && !opts.all) {
    throw new UsageError('--db works on a database file directly, every account tree in it: add --all (without it, the clock of the account in use moves, over HTTP)');
  }
  const payload = body(opts);
  if (opts.all) return runAllClocks(ctx, opts, payload);
  if (opts.action === 'advance') {
    const current = (await sandboxCall<ClockView>(ctx, 'sandbox clock advance', { method: 'GET', path: CLOCK_PATH }))!;
    checkAdvance(payload!.advance_seconds as number, [current]);
  }
  const view = (await sandboxCall<ClockView>(ctx, `sandbox clock ${opts.action}`, payload === undefined ? { method: 'GET', path: CLOCK_PATH } : { method: 'POST', path: CLOCK_PATH, body: payload }))!;
  await emit(ctx.io, ctx.output, view, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['sandbox time', view.now],
            ['machine time', view.machine_now],
            ['offset', offsetText(view.offset_seconds)],
            ...(view.account ? [['clock of', `${view.account} (the account in use's tree: its own clock)`] as [string, string]] : []),
          ],
        },
      ]),
    );
    reportCaused(ctx, view.caused);
  });
}

/** Under a move: what it caused, and where to look next. */
function reportCaused(ctx: Context, caused: ClockCaused | undefined): void {
  if (caused === undefined) return;
  ctx.io.out(`\n${renderCaused(caused)}`);
  for (const next of causedNext(caused)) ctx.io.err(`next: ${next}\n`);
}

/**
 * `--all`: every account tree's clock and the database's default, moved together on the file
 * itself, as `reset --all` empties it: the whole database belongs to the machine that holds it,
 * never to a caller over HTTP. Attempts that fell due are made before it returns, as over HTTP.
 */
async function runAllClocks(ctx: Context, opts: ClockOptions, payload: Record<string, unknown> | undefined): Promise<void> {
  const file = await wholeDatabaseFile(
    ctx,
    opts.db,
    'sandbox clock --all',
    "--all moves every account's clock, which only the machine that holds the database may do: run it there with --db <file>, or use the embedded profile (over HTTP, the clock of the account in use moves)",
  );
  const [{ openSandbox }, { SandboxError }] = await Promise.all([import('../../sandbox/open.js'), import('../../sandbox/errors.js')]);
  const sandbox = openSandbox({ dbPath: file, port: 0, host: '127.0.0.1', pollWebhooks: false }, () => '');
  const { store } = sandbox;
  let views: ClockView[] = [];
  let caused: ClockCaused | undefined;
  try {
    const mark = payload === undefined ? undefined : store.markClock(null);
    if (payload?.advance_seconds !== undefined) {
      checkAdvance(payload.advance_seconds as number, store.allClocks());
      store.advanceClock({ all: true }, payload.advance_seconds as number);
    } else if (payload?.set !== undefined) store.setClock({ all: true }, parseIsoTime(payload.set as string)! * 1000);
    else if (payload?.reset) store.resetClock({ all: true });
    if (mark !== undefined) {
      await store.deliverDue(null);
      caused = store.clockCaused(mark);
    }
    // Read after the move and the deliveries.
    views = store.allClocks();
  } catch (err) {
    if (err instanceof SandboxError) throw new UsageError(`${err.message}: ${Object.values(err.details ?? {}).join('; ')}`, { code: String(err.code) });
    throw err;
  } finally {
    await sandbox.close();
  }
  // A move says what it caused: {clocks, caused}; show keeps the list of clocks.
  await emit(ctx.io, ctx.output, caused === undefined ? views : { clocks: views, caused }, () => {
    ctx.io.out(
      renderTable(
        ['clock of', 'sandbox time', 'offset'],
        views.map((v) => [v.account ?? 'default (every tree without its own)', v.now, offsetText(v.offset_seconds)]),
        ctx.io.colorOut,
      ),
    );
    if (opts.action !== 'show') ctx.io.err(`every clock in ${file} moved; what fell due has happened\n`);
    reportCaused(ctx, caused);
  });
}

/**
 * "Now" for a relative time a command turns into an absolute one (`link create --expires-in`), and
 * for the dates a template or a question offers (`--print-template`'s invoice date and number,
 * the card's expiry year, the link's expiry; issue 41):
 * on pgw's own sandbox its clock (which `pgw sandbox clock` may have moved), elsewhere the
 * machine's. Never fails: a sandbox without the clock answers with the machine's time.
 */
export async function sandboxNow(ctx: Context): Promise<Date> {
  // A template needs no profile (`--print-template --profile nope` works): none, the machine's time.
  const profile = await ctx.profile().catch(() => undefined);
  if (!profile || isProduction(profile) || listenMode(profile).kind !== 'sandbox') return ctx.clock();
  try {
    const api = await ctx.api();
    const view = await api.request<ClockView>({ method: 'GET', path: CLOCK_PATH });
    const ms = Date.parse(view.now);
    return Number.isNaN(ms) ? ctx.clock() : new Date(ms);
  } catch {
    return ctx.clock();
  }
}
