// Shared by the look-up verbs (payment get, link get, settle get): IDs from arguments, `-` (stdin,
// one per line) or --from-file; fetched N at a time over the one keep-alive pool; results in the
// order given; the rows that worked are printed and the exit code is that of the first failure.
import type { Context } from '../context.js';
import { GatewayError, NotFoundError, PgwError, ReportedError, UsageError, exitCodeFor } from '../errors.js';
import { idArgument, positiveIntOption } from './parse.js';
import { fieldListError } from './gh-habits.js';
import { KINDS, expectedKind, idsFromText, kindSentence, notAnIdError, otherKind, splitPasted, type IdKind } from './ids.js';
import { readPath, readStdin } from './source.js';
import { printJson } from '../output/emit.js';
import type { CsvOptions } from '../output/csv.js';
import { startProgress } from '../output/progress.js';

export interface LookupOptions {
  ids: string[];
  fromFile?: string;
  concurrency?: string;
}

export const DEFAULT_CONCURRENCY = 8;


/**
 * Every ID asked for, in order, taken as people paste them (ids.ts): `PR1,PR2`, `'PR1 PR2'`,
 * lowercase prefixes, quotes and full stops around them; `-` and --from-file also take a JSON
 * array. Each is checked before any request: a pasted typo, or an ID whose prefix says it is
 * another kind of resource (the command that looks it up is named), is refused with nothing sent.
 */
export async function collectIds(ctx: Context, opts: LookupOptions, name: string, use: 'look-up' | 'send' = 'look-up'): Promise<string[]> {
  const ids: string[] = [];
  for (const arg of opts.ids) {
    if (arg === ctx.jsonFieldList) throw fieldListError(arg);
    if (arg === '-') {
      // A terminal on stdin waits for typing: say what it waits for.
      if (ctx.io.stdinIsTTY) ctx.io.err('reading IDs from the terminal, one per line; end with Ctrl-D\n');
      ids.push(...idsFromText(await readStdin(ctx.io.stdin), 'stdin'));
      continue;
    }
    const pieces = splitPasted(arg);
    // An argument with no ID in it at all ("", ".") is a mistake worth naming, not skipping.
    if (arg.trim() === '') throw new UsageError(`${name} is empty: give an ID (an empty argument is what a --query on a missing field leaves)`, { code: 'EMPTY_ID' });
    if (pieces.length === 0) throw new UsageError(`${name}: "${arg}" is not a valid identifier`);
    ids.push(...pieces);
  }
  if (opts.fromFile !== undefined) {
    ids.push(...idsFromText(await readPath('--from-file', opts.fromFile), '--from-file'));
  }
  if (ids.length === 0) throw new UsageError(`no ${name} given: pass one or more, - to read them from stdin, or --from-file <path>`);
  const checked = ids.map((id) => idArgument(name, id, { kind: false }));
  refuseOtherKinds(checked, name);
  // A reference or invoice number where an ID is looked up: refused with the search that finds
  // it. IDs a command sends on (settle mark's UIDs) go as given: the gateway names the ones it
  // cannot resolve (spec 7, mark-settled details 1).
  const notIds = use === 'look-up' ? notAnIdError(checked, expectedKind(name)) : undefined;
  if (notIds) throw notIds;
  return checked;
}

/** IDs whose prefix names another kind: one line saying what each is and which command reads it. */
function refuseOtherKinds(ids: string[], name: string): void {
  const expected = expectedKind(name);
  const wrong = ids.map((id) => ({ id, kind: otherKind(id, expected) })).filter((w): w is { id: string; kind: IdKind } => w.kind !== undefined);
  if (wrong.length === 0) return;
  const byKind = new Map<IdKind, string[]>();
  for (const w of wrong) byKind.set(w.kind, [...(byKind.get(w.kind) ?? []), w.id]);
  const sentences = [...byKind].map(([kind, list]) => kindSentence(list.join(' '), kind, list.length));
  // One line, each kind with the command that reads it; the code lets a script tell it apart.
  throw new UsageError(sentences.join('; '), { code: 'ID_KIND' });
}

/**
 * Payment and payment-link IDs share the PR prefix (spec 2.8): when a look-up answers not found,
 * `probe` asks whether the ID is the other kind, and the error then names the command that reads
 * it (`PR… is a payment link, not a payment: pgw link get PR…`). Only for IDs that start with PR;
 * any other answer of the probe leaves the original error as it was.
 */
export function sharedPrefixFetch<T>(fetch: (id: string) => Promise<T>, own: IdKind, other: IdKind, probe: (id: string) => Promise<unknown>) {
  return async (id: string): Promise<T> => {
    try {
      return await fetch(id);
    } catch (err) {
      // Only a gateway's own not-found answer (with its code): a bare 404 (a proxy's page, a wrong
      // base URL) says nothing about the ID, and asking again would only repeat it.
      if (!(err instanceof NotFoundError) || err.code === undefined || !id.startsWith('PR')) throw err;
      try {
        await probe(id);
      } catch {
        throw err;
      }
      const sentence = kindSentence(id, other).replace(/: /, `, not ${KINDS[own].label}: `);
      throw new NotFoundError(sentence, { code: 'ID_KIND', status: err.status });
    }
  };
}

export type Outcome<T> = { id: string; ok: true; value: T } | { id: string; ok: false; error: unknown };

/** Run `fetch` over ids with at most `limit` in flight; outcomes in the order of ids. */
export async function fetchAll<T>(
  ids: string[],
  limit: number,
  fetch: (id: string) => Promise<T>,
  onDone?: () => void,
): Promise<Outcome<T>[]> {
  const outcomes: Outcome<T>[] = new Array(ids.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const index = next++;
      const id = ids[index]!;
      try {
        outcomes[index] = { id, ok: true, value: await fetch(id) };
      } catch (error) {
        outcomes[index] = { id, ok: false, error };
      }
      onDone?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, ids.length) }, worker));
  return outcomes;
}

/**
 * The readable output: the renderers themselves, or `view`, which loads them (a verb's view.ts)
 * only when the output is a table, so JSON never loads the table code (issue 23).
 */
export type LookupRender<T> = LookupViews<T> | { view: () => Promise<LookupViews<T>> };

export interface LookupViews<T> {
  /** One resource: the readable summary (may look up what the summary needs beyond the resource). */
  detail(value: T): string | Promise<string>;
  /** Several: the table of one row each. */
  table(values: T[]): string;
  /** -o csv, for the verbs in CSV_COMMANDS (program.ts): one row each, one ID or several. */
  csv?(values: T[], options: CsvOptions): string;
}

/**
 * The whole look-up verb: one ID prints the detail view (or the object in JSON), several print a
 * table (or an array in the order given). Failures are reported per ID on stderr.
 */
export async function runLookup<T>(
  ctx: Context,
  opts: LookupOptions,
  name: string,
  fetch: (id: string) => Promise<T>,
  render: LookupRender<T>,
): Promise<void> {
  const fetchResource = async (id: string): Promise<T> => resourceOrThrow(id, await fetch(id));
  const views = (): Promise<LookupViews<T>> => ('view' in render ? render.view() : Promise.resolve(render));
  const limit = opts.concurrency === undefined ? DEFAULT_CONCURRENCY : positiveIntOption('--concurrency', opts.concurrency, 64);
  const output = ctx.output;
  const ids = await collectIds(ctx, opts, name);
  const single = ids.length === 1 && opts.fromFile === undefined && !opts.ids.includes('-');
  const csv = output.format === 'csv';
  if (single && !csv) {
    const value = await fetchResource(ids[0]!);
    if (output.format === 'json') await printJson(ctx.io, output, value);
    else ctx.io.out(await (await views()).detail(value));
    return;
  }
  const progress = startProgress(ctx.io, ids.length, `fetching ${ids.length} ${name}s`);
  const outcomes = await fetchAll(ids, limit, fetchResource, () => progress.tick());
  progress.done();
  const values = outcomes.filter((o): o is Extract<Outcome<T>, { ok: true }> => o.ok).map((o) => o.value);
  if (output.format === 'json') await printJson(ctx.io, output, values);
  else if (csv) {
    const toCsv = (await views()).csv;
    if (!toCsv) throw new UsageError('-o csv is for list and recon commands; use -o json or -o table');
    ctx.io.out(toCsv(values, { raw: output.csvRaw === true }));
  } else if (values.length > 0) ctx.io.out((await views()).table(values));
  const failures = outcomes.filter((o): o is Extract<Outcome<T>, { ok: false }> => !o.ok);
  for (const failure of failures) reportFailure(ctx, failure.id, failure.error, output.format === 'json');
  if (failures.length > 0) {
    throw new ReportedError(exitCodeFor(failures[0]!.error), `${failures.length} of ${ids.length} failed`);
  }
}

/** A look-up answers one resource: an object. Anything else is the gateway misbehaving (exit 1). */
function resourceOrThrow<T>(id: string, value: T): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError(`unexpected response for ${id}: the envelope's data is not an object`, { code: 'UNEXPECTED_RESPONSE' });
  }
  return value;
}

function reportFailure(ctx: Context, id: string, error: unknown, json: boolean): void {
  const err = error instanceof PgwError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    const body = { id, code: err?.code ?? null, message, details: err?.details ?? null, status: err?.status ?? null };
    ctx.io.err(`${JSON.stringify({ error: body })}\n`);
  } else {
    ctx.io.err(`error: ${id}: ${message}\n`);
  }
}
