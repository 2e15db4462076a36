// The commander tree: global options and one group per noun. Nothing here loads a verb's
// dependencies: each action imports its verb file when it runs (see startup cost, architecture.md).
import { Command, Option } from 'commander';
import type { Context } from './context.js';
import { registerApi } from './commands/api/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerEvents } from './commands/events/index.js';
import { registerLink } from './commands/link/index.js';
import { registerVba } from './commands/vba/index.js';
import { registerListen } from './commands/listen/index.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerMerchant } from './commands/merchant/index.js';
import { registerOrder } from './commands/order/index.js';
import { registerPan } from './commands/pan/index.js';
import { registerLrs } from './commands/lrs/index.js';
import { registerPayment } from './commands/payment/index.js';
import { registerProfile } from './commands/profile/index.js';
import { registerRefund } from './commands/refund/index.js';
import { registerSandbox } from './commands/sandbox/index.js';
import { registerSettle } from './commands/settle/index.js';
import { registerSub } from './commands/sub/index.js';
import { registerTrigger } from './commands/trigger/index.js';
import { registerWebhook } from './commands/webhook/index.js';
import { loadColor } from './output/theme.js';
import { setOutputWidth, setWideTables } from './output/width.js';
import { configureHelpTree, helpWriter } from './help.js';
import { GLOBAL_VALUE_FLAGS } from './global-flags.js';
import { UsageError } from './errors.js';

/** The commands that take `-o csv` (contract: list and recon commands); kept here so --help loads no renderer. */
export const CSV_COMMANDS: readonly string[] = ['payment list', 'payment get', 'payment verification', 'refund list', 'link list', 'settle list', 'settle recon', 'settle report', 'merchant list', 'merchant get', 'vba list', 'vba get', 'vba payments'];

// One line per paragraph: help.ts folds each at the terminal's width (issue 22 item 10). The
// precedence of flags, environment and profile heads the options (help.ts ROOT_OPTIONS).
const PRECEDENCE_HELP = `
Environment: PGW_PROFILE, PGW_OUTPUT, PGW_BASE_URL, PGW_API_VERSION, PGW_TIMEOUT, PGW_MERCHANT_ID, PGW_CLIENT_ID, PGW_CLIENT_SECRET (never a flag), PGW_ENCRYPTION_KEY, PGW_DEBUG=1, PGW_NO_INPUT=1, PGW_CONFIG_DIR, NO_COLOR.
Exit codes: 0 ok, 1 gateway error, 2 bad usage or input, 3 network or timeout, 4 authentication, 5 not found, 6 refused by a safety rail, 130 interrupted.`;

/** Every noun, in the order `pgw --help` lists them. */
const NOUNS: Record<string, (program: Command, ctx: Context) => void> = {
  order: registerOrder,
  payment: registerPayment,
  refund: registerRefund,
  link: registerLink,
  vba: registerVba,
  settle: registerSettle,
  sub: registerSub,
  merchant: registerMerchant,
  pan: registerPan,
  lrs: registerLrs,
  api: registerApi,
  profile: registerProfile,
  sandbox: registerSandbox,
  listen: registerListen,
  trigger: registerTrigger,
  events: registerEvents,
  webhook: registerWebhook,
  mcp: registerMcp,
  completion: registerCompletion,
};


/**
 * The noun a command line runs (`payment` in `pgw -p live payment get PR1`): its first operand,
 * when that names a noun; undefined for anything else (help, completion, a typo: all groups).
 */
export function nounOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (arg.startsWith('-') && arg !== '-') {
      if (GLOBAL_VALUE_FLAGS.has(arg)) i++; // `--profile live`; `--profile=live` and `-plive` carry their own
      continue;
    }
    // `pgw completion bash` prints a script naming every command: it needs the whole tree.
    return Object.hasOwn(NOUNS, arg) && arg !== 'completion' ? arg : undefined;
  }
  return undefined;
}

/** The whole tree, or with `argv` only the groups that command line can reach. */
export function buildProgram(ctx: Context, argv?: readonly string[]): Command {
  const program = new Command('pgw')
    .description("Command line for the payment gateway's merchant and partner API")
    .version(ctx.version, '-V, --version', 'print the version')
    .option('-p, --profile <name>', 'profile (env PGW_PROFILE; default: current, else local)')
    .addOption(new Option('-o, --output <format>', 'table on a terminal, else json; or csv (env PGW_OUTPUT)').choices(['table', 'json', 'csv']))
    .option('--csv-raw', "with -o csv: cells as given, no ' before a formula")
    .option('--wide', 'tables: every column at full width, not fitted')
    .option('--json', 'same as --output json')
    .option('--query <expr>', 'JMESPath on the JSON result; implies json')
    .option('--base-url <url>', "the gateway's address (env PGW_BASE_URL)")
    .option('--api-version <v>', 'X-API-Version (env PGW_API_VERSION; default 3.0.0)')
    .option('-m, --merchant <id>', 'act for a sub-merchant (env PGW_MERCHANT_ID)')
    .option('--timeout <ms>', 'per-request limit: ms, 30s, 2m (env PGW_TIMEOUT; 30s)')
    .option('-v, --verbose', 'log requests to stderr, secrets redacted (PGW_DEBUG=1)')
    .option('--no-color', 'no colour (env NO_COLOR)')
    .option('--no-input', 'never prompt (env PGW_NO_INPUT=1)')
    .option('-y, --yes', 'answer yes to confirmations')
    // gh's --jq, taken only to be refused with the right hint (commands/gh-habits.ts).
    .addOption(new Option('--jq <expr>').hideHelp())
    .addHelpText('after', PRECEDENCE_HELP)
    .configureHelp({ sortSubcommands: false })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // Every help line fits the terminal, the verbs' own example blocks included (help.ts). The
      // parser's own messages go through the context: held in JSON mode, never echoing a value.
      writeOut: helpWriter((text) => ctx.io.out(text), () => (ctx.io.stdoutIsTTY ? ctx.io.stdout.columns : undefined) ?? 80),
      writeErr: helpWriter((text) => ctx.parserStderr(text), () => (ctx.io.stderrIsTTY ? ctx.io.stderr.columns : undefined) ?? 80),
      outputError: (text) => ctx.parserMessage(text),
      // Asked of io, not of process.stdout: help to a pipe then never creates the stream, and
      // colour follows pgw's one decision (--no-color, NO_COLOR).
      // (80 is commander's own width when the stream is not a terminal.)
      getOutHelpWidth: () => (ctx.io.stdoutIsTTY ? ctx.io.stdout.columns : undefined) ?? 80,
      getErrHelpWidth: () => (ctx.io.stderrIsTTY ? ctx.io.stderr.columns : undefined) ?? 80,
      getOutHasColors: () => ctx.io.colorOut,
      getErrHasColors: () => ctx.io.colorErr,
    });

  // Global flags are read from the root only: a verb's own option of the same name never shadows them.
  program.hook('preAction', async (_root, action) => {
    if (program.opts().jq !== undefined) {
      ctx.setGlobals(program.opts());
      throw (await import('./commands/gh-habits.js')).jqError();
    }
    ctx.setGlobals(program.opts());
    refuseCsvWhereNone(ctx, action); // exit 2, nothing sent
    setOutputWidth(ctx.io.columns);
    setWideTables(ctx.globals.wide === true);
    if (ctx.globals.query !== undefined) await (await import('./output/emit.js')).checkQuery(ctx.globals.query); // exit 2, nothing sent
    if (ctx.io.colorOut || ctx.io.colorErr) await loadColor();
  });

  // A run of one noun's verb needs only that noun's group (issue 23: building every group is a
  // tenth of `pgw payment get`'s start-up); help, completion and anything unrecognised get all.
  const noun = argv && nounOf(argv);
  // `pgw --help` lists the nouns by name and one line each (help.ts, ROOT_LINES): their verbs are
  // never shown, so each noun is an empty command there.
  const rootHelp = argv !== undefined && (argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')));
  for (const [name, register] of Object.entries(NOUNS)) {
    if (rootHelp) program.command(name);
    else if (!noun || name === noun) register(program, ctx);
  }
  configureHelpTree(program, () => (ctx.io.stdoutIsTTY ? ctx.io.stdout.columns : undefined) ?? 80);
  return program;
}

/** `-o csv` exists for the list and recon commands only (contract): anywhere else it is a usage error. */
function refuseCsvWhereNone(ctx: Context, action: Command): void {
  let format: string;
  try {
    format = ctx.output.format;
  } catch {
    return; // an invalid -o is reported by the command itself
  }
  if (format !== 'csv') return;
  const names: string[] = [];
  for (let c: Command | null = action; c?.parent; c = c.parent) names.unshift(c.name());
  const path = names.join(' ');
  if (!CSV_COMMANDS.includes(path)) {
    throw new UsageError(`-o csv is for list and recon commands (${CSV_COMMANDS.join(', ')}); use -o json or -o table for ${path}`);
  }
}
