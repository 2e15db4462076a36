// pgw sandbox reset: empties the data of the account in use (a PSP's includes its sub-merchants),
// over HTTP, so on a shared team sandbox one CI job never wipes another's (issue 21 item 6).
// `--all` empties the whole database, which only the machine that holds the file may do: on the
// embedded profile, or with --db <file>. Destructive, so it names what goes and asks first (or
// needs --yes).
import type { Context } from '../../context.js';
import { RefusedError, UsageError, type PgwError } from '../../errors.js';
import { requireSandbox } from '../../rails.js';
import { plainText } from '../../safety/terminal-text.js';
import { sandboxCall } from './call.js';
import { wholeDatabaseFile } from './database-file.js';
import { offsetText } from './clock.js';
import { formatTime } from '../../output/time.js';

export interface ResetOptions {
  all?: boolean;
  db?: string;
  dryRun?: boolean;
  /** Reset the sandbox clock too (a reset keeps it otherwise, and says so). */
  clock?: boolean;
}

/** GET/POST /sandbox/clock/ (commands/sandbox/clock.ts); also the JSON's `clock`. */
interface ClockView {
  now: string;
  offset_seconds: number;
}

const CLOCK_PATH = '/sandbox/clock/';

/**
 * The line that says what became of the clock: a reset empties data and keeps time (a test that
 * moved the clock a week would otherwise find its next run a week on, unsaid), so it says which.
 */
function clockLine(view: ClockView | undefined, reset: boolean, local: boolean): string {
  if (!view) return '';
  const when = formatTime(view.now, local) ?? view.now;
  if (reset) return `; its clock was reset to the machine's time (${when})`;
  const ahead = view.offset_seconds === 0 ? "the machine's time" : offsetText(view.offset_seconds);
  return `; its clock is kept: ${when}, ${ahead} (pgw sandbox reset --clock resets it too)`;
}

/** What the sandbox answers to GET /sandbox/reset/ (src/sandbox/store/data-scope.ts). */
export interface ResetPreview {
  merchants: { merchant_id: string; brand_name: string; psp: boolean; sub_merchant: boolean; deleted: boolean }[];
  counts: Record<string, number>;
}

/** Table names as a person says them; a table a later migration adds is shown by its name. */
const KINDS: Record<string, [string, string]> = {
  orders: ['order', 'orders'],
  payments: ['payment', 'payments'],
  refunds: ['refund', 'refunds'],
  chargebacks: ['chargeback', 'chargebacks'],
  links: ['payment link', 'payment links'],
  settlements: ['settlement', 'settlements'],
  subscriptions: ['subscription', 'subscriptions'],
  webhooks: ['webhook address', 'webhook addresses'],
  faults: ['fault', 'faults'],
  events: ['event', 'events'],
  deliveries: ['webhook delivery', 'webhook deliveries'],
  attempts: ['delivery attempt', 'delivery attempts'],
  vbas: ['virtual bank account', 'virtual bank accounts'],
  vba_credits: ['virtual account credit', 'virtual account credits'],
  order_documents: ['order document', 'order documents'],
  pan_verifications: ['PAN check', 'PAN checks'],
};

/** "12 orders, 9 payments, ..." in the order of KINDS, wrapped to fit 80 columns. */
function countsLines(counts: Record<string, number>): string[] {
  const known = Object.keys(KINDS);
  const rank = (t: string) => (known.includes(t) ? known.indexOf(t) : known.length);
  const parts = Object.entries(counts)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([table, n]) => {
      const [one, many] = KINDS[table] ?? [table.replace(/_/g, ' '), table.replace(/_/g, ' ')];
      return `${n} ${n === 1 ? one : many}`;
    });
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    const next = line === '' ? part : `${line}, ${part}`;
    if (next.length > 74 && line !== '') {
      lines.push(`  ${line},`);
      line = part;
    } else line = next;
  }
  if (line !== '') lines.push(`  ${line}`);
  return lines;
}

/** Every line of what a reset deletes, for the prompt (stderr) and the refusal. */
export function describeReset(preview: ResetPreview, whole: string | undefined): string[] {
  const lines: string[] = [];
  const name = (m: ResetPreview['merchants'][number]) => `${plainText(m.brand_name)} (${m.merchant_id}${m.psp ? ', PSP' : ''})`;
  if (whole) {
    lines.push(`This empties the whole sandbox database ${whole}, every account's data:`);
  } else {
    const own = preview.merchants.filter((m) => !m.sub_merchant);
    const owner = own.length > 0 ? own.map(name).join(', ') : preview.merchants.slice(0, 1).map(name).join('');
    lines.push(`This deletes the data of ${owner}${preview.merchants.some((m) => m.sub_merchant) ? ' and its sub-merchants' : ''}:`);
  }
  const subs = preview.merchants.filter((m) => m.sub_merchant);
  const shown = subs.slice(0, 10);
  for (const m of shown) lines.push(`  sub-merchant ${name(m)}: ${m.deleted ? 'deleted (created through the API)' : 'its data (a seeded account, kept)'}`);
  if (subs.length > shown.length) {
    const more = subs.slice(shown.length);
    lines.push(`  and ${more.length} more sub-merchants (${more.filter((m) => m.deleted).length} of them deleted)`);
  }
  lines.push(...countsLines(preview.counts));
  lines.push('Seeded accounts and their credentials stay; so do the webhook registrations of', 'running pgw listens.');
  return lines;
}

async function confirm(ctx: Context, lines: string[], refusal: string): Promise<void> {
  if (ctx.yes) return;
  if (!ctx.io.canPrompt) throw new RefusedError(refusal);
  ctx.io.err(`${lines.join('\n')}\n`);
  const prompter = await ctx.loadPrompter();
  const ok = await prompter.confirm({ message: 'Delete it all?', default: false });
  if (!ok) throw new RefusedError('sandbox reset cancelled');
}

export async function runReset(ctx: Context, opts: ResetOptions): Promise<void> {
  if (opts.db !== undefined && !opts.all) {
    throw new UsageError('--db empties a database file directly, every account in it: add --all (without it, reset empties the account in use, over HTTP)');
  }
  if (opts.all) return resetAll(ctx, opts);

  const profile = await ctx.profile();
  requireSandbox(profile, 'sandbox reset');
  if (!opts.dryRun && !ctx.yes) {
    if (!ctx.io.canPrompt) throw new RefusedError('sandbox reset deletes the data of the account in use (a PSP\'s includes its sub-merchants\' and the sub-merchants it created): confirm with --yes');
    // A pgw sandbox older than the preview answers 405: it is asked with what reset deletes there.
    const preview = await sandboxCall<ResetPreview>(ctx, 'sandbox reset', { method: 'GET', path: '/sandbox/reset/' }).catch((err: unknown) => {
      if ((err as PgwError).status === 405) return undefined;
      throw err;
    });
    const lines = preview ? describeReset(preview, undefined) : ["This deletes the data of the account in use on that sandbox (an older pgw there: perhaps every account's)."];
    await confirm(ctx, lines, '');
  }
  const result = await sandboxCall<{ reset: boolean; merchant_ids?: string[] }>(ctx, 'sandbox reset', { method: 'POST', path: '/sandbox/reset/' }, opts.dryRun);
  // The clock of the account in use: reset with --clock, else read to say it is kept. A pgw
  // sandbox older than the clock (404) is left unsaid.
  const clockReq = opts.clock ? { method: 'POST' as const, path: CLOCK_PATH, body: { reset: true } } : { method: 'GET' as const, path: CLOCK_PATH };
  if (opts.dryRun && opts.clock) await sandboxCall(ctx, 'sandbox reset --clock', clockReq, true);
  if (result === undefined) return;
  const clock = await sandboxCall<ClockView>(ctx, 'sandbox reset', clockReq).catch((err: unknown) => {
    if (!opts.clock && (err as PgwError).status === 404) return undefined;
    throw err;
  });
  if (ctx.output.format === 'json') ctx.io.out(`${JSON.stringify({ ...result, clock: clock ?? null, clock_reset: opts.clock === true }, null, 2)}\n`);
  else {
    const n = (result.merchant_ids?.length ?? 1) - 1;
    ctx.io.err(`sandbox emptied for the account in use${n > 0 ? ` and its ${n} sub-merchant${n === 1 ? '' : 's'}` : ''} (accounts and credentials kept)${clockLine(clock, opts.clock === true, ctx.io.stderrIsTTY)}\n`);
  }
}

async function resetAll(ctx: Context, opts: ResetOptions): Promise<void> {
  const path = await wholeDatabaseFile(
    ctx,
    opts.db,
    'sandbox reset --all',
    '--all empties the whole database, which only the machine that holds it may do: run it there with --db <file>, or use the embedded profile (over HTTP, reset empties the account in use)',
  );
  const output = ctx.output;
  const { openStore } = await import('../../sandbox/store.js');
  const store = openStore(path);
  try {
    const preview = store.resetPreview(undefined);
    if (opts.dryRun) {
      // Nothing is sent anywhere: the dry run is what would go.
      const what = { database: path, would_delete: preview.counts, sub_merchants_deleted: preview.merchants.filter((m) => m.deleted).map((m) => m.merchant_id) };
      if (output.format === 'json') ctx.io.out(`${JSON.stringify({ ...what, clock_reset: opts.clock === true }, null, 2)}\n`);
      else ctx.io.err(`${describeReset(preview, path).join('\n')}\n${opts.clock ? 'and every clock reset to the machine\'s time\n' : ''}(dry run: nothing deleted)\n`);
      return;
    }
    await confirm(ctx, describeReset(preview, path), `sandbox reset --all empties every account's data in ${path}: confirm with --yes`);
    store.reset(undefined);
    // --all --clock: every clock of the file, as `sandbox clock reset --all` does.
    if (opts.clock) store.resetClock({ all: true });
    const clock = store.allClocks();
    const result = { reset: true, all: true, database: path, deleted: preview.counts, clocks: clock, clock_reset: opts.clock === true };
    if (output.format === 'json') ctx.io.out(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const clocks = opts.clock ? "every clock was reset to the machine's time" : 'every clock is kept (pgw sandbox reset --all --clock resets them too)';
      ctx.io.err(`sandbox database ${path} emptied (accounts and credentials kept); ${clocks}\n`);
    }
  } finally {
    store.close();
  }
}
