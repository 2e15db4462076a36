// run(argv) → exit code. Parses, dispatches, and maps every thrown error to the contract's exit
// codes. Never touches the process: bin/pgw.js sets process.exitCode from the result.
import { Context, type ContextDeps } from './context.js';
import { plainText } from './safety/terminal-text.js';
import { ExitCode, PgwError, ReportedError, errorLines, exitCodeFor } from './errors.js';
import { jsonFieldList } from './commands/gh-habits.js';
import { takeHiddenColumnsNote } from './output/hidden-columns.js';
import { fastMcp, withMcpFlagsAfterNoun } from './mcp/fast-start.js';

export const VERSION = __PGW_VERSION__;

/**
 * `pgw`, `pgw --help` and `pgw -h` with stdout a pipe or a file: the root's help is 80 columns
 * without colour there, always the same text, so the build renders it once through commander and
 * help.ts (scripts/root-help.mjs) and puts it here; the command tree is not loaded for it (issue
 * 23). On a terminal (its own width, maybe colour) commander renders it as before. The sources
 * run by the tests hold the placeholder, which means "render it".
 */
const ROOT_HELP: string = __PGW_ROOT_HELP__;
const ROOT_HELP_RENDERED = !ROOT_HELP.startsWith('@@PGW');

function rootHelpAsked(argv: string[]): boolean {
  return argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h'));
}

/** `pgw --version` alone: what commander would print, without loading commander and the tree. */
const VERSION_ONLY = new Set(['--version', '-V']);
/** `pgw --version -v` (any order, optionally --json): also the Node line and the SQLite engine. */
const VERBOSE = new Set(['-v', '--verbose']);

function detailedVersion(argv: string[]): { json: boolean } | undefined {
  if (!argv.some((a) => VERSION_ONLY.has(a)) || !argv.some((a) => VERBOSE.has(a))) return undefined;
  if (!argv.every((a) => VERSION_ONLY.has(a) || VERBOSE.has(a) || a === '--json')) return undefined;
  return { json: argv.includes('--json') };
}

export async function run(argv: string[], deps: ContextDeps = {}): Promise<number> {
  const ctx = new Context({ version: VERSION, ...deps });
  ctx.decideJsonErrors = () => parserErrorsAsJson(ctx, argv);
  ctx.jsonFieldList = jsonFieldList(argv);
  if (argv.length === 1 && VERSION_ONLY.has(argv[0]!)) {
    ctx.io.out(`${ctx.version}\n`);
    return ExitCode.ok;
  }
  if (ROOT_HELP_RENDERED && rootHelpAsked(argv) && !ctx.io.stdoutIsTTY) {
    ctx.io.out(ROOT_HELP);
    return ExitCode.ok;
  }
  const detailed = detailedVersion(argv);
  if (detailed) {
    const { printVersion } = await import('./version.js');
    return printVersion(ctx.version, ctx.env, detailed.json, (text) => ctx.io.out(text));
  }
  takeHiddenColumnsNote(); // a table drawn outside a run (a test) says nothing about this one
  argv = withMcpFlagsAfterNoun(argv);
  const mcp = fastMcp(argv);
  try {
    if (mcp !== undefined) {
      ctx.setGlobals({ profile: mcp.profile });
      const { runMcp } = await import('./mcp/command.js');
      await runMcp(ctx, mcp.options);
      return ExitCode.ok;
    }
    // The command tree (commander and every noun's flags) is the bulk of the start-up chunk.
    const { buildProgram } = await import('./program.js');
    const program = buildProgram(ctx, argv);
    await program.parseAsync(argv, { from: 'user' });
    noteHiddenColumns(ctx);
    return ExitCode.ok;
  } catch (err) {
    noteHiddenColumns(ctx);
    return report(ctx, err);
  } finally {
    await ctx.close();
  }
}

/** After the data: the columns a table hid to fit the terminal, and how to see them (render.ts). */
function noteHiddenColumns(ctx: Context): void {
  const note = takeHiddenColumnsNote();
  if (note !== undefined) ctx.io.err(`${note}\n`);
}

/** commander's own errors (CommanderError and its subclasses) carry a `commander.*` code. */
function isCommanderError(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('commander.');
}

function commanderExit(ctx: Context, err: Error & { code: string; exitCode?: number }): number {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.ok;
  // A verb-less group (`pgw`, `pgw payment`) printed its help on stdout (help.ts): exit 0.
  if (err.code === 'commander.help' && err.exitCode === 0) return ExitCode.ok;
  if (ctx.jsonErrors) {
    // A group run without its verb prints its help instead of a message: its usage line says what is missing.
    const usage = /Usage: (.+)/.exec(ctx.parserHelp ?? '')?.[1]?.trim();
    const text = ctx.parserError ?? (usage ? `a command is required: ${usage} (see --help)` : err.message);
    const message = plainText(text.trim().replace(/^error: /, ''));
    ctx.io.err(`${JSON.stringify({ error: { code: 'USAGE', message, details: { parser: err.code }, status: null } })}\n`);
  }
  // Everything else commander refuses (unknown command or option, missing argument) is usage:
  // its message and suggestion are already on stderr.
  return ExitCode.usage;
}

/**
 * Errors are the JSON object when JSON was asked for (--json, -o json, --query, PGW_OUTPUT=json),
 * or when it is the default because stdout is not a terminal and neither is stderr: a person
 * watching stderr while only stdout is piped gets one readable line (contract, "Output rules").
 */
function jsonMode(ctx: Context): boolean {
  const g = ctx.globals;
  const asked = g.query !== undefined || g.json ? 'json' : (g.output ?? ctx.env.PGW_OUTPUT);
  return errorsAsJson(ctx, asked === '' ? undefined : asked);
}

/** The formats -o knows; any other (`-o yaml`) is refused, and its refusal follows the default. */
const FORMATS = new Set(['table', 'json', 'csv']);

function errorsAsJson(ctx: Context, asked: string | undefined): boolean {
  try {
    if (asked !== undefined && FORMATS.has(asked)) return asked === 'json';
    return !ctx.io.stdoutIsTTY && !ctx.io.stderrIsTTY;
  } catch {
    return false;
  }
}

/** The same decision before commander has parsed anything (its own errors come before the globals). */
function parserErrorsAsJson(ctx: Context, argv: string[]): boolean {
  let json = false;
  let output: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '--json' || arg === '--query' || arg.startsWith('--query=')) json = true;
    else if (arg === '-o' || arg === '--output') output = argv[++i];
    else if (arg.startsWith('--output=')) output = arg.slice('--output='.length);
    else if (/^-o[a-z]/.test(arg)) output = arg.slice(2);
  }
  const asked = json ? 'json' : (output ?? ctx.env.PGW_OUTPUT);
  return errorsAsJson(ctx, asked === '' ? undefined : asked);
}

/** One clear line on stderr (plus per-field lines for validation); a stack only with PGW_DEBUG=1. */
function report(ctx: Context, err: unknown): number {
  if (isCommanderError(err)) return commanderExit(ctx, err);
  if (isPromptInterrupt(err)) return ExitCode.interrupted;
  const code = exitCodeFor(err);
  if (err instanceof ReportedError) return code;
  const debug = ctx.env.PGW_DEBUG === '1';
  if (err instanceof PgwError) {
    if (jsonMode(ctx)) {
      const error = { code: err.code ?? null, message: err.message, details: err.details ?? null, status: err.status ?? null };
      ctx.io.err(`${JSON.stringify({ error: ctx.io.clean(error) })}\n`);
    } else {
      // A gateway's message or an ID from input: no control character reaches the person's screen.
      // One write, so a terminal folds the error with its detail lines as one message (io.ts).
      ctx.io.err(`${errorLines(err).map(plainText).join('\n')}\n`);
    }
  } else {
    const message = err instanceof Error ? err.message : String(err);
    if (jsonMode(ctx)) ctx.io.err(`${JSON.stringify({ error: ctx.io.clean({ code: 'INTERNAL', message, details: null, status: null }) })}\n`);
    else ctx.io.err(`error: unexpected failure: ${plainText(message)}\n`);
  }
  if (debug && err instanceof Error && err.stack) ctx.io.err(`${err.stack}\n`);
  return code;
}

/** @inquirer throws ExitPromptError on Ctrl-C; it is an interruption, not a failure. */
function isPromptInterrupt(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}
