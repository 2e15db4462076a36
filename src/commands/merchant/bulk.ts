// Bulk onboarding: `merchant create --file merchants.jsonl` (or a JSON array). Every merchant is
// checked first (any invalid one stops the run before anything is sent, unless --skip-invalid);
// then they are created one at a time, each outcome appended to --results as it happens, so an
// interrupted run loses nothing and `--resume <results>` finishes it without duplicates.
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/types.js';
import type { MerchantCreate } from '../../api/schemas/merchants.js';
import type { Problem } from '../../api/schemas/common.js';
import { AuthError, ExitCode, GatewayError, InterruptedError, NetworkError, PgwError, UsageError, ValidationError, exitCodeFor, type ExitCodeValue } from '../../errors.js';
import { confirmProduction, isProduction } from '../../rails.js';
import { startProgress } from '../../output/progress.js';
import type { MerchantInput } from './input.js';
import type { MerchantCreateOptions } from './create.js';
import { checkCreate } from './validate.js';
import { MERCHANTS_PATH, partnerRequest } from './partner.js';
import { checkNewResults, contentHash, describeAccount, openResults, readResults, resultsAccount, sameAccount, type ResultError, type ResultLine, type ResultsWriter } from './results.js';
import { planResume, type ResumePlan } from './resume.js';
import { DUPLICATE_HINT, matchExisting, repeatsInInput } from './duplicates.js';
import type { BatchResult, CreatedMerchant } from './view.js';
import { printBatchDryRun, report, type Outcome } from './bulk-report.js';

type Batch = Extract<MerchantInput, { kind: 'batch' }>;

interface Prepared {
  n: number;
  hash: string;
  brand_name?: string;
  body?: MerchantCreate;
  problems?: Problem[];
}

class BatchValidationError extends ValidationError {
  override readonly suggestion: string;
  constructor(problems: Problem[], heading: string, duplicates: boolean) {
    super(problems, heading);
    this.suggestion = `nothing was sent: fix them and run again, or add --skip-invalid to send the valid ones${duplicates ? `; ${DUPLICATE_HINT}` : ''}`;
  }
}

/**
 * Marks the rows about to be sent that repeat an earlier row or an existing sub-merchant
 * (duplicates.ts) as refused, before anything is sent. When the existing sub-merchants cannot be
 * read and rows are refused already, those are reported with a line saying what was not checked
 * (returned); with nothing else refused, the failure to read them stops the run.
 */
async function refuseDuplicates(ctx: Context, input: Batch, prepared: Prepared[], pending: Prepared[]): Promise<string | undefined> {
  const refuse = (p: Prepared, message: string) => {
    p.problems = [...(p.problems ?? []), { path: '', message }];
    delete p.body;
  };
  const sendable = pending.filter((p) => p.body);
  const values = new Map(input.entries.map((e) => [e.n, e.value]));
  const repeats = repeatsInInput(prepared.map((p) => ({ n: p.n, hash: p.hash, value: values.get(p.n) })), new Set(sendable.map((p) => p.n)), input.unit);
  for (const p of sendable) if (repeats.has(p.n)) refuse(p, repeats.get(p.n)!);
  const rest = sendable.filter((p) => p.body);
  if (rest.length === 0) return undefined;
  let existing: Map<number, string>;
  try {
    existing = await matchExisting(ctx, await ctx.api(), rest.map((p) => ({ n: p.n, hash: p.hash, value: p.body })));
  } catch (err) {
    if (!pending.some((p) => p.problems)) throw err;
    return `not checked against existing sub-merchants: ${err instanceof Error ? err.message : String(err)}`;
  }
  for (const p of rest) if (existing.has(p.n)) refuse(p, existing.get(p.n)!);
  return undefined;
}

function prepare(entry: Batch['entries'][number]): Prepared {
  const brand = (entry.value as { company_details?: { brand_name?: unknown } } | undefined)?.company_details?.brand_name;
  const base = { n: entry.n, hash: contentHash(entry.value ?? null), ...(typeof brand === 'string' ? { brand_name: brand } : {}) };
  if (entry.parseError !== undefined) return { ...base, problems: [{ path: '', message: entry.parseError }] };
  const checked = checkCreate(entry.value);
  return checked.ok ? { ...base, body: checked.data } : { ...base, problems: checked.problems };
}

/** Connection never made: the gateway cannot have created anything. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function mayHaveArrived(err: unknown): boolean {
  if (err instanceof InterruptedError) return true;
  return err instanceof NetworkError && !NEVER_SENT.has(err.code ?? '');
}

/** Failures every following merchant would meet too: stop rather than repeat them N times. */
function stopsBatch(err: unknown): boolean {
  if (err instanceof AuthError || err instanceof NetworkError || err instanceof InterruptedError) return true;
  if (err instanceof GatewayError) return err.status === 429 || (err.status ?? 0) >= 500;
  return !(err instanceof PgwError);
}

function errorRecord(err: unknown): ResultError {
  if (err instanceof PgwError) return { code: err.code ?? null, message: err.message, details: err.details ?? null, status: err.status ?? null };
  return { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err), details: null, status: null };
}

export async function runBatch(ctx: Context, input: Batch, opts: MerchantCreateOptions): Promise<void> {
  const { unit } = input;
  const prepared = input.entries.map(prepare);
  const prior = opts.resume === undefined ? undefined : readResults(opts.resume);
  const profile = await ctx.profile();
  const account = await resultsAccount(ctx);
  if (prior?.account && !sameAccount(prior.account, account)) {
    throw new UsageError(`--resume: ${opts.resume} was written for ${describeAccount(prior.account)}, not ${describeAccount(account)}`, {
      code: 'RESUME_OTHER_ACCOUNT',
      suggestion: 'run it with the profile (-p), --base-url and -m that wrote the file; nothing was sent',
    });
  }
  const plan = prior === undefined ? undefined : planResume(prepared, prior, opts.resume!, unit);
  const pending = prepared.filter((p) => !plan?.done.has(p.n) && !plan?.uncertain.has(p.n));
  // A results file already there (or a link there) is refused before anything is sent: before the
  // duplicate check reads the account, and before a production run asks its question.
  if (!opts.dryRun && opts.results !== undefined && opts.results !== opts.resume) checkNewResults(opts.results);
  let unchecked: string | undefined;
  if (!opts.allowDuplicates) unchecked = await refuseDuplicates(ctx, input, prepared, pending);
  const invalid = pending.filter((p) => p.problems);
  const toSend = pending.filter((p) => p.body);
  if (invalid.length > 0 && (!opts.skipInvalid || toSend.length === 0)) {
    // One line per refused row, every reason in it (issue 33 item 1).
    const problems = invalid.map((p) => ({ path: `${unit} ${p.n}`, message: p.problems!.map((q) => (q.path ? `${q.path}: ${q.message}` : q.message)).join('; ') }));
    if (unchecked) problems.push({ path: '', message: unchecked });
    const duplicates = invalid.some((p) => p.problems!.some((q) => q.message.startsWith('duplicate:')));
    const heading = `${invalid.length} of ${prepared.length} ${unit}s in ${input.name} are ${duplicates ? 'refused' : 'invalid'}, nothing was sent`;
    // With --skip-invalid already given, the only thing left is to fix them: say that, not "add --skip-invalid".
    if (opts.skipInvalid) throw new ValidationError(problems, `${heading} (no valid ${unit} is left to send)`);
    throw new BatchValidationError(problems, heading, duplicates);
  }
  for (const w of plan?.warnings ?? []) ctx.log(`warning: ${w}`);
  const api = await ctx.api();
  if (opts.dryRun) return printBatchDryRun(ctx, api, toSend, unit);
  if (toSend.length > 0) await confirmProduction(ctx, profile, `merchant create (${toSend.length} sub-merchants)`);
  const resultsPath = opts.results ?? opts.resume;
  const writer = resultsPath === undefined ? undefined : openResults(resultsPath, resultsPath === opts.resume, ctx.guard, account);
  let results: Outcome;
  try {
    results = await createAll(ctx, api, prepared, plan, writer, opts.resume ?? '', toSend.length);
  } finally {
    writer?.close();
  }
  await report(ctx, input, results, unit, writer?.path, accountFlags(ctx, profile.name), isProduction(profile));
}

/** The flags that chose this run's account, for the resume hint: run as printed, it acts on the same one. */
function accountFlags(ctx: Context, profile: string): string[] {
  const quote = (v: string) => (/^[A-Za-z0-9_.:/@%+=-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  const flags = ['-p', quote(profile)];
  if (ctx.globals.baseUrl !== undefined) flags.push('--base-url', quote(ctx.globals.baseUrl));
  if (ctx.globals.merchant !== undefined) flags.push('-m', quote(ctx.globals.merchant));
  return flags;
}

async function createAll(
  ctx: Context,
  api: ApiClient,
  prepared: Prepared[],
  plan: ResumePlan | undefined,
  writer: ResultsWriter | undefined,
  resumePath: string,
  sending: number,
): Promise<Outcome> {
  const list: BatchResult[] = [];
  let firstFailure: ExitCodeValue | undefined;
  let stop: unknown;
  const fail = (code: ExitCodeValue) => (firstFailure ??= code);
  const progress = startProgress(ctx.io, sending, 'creating sub-merchants');
  for (const p of prepared) {
    const line = { line: p.n, ...(p.brand_name !== undefined ? { brand_name: p.brand_name } : {}) };
    const done = plan?.done.get(p.n);
    const held = plan?.uncertain.get(p.n);
    if (done) {
      list.push({ ...line, status: 'already_created', id: done.id });
    } else if (held) {
      fail(ExitCode.refused);
      const why = held.error?.message ?? (held.attempt ? 'the run stopped while its request was in flight; no answer was recorded' : 'interrupted');
      const message = `an earlier attempt may have created it (${why}): check pgw merchant list, then remove its records (line ${held.line}) from ${resumePath} to send it again`;
      list.push({ ...line, status: 'uncertain', error: { code: 'UNCERTAIN', message, details: null, status: null } });
    } else if (p.problems) {
      fail(ExitCode.usage);
      const error = errorRecord(new ValidationError(p.problems));
      writer?.append({ ...line, hash: p.hash, error });
      list.push({ ...line, status: 'invalid', error });
    } else if (stop !== undefined || ctx.signal.aborted) {
      stop ??= new InterruptedError('interrupted');
      list.push({ ...line, status: 'not_attempted' });
    } else {
      const record: ResultLine = { ...line, hash: p.hash };
      // On disk before the request leaves: a kill now leaves an attempt without an outcome, which
      // a resume holds back as uncertain instead of creating the merchant a second time.
      writer?.append({ ...record, attempt: true });
      try {
        const created = await partnerRequest<CreatedMerchant>(api, { method: 'POST', path: MERCHANTS_PATH, body: p.body });
        record.id = created.id;
        list.push({ ...line, status: 'created', id: created.id });
      } catch (err) {
        fail(exitCodeFor(err));
        record.error = errorRecord(err);
        if (mayHaveArrived(err)) record.uncertain = true;
        if (stopsBatch(err)) stop = err;
        list.push({ ...line, status: 'failed', error: record.error, ...(record.uncertain ? { uncertain: true as const } : {}) });
      }
      writer?.append(record);
      progress.tick();
    }
  }
  progress.done();
  return { list, firstFailure, stop };
}
