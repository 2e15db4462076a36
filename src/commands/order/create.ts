// pgw order create: POST /pg/orders/ (spec 4.1). The body is --file plus flags (flags win) plus
// card details from --card-file or masked prompts; it is validated with the shared schema of the
// API version in force before anything is sent, missing fields asked for in a terminal.
import { access, lstat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname } from 'node:path';
import type { Context } from '../../context.js';
import { OutcomeUnknownError, UsageError } from '../../errors.js';
import { LINK_REFUSED } from '../../files/private-file.js';
import { confirmProduction, isOwnSandbox, isPgwServer, isProduction } from '../../rails.js';
import type { ResolvedProfile } from '../../config/types.js';
import { printDryRun } from '../../output/dry-run.js';
import { printJson } from '../../output/render.js';
import { buildOrderBody, type ApiMajor } from './body.js';
import { readCardFile } from './card.js';
import { cardValuesOf } from '../../safety/card-values.js';
import { flagOf, fullProblems, isMissing, majorOf, refusal, schemaFor } from './check.js';
import { FIELDS, type TestDefaults } from './ask.js';
import { getPath, setPath } from './body.js';
import { ORDER_FIELD_FLAGS } from './flags.js';
import { openInBrowser, type Opener } from './open.js';
import { readJsonObject, type JsonObject } from './read-json.js';
import { unknownKeyProblems } from './keys.js';
import { showCreated, type CreatedOrder } from './result.js';
import { orderTemplate } from './template.js';
import { generateReferenceId } from '../link/body.js';

export interface OrderCreateOptions {
  /** Body path → flag value, for the field flags given. */
  fields: Record<string, string>;
  file?: string;
  cardFile?: string;
  printTemplate: boolean;
  acsOut?: string;
  open: boolean;
  dryRun: boolean;
}

export interface OrderCreateDeps {
  opener: Opener;
}

/** commander's flags → typed options; no I/O. */
export function buildOrderCreateOptions(flags: Record<string, unknown>): OrderCreateOptions {
  const fields: Record<string, string> = {};
  for (const f of ORDER_FIELD_FLAGS) {
    const value = flags[f.key];
    if (typeof value === 'string') fields[f.path] = value;
  }
  const text = (key: string) => (typeof flags[key] === 'string' ? (flags[key] as string) : undefined);
  const opts: OrderCreateOptions = {
    fields,
    file: text('file'),
    cardFile: text('cardFile'),
    printTemplate: flags.printTemplate === true,
    acsOut: text('acsOut'),
    open: flags.open === true,
    dryRun: flags.dryRun === true,
  };
  if (opts.file === '-' && opts.cardFile === '-') throw new UsageError('--file - and --card-file - cannot both read stdin: put one of them in a file');
  return opts;
}

/** The version for --print-template: flag or environment, else the profile's, else 3.0.0; never an error. */
async function templateVersion(ctx: Context): Promise<string> {
  const given = ctx.globals.apiVersion ?? ctx.env.PGW_API_VERSION;
  if (given) return given;
  try {
    return (await ctx.profile()).apiVersion;
  } catch {
    return '3.0.0';
  }
}

async function printTemplate(ctx: Context, opts: OrderCreateOptions): Promise<void> {
  const major = majorOf(await templateVersion(ctx));
  const choice = { mode: opts.fields.collection_mode, mop: opts.fields.mop_type, upiFlow: opts.fields.upi_flow_type };
  // Dated by the account's sandbox clock on pgw's own sandbox (a clock moved to March gives a March invoice).
  const { sandboxNow } = await import('../sandbox/clock.js');
  const body = buildOrderBody(orderTemplate(choice, major, await sandboxNow(ctx)), opts.fields, major);
  // A template is a JSON body to edit: JSON whatever the output format (--query still applies).
  await printJson(ctx.io, { format: 'json', query: ctx.output.query }, body, { own: true });
}

/**
 * --acs-out must be writable before the order exists: afterwards the page could only be lost. The
 * page is put in place by a rename in its directory (src/files/private-file.ts), so that is what
 * must be writable; a link there is refused, never written through (issue 31 item 8).
 */
async function checkAcsOut(path: string): Promise<void> {
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isSymbolicLink()) throw new UsageError(`--acs-out: cannot write ${path}: ${LINK_REFUSED}`);
  if (existing?.isDirectory()) throw new UsageError(`--acs-out: ${path} is a directory`);
  try {
    await access(dirname(path), constants.W_OK);
  } catch {
    throw new UsageError(`--acs-out: cannot write ${path}`);
  }
}

function isCardOrder(body: JsonObject): boolean {
  const mop = typeof body.mop_type === 'string' ? body.mop_type.toLowerCase() : '';
  return body.collection_mode === 's2s' && (mop === 'credit_card' || mop === 'debit_card');
}

export async function runOrderCreate(ctx: Context, opts: OrderCreateOptions, deps: OrderCreateDeps = { opener: openInBrowser }): Promise<void> {
  const output = ctx.output; // a bad -o fails here, before anything else
  if (opts.printTemplate) return printTemplate(ctx, opts);

  const file = opts.file === undefined ? undefined : await readJsonObject('--file', opts.file, ctx.io.stdin);
  const card = opts.cardFile === undefined ? undefined : await readCardFile(opts.cardFile, ctx.io.stdin);
  const profile = await ctx.profile();
  const major: ApiMajor = majorOf(profile.apiVersion);
  const schema = schemaFor(major, ctx.clock);
  const body = buildOrderBody(file, opts.fields, major);
  if (card) body.card_details = card;

  // stdin that carried a body or card is spent: nobody can answer a prompt on it.
  const canPrompt = ctx.io.canPrompt && opts.file !== '-' && opts.cardFile !== '-';
  // From flags alone (no --file, no terminal to ask), the two values a terminal would offer are
  // filled the same way: currency INR (the prompt's default) and a generated reference_id (as link
  // create does), each said on stderr (issue 22 item 7). A --file is a whole body: kept as written.
  const filled = canPrompt || file !== undefined ? [] : fillDefaults(body);
  // Keys the file has that create order does not come first: the file needs fixing whatever else.
  const problems = [...(file === undefined ? [] : unknownKeyProblems(file, schema)), ...fullProblems(schema, body, false)];
  if (problems.length > 0) {
    if (!canPrompt) throw refusal(problems, false, opts.fields, file !== undefined);
    // A wrong value from a flag is said once, by its flag, and asked for with the rest; a wrong
    // value in --file (or one pgw cannot ask for) is refused: the file needs fixing.
    const wrong = problems.filter((p) => !isMissing(p));
    const askable = (path: string) => flagOf(path, opts.fields) !== undefined && FIELDS.some((f) => f.path === path);
    const stuck = wrong.filter((p) => !askable(p.path));
    // The file needs fixing: say everything it lacks too, in one refusal (issue 21 item 12).
    if (stuck.length > 0) throw refusal(problems, true, opts.fields, file !== undefined);
    for (const p of wrong) {
      ctx.io.err(`${flagOf(p.path, opts.fields)}: ${p.message}: asked for below\n`);
      setPath(body, p.path, undefined);
    }
    const { askMissing } = await import('./ask.js');
    // How the buyer pays is asked first when nothing said it (collection_mode or mop_type, by flag
    // or file): the questions depend on what is missing, never on which other flags were given.
    const askMode = getPath(body, 'collection_mode') === undefined && getPath(body, 'mop_type') === undefined;
    const test = await testDefaults(ctx, profile);
    await askMissing(ctx, schema, body, major, { sandbox: isOwnSandbox(profile), askMode, test });
    const left = fullProblems(schema, body, false);
    if (left.length > 0) throw refusal(left, true, opts.fields);
    if (!opts.dryRun) {
      const { reviewOrder } = await import('./review.js');
      await reviewOrder(ctx, schema, body, major, { sandbox: isOwnSandbox(profile), test });
    }
  }
  if (opts.acsOut !== undefined && !isCardOrder(body)) {
    throw new UsageError('--acs-out applies to S2S card orders (--mode s2s --mop credit_card|debit_card)');
  }
  if (opts.open && body.collection_mode === 's2s' && !isCardOrder(body)) {
    throw new UsageError('--open applies to hosted orders (the checkout page) and S2S card orders (the 3-D Secure page)');
  }
  if (opts.acsOut !== undefined) await checkAcsOut(opts.acsOut);

  for (const line of filled) ctx.io.err(`${line}\n`);
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: '/pg/orders/', body };
  if (opts.dryRun) return printDryRun(ctx.io, output, api.preview(req));
  await confirmProduction(ctx, profile, `create an order of ${String(body.amount)} ${String(body.currency)}`);

  const data = await api.request<CreatedOrder>(req).catch((err: unknown) => {
    throw unknownOutcome(err, body);
  });
  // The embedded sandbox's pages open in a serve of its database: where one runs, else where
  // `pgw sandbox serve` would listen (issue 33 item 11); a base URL's sandbox serves them itself.
  const pages = profile.baseUrl === undefined ? await (await import('../pages-hint.js')).embeddedPages(ctx) : undefined;
  await showCreated(ctx, data, {
    // pgw's own server serves checkout pages at its base; a public gateway's checkout is not in the API.
    pagesBase: pages ? pages.baseUrl : isPgwServer(api.baseUrl) ? api.baseUrl : undefined,
    embeddedPages: pages,
    acsOut: opts.acsOut,
    open: opts.open,
    opener: deps.opener,
    secrets: cardValuesOf(body),
    sandbox: isOwnSandbox(profile),
  });
}

/**
 * No answer came to the create (a reset connection, a timeout): the order may exist. pgw never
 * sends the POST again (a retry could create it twice); it says so, exit 3, and how to find out.
 */
function unknownOutcome(err: unknown, body: JsonObject): unknown {
  if (!(err instanceof OutcomeUnknownError)) return err;
  const ref = typeof body.reference_id === 'string' ? body.reference_id : undefined;
  // The message stays the transport's (scripts match it); the code and the hint say the rest.
  return new OutcomeUnknownError(err.message, err.request, {
    code: 'OUTCOME_UNKNOWN',
    suggestion: `the outcome is unknown: the order may have been created, and pgw did not send it again; ${
      ref
        ? `look it up by its reference before creating it again: pgw payment list --reference-id ${ref} (then pgw order get <order_id>); a create with the same reference is refused while that order is open`
        : 'look the order up by its reference before creating it again'
    }`,
  });
}

/** Fill currency and reference_id when neither flag nor file gave them; the lines that say so. */
function fillDefaults(body: JsonObject): string[] {
  const lines: string[] = [];
  if (getPath(body, 'currency') === undefined) {
    setPath(body, 'currency', 'INR');
    lines.push('currency INR (the default)');
  }
  if (getPath(body, 'reference_id') === undefined) {
    setPath(body, 'reference_id', generateReferenceId());
    lines.push(`reference_id ${String(getPath(body, 'reference_id'))} (generated)`);
  }
  return lines;
}

/**
 * The defaults the questions offer (issue 33 item 12): on a sandbox profile the demo buyer and
 * test data, and on pgw's own sandbox its return page (GET /return/ where its pages are served);
 * on production none of them (ask.ts TestDefaults says why).
 */
async function testDefaults(ctx: Context, profile: ResolvedProfile): Promise<TestDefaults> {
  if (isProduction(profile)) return { demo: false, now: ctx.clock() };
  // The generated invoice number and the card's expiry year follow the sandbox's clock.
  const now = await (await import('../sandbox/clock.js')).sandboxNow(ctx);
  let pages: string | undefined;
  if (profile.baseUrl === undefined) pages = (await (await import('../pages-hint.js')).embeddedPages(ctx)).baseUrl;
  else if (isOwnSandbox(profile)) pages = profile.baseUrl;
  return { demo: true, now, returnPage: pages === undefined ? undefined : `${pages.replace(/\/+$/, '')}/return/` };
}
