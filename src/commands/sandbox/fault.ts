// pgw sandbox fault add · list · clear (issue 24): failures on demand for the account in use (named
// in what they print: fault-owner.ts), on
// the embedded profile and `sandbox serve` alike (they live in the database; the server applies
// them: src/sandbox/faults.ts). Checked with the sandbox's own schema before anything is sent.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { emit, renderDetail, renderTable } from '../../output/render.js';
import { idArgument, positiveIntOption } from '../parse.js';
import { sandboxCall } from './call.js';

export const FAULTS_PATH = '/sandbox/faults/';

export interface FaultFlags {
  route?: string;
  status?: string;
  delay?: string;
  drop?: boolean;
  afterCommit?: boolean;
  times?: string;
  rate?: string;
  seed?: string;
  dryRun?: boolean;
}

/** What the sandbox answers (src/sandbox/store/faults.ts FaultView). */
export interface FaultView {
  id: string;
  route: string;
  kind: 'status' | 'delay' | 'drop' | 'after_commit';
  status: number | null;
  delay_ms: number | null;
  times_left: number | null;
  rate: number | null;
  seed: number | null;
  seen: number;
  fired: number;
  created_at: string;
  /** The account whose faults these are (store/faults.ts): the one whose credentials authenticate. */
  merchant_id?: string;
}

const FLAG_OF: Record<string, string> = {
  route: '--route',
  status: '--status',
  delay_ms: '--delay',
  drop: '--drop',
  after_commit: '--after-commit',
  times: '--times',
  rate: '--rate',
  seed: '--seed',
};

/** "500ms", "2s", "1m"; a bare number is seconds, as every pgw duration. */
export function delayMs(value: string): number {
  const m = /^([0-9]+)(ms|s|m)?$/.exec(value.trim());
  if (!m) throw new UsageError(`--delay: "${value}" is not a duration (e.g. 500ms, 2s, 1m)`);
  const n = Number.parseInt(m[1]!, 10);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
}

function numberFlag(flag: string, value: string, whole: boolean): number {
  const text = value.trim();
  if (!(whole ? /^[0-9]+$/ : /^[0-9]*\.?[0-9]+$/).test(text)) throw new UsageError(`${flag}: "${value}" is not ${whole ? 'a whole number' : 'a number'}`);
  return Number(text);
}

/** The flags as the body of POST /sandbox/faults/; every problem is exit 2 naming its flag. */
export async function faultBody(flags: FaultFlags): Promise<Record<string, unknown>> {
  if (flags.route === undefined) throw new UsageError("--route is required, e.g. --route 'POST /pg/orders/'");
  const kinds = [flags.status !== undefined && '--status', flags.delay !== undefined && '--delay', flags.drop && '--drop', flags.afterCommit && '--after-commit'].filter(Boolean);
  if (kinds.length !== 1) throw new UsageError(`give exactly one of --status, --delay, --drop, --after-commit${kinds.length > 1 ? ` (got ${kinds.join(', ')})` : ''}`);
  if (flags.seed !== undefined && flags.rate === undefined) throw new UsageError('--seed applies with --rate only');
  const body: Record<string, unknown> = { route: flags.route };
  if (flags.status !== undefined) body.status = numberFlag('--status', flags.status, true);
  if (flags.delay !== undefined) body.delay_ms = delayMs(flags.delay);
  if (flags.drop) body.drop = true;
  if (flags.afterCommit) body.after_commit = true;
  if (flags.times !== undefined) body.times = positiveIntOption('--times', flags.times, 1_000_000);
  if (flags.rate !== undefined) body.rate = numberFlag('--rate', flags.rate, false);
  if (flags.seed !== undefined) body.seed = numberFlag('--seed', flags.seed, true);
  const [{ validate }, { sandboxFaultSchema }] = await Promise.all([import('../../api/schemas/common.js'), import('../../api/schemas/sandbox.js')]);
  const checked = validate(sandboxFaultSchema, body);
  if (!checked.ok) {
    const p = checked.problems[0]!;
    throw new UsageError(`${FLAG_OF[p.path.split('.')[0]!] ?? p.path}: ${p.message}`);
  }
  return { ...body, route: checked.data.route };
}

export function describeFault(f: Pick<FaultView, 'kind' | 'status' | 'delay_ms'>): string {
  switch (f.kind) {
    case 'status':
      return `status ${f.status}`;
    case 'delay':
      return `delay ${f.delay_ms} ms`;
    case 'drop':
      return 'drop the connection';
    default:
      return 'lose the answer after the commit';
  }
}

const left = (f: FaultView) => (f.times_left === null ? 'until cleared' : f.times_left === 0 ? 'spent' : `${f.times_left} more`);
const rate = (f: FaultView) => (f.rate === null ? 'every match' : `${Math.round(f.rate * 1000) / 10}% (seed ${f.seed})`);

export async function runFaultAdd(ctx: Context, flags: FaultFlags): Promise<void> {
  const body = await faultBody(flags);
  const fault = await sandboxCall<FaultView>(ctx, 'sandbox fault add', { method: 'POST', path: FAULTS_PATH, body }, flags.dryRun);
  if (!fault) return;
  const { faultOwner, armedLines } = await import('./fault-owner.js');
  const owner = await faultOwner(ctx);
  await emit(ctx.io, ctx.output, fault, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['id', fault.id],
            ['route', fault.route],
            ['fault', describeFault(fault)],
            ['fires', `${rate(fault)}, ${left(fault)}`],
          ],
        },
      ]),
    );
    // Whose requests meet it, by name (issue 33 item 15): fault-owner.ts says what is known.
    ctx.io.err(`${armedLines(owner, fault.merchant_id, fault.id).join('\n')}\n`);
  });
}

export async function runFaultList(ctx: Context): Promise<void> {
  const faults = (await sandboxCall<FaultView[]>(ctx, 'sandbox fault list', { method: 'GET', path: FAULTS_PATH }))!;
  const { faultOwner, ownerName } = await import('./fault-owner.js');
  const owner = await faultOwner(ctx);
  const name = ownerName(owner, faults[0]?.merchant_id ?? undefined);
  await emit(ctx.io, ctx.output, faults, () => {
    if (faults.length === 0) {
      ctx.io.err(`no faults armed for ${name}\n(add one with: pgw sandbox fault add --route 'POST /pg/orders/' --status 503 --times 2)\n`);
      return;
    }
    ctx.io.err(`faults of ${name}:\n`);
    const rows = faults.map((f) => [f.id, f.route, describeFault(f), rate(f), left(f), `${f.fired}/${f.seen}`]);
    ctx.io.out(renderTable(['id', 'route', 'fault', 'fires', 'left', 'fired/seen'], rows, ctx.io.colorOut));
  });
}

export async function runFaultClear(ctx: Context, opts: { id?: string; dryRun?: boolean }): Promise<void> {
  const path = opts.id === undefined ? FAULTS_PATH : `${FAULTS_PATH}${idArgument('id', opts.id)}/`;
  const removed = await sandboxCall<FaultView | FaultView[]>(ctx, 'sandbox fault clear', { method: 'DELETE', path }, opts.dryRun);
  if (removed === undefined) return;
  const list = Array.isArray(removed) ? removed : [removed];
  const { faultOwner, ownerName } = await import('./fault-owner.js');
  const name = ownerName(await faultOwner(ctx), list[0]?.merchant_id ?? undefined);
  await emit(ctx.io, ctx.output, removed, () =>
    ctx.io.err(list.length === 0 ? `no faults were armed for ${name}: nothing cleared\n` : `cleared ${list.length} fault${list.length === 1 ? '' : 's'} of ${name}\n`),
  );
}
