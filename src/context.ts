// One context per run: IO, prompter, profiles and the API client, each built lazily on first use,
// so `pgw --version` loads nothing heavy. Tests build their own with injected streams and transport.
import type { Dispatcher } from 'undici';
import type { ApiClient } from './api/types.js';
import type { Env, GlobalOptions, ResolvedProfile } from './config/types.js';
import type { OutputOptions } from './output/options.js';
import type { ProfileStore } from './config/profiles.js';
import type { Prompter } from './prompts.js';
import type { EmbeddedSandbox } from './sandbox/embedded.js';
import { fieldListError } from './commands/gh-habits.js';
import { createIO, type DataSink, type IO, type InStream, type OutStream } from './output/io.js';
import { fdOutput, isPlainFd, type TextSink } from './output/fd-output.js';
import { configDirFrom } from './config/paths.js';
import { UsageError } from './errors.js';
import { OutputGuard } from './output/guard.js';

// Kept here for the verbs that import them from the context; they live on the floors below
// (config/types.ts, output/options.ts) so that config and output never import the context.
export type { Env, GlobalOptions } from './config/types.js';
export type { OutputOptions } from './output/options.js';

export interface ContextDeps {
  stdin?: InStream;
  stdout?: DataSink;
  stderr?: OutStream;
  env?: Env;
  /** Transport for every request; tests pass a MockAgent. Default: one keep-alive undici Agent. */
  dispatcher?: Dispatcher;
  prompter?: Prompter;
  clock?: () => Date;
  version?: string;
  /** Aborted on SIGINT/SIGTERM (bin/ wires it): long-running verbs such as `sandbox serve` stop on it. */
  signal?: AbortSignal;
  /** Replace the in-process sandbox start (tests). */
  startEmbedded?: (dbPath: string, warn?: (line: string) => void) => Promise<EmbeddedSandbox>;
  /** Where -v's request log goes when not this run's stderr (a `pgw mcp` tool call: the server's). */
  requestLog?: (line: string) => void;
}

export class Context {
  readonly env: Env;
  readonly clock: () => Date;
  readonly version: string;
  readonly signal: AbortSignal;
  /** Secrets and card data kept out of everything printed or written in this run. */
  readonly guard = new OutputGuard();
  globals: GlobalOptions = {};
  /**
   * Errors go to stderr as the JSON error object: decided from argv before parsing (main.ts), and
   * only when a parser error or its help needs it (asking the streams costs start-up time).
   */
  decideJsonErrors: () => boolean = () => false;
  private jsonErrorsCache?: boolean;
  get jsonErrors(): boolean {
    this.jsonErrorsCache ??= this.decideJsonErrors();
    return this.jsonErrorsCache;
  }
  /** The option parser's message, held back when errors are JSON (main.ts prints the object). */
  parserError?: string;
  /** Help the parser printed for a usage error (a group without its verb), held back likewise. */
  parserHelp?: string;
  /** The word after `--json` when it reads as gh's field list (`--json status`; gh-habits.ts). */
  jsonFieldList?: string;
  private ioCache?: IO;
  /** fd 1 as a file or pipe, found once (the IO is rebuilt after the global flags are parsed). */
  private plainStdout?: TextSink | null;
  private prompterCache?: Prompter;
  private profilesCache?: Promise<ProfileStore>;
  private writableProfilesCache?: Promise<ProfileStore>;
  private profileCache?: Promise<ResolvedProfile>;
  private apiCache?: Promise<ApiClient>;
  private dispatcherCache?: Promise<Dispatcher>;
  private embedded?: Promise<EmbeddedSandbox>;
  private readonly cleanups: (() => Promise<void> | void)[] = [];

  constructor(private readonly deps: ContextDeps = {}) {
    this.env = deps.env ?? process.env;
    this.clock = deps.clock ?? (() => new Date());
    this.version = deps.version ?? '0.0.0';
    this.signal = deps.signal ?? new AbortController().signal;
    this.guard.addSecret(this.env.PGW_CLIENT_SECRET);
    this.guard.addSecret(this.env.PGW_ENCRYPTION_KEY);
  }

  /**
   * A context for one more run inside this one (a `pgw mcp` tool call): the same transport, clock,
   * environment and global flags, its own streams, profile resolution and clean-up.
   */
  fork(deps: Pick<ContextDeps, 'stdin' | 'stdout' | 'stderr' | 'env'>, globals: GlobalOptions = this.globals): Context {
    const child = new Context({ ...this.deps, requestLog: (line) => this.log(line), ...deps });
    child.setGlobals({ ...globals });
    return child;
  }

  /** Called once commander has parsed the global flags, before any action runs. */
  setGlobals(globals: GlobalOptions): void {
    this.globals = globals;
    this.ioCache = undefined;
  }

  get io(): IO {
    // The process's streams are created on first use; a file or pipe on fd 1 is written without
    // process.stdout at all (fd-output.ts), and one on fd 2 is known not to be a terminal.
    this.ioCache ??= createIO({
      stdin: this.deps.stdin ?? (() => process.stdin),
      stdout: this.deps.stdout ?? (this.plainStdout ??= fdOutput(1) ?? null) ?? (() => process.stdout),
      stderr: this.deps.stderr ?? (() => process.stderr),
      stderrIsTTY: this.deps.stderr ? undefined : isPlainFd(2) ? false : undefined,
      env: this.env,
      noColor: this.globals.color === false,
      noInput: this.globals.input === false,
      guard: this.guard,
    });
    return this.ioCache;
  }

  get configDir(): string {
    return configDirFrom(this.env);
  }

  get verbose(): boolean {
    return this.globals.verbose === true || this.env.PGW_DEBUG === '1';
  }

  /** Where -v's request log goes (undefined without -v): this run's stderr, or a pgw mcp server's. */
  get requestLog(): ((line: string) => void) | undefined {
    return this.verbose ? (this.deps.requestLog ?? ((line) => this.log(line))) : undefined;
  }

  get yes(): boolean {
    return this.globals.yes === true;
  }

  /** Output format: --query implies json; then --json / -o, PGW_OUTPUT, then table on a terminal. */
  get output(): OutputOptions {
    const query = this.globals.query;
    let format = this.globals.json ? 'json' : (this.globals.output ?? this.env.PGW_OUTPUT);
    if (query !== undefined) format = 'json';
    if (format === undefined || format === '') format = this.io.stdoutIsTTY ? 'table' : 'json';
    if (format !== 'table' && format !== 'json' && format !== 'csv') {
      throw new UsageError(`invalid output format "${format}": use table, json or csv`);
    }
    return { format, query, csvRaw: this.globals.csvRaw === true };
  }

  /**
   * commander's error text. A value given to an unknown option is never repeated (it may be a
   * secret typed as a flag: `--client-secret=...`); in JSON mode the text is held for main.ts.
   */
  parserMessage(text: string): void {
    // `pgw link list --json status`: gh's field list, not an argument too many (gh-habits.ts).
    if (this.jsonFieldList !== undefined && /too many arguments/.test(text)) {
      const err = fieldListError(this.jsonFieldList);
      text = this.jsonErrors ? err.message : `error: ${err.message}\nhint: ${err.suggestion}\n`;
    }
    const shown = text
      .replace(/unknown option '(--[^=']*)=[^']*'/g, "unknown option '$1=…' (its value is not shown)")
      .replace(/unknown option '(-[^-'])[^']+'/g, "unknown option '$1…'");
    // A hint line (help.ts, an unknown command) is for a person: not part of the JSON message.
    if (this.jsonErrors) this.parserError = shown.replace(/\nhint: [^\n]*/g, '');
    // Straight to stderr, not through commander's help writer (`write`), which folds at 80 even
    // for a pipe: a terminal folds it as every error (io.ts), a pipe gets it on one line.
    else this.io.err(shown);
  }

  /** commander's stderr (help after a usage error): held in JSON mode, where stderr is one JSON object. */
  parserStderr(text: string): void {
    if (this.jsonErrors) this.parserHelp = `${this.parserHelp ?? ''}${text}`;
    else this.io.err(text);
  }

  /** Tables and details will be drawn (not JSON): an invalid -o is reported elsewhere, not here. */
  private humanOutput(): boolean {
    try {
      return this.output.format === 'table';
    } catch {
      return false;
    }
  }

  /** Diagnostics on stderr (never stdout), folded at spaces on a terminal (io.errMessage). */
  log(line: string): void {
    this.io.errMessage(`${line}\n`);
  }

  get prompter(): Prompter {
    if (!this.prompterCache) {
      if (this.deps.prompter) this.prompterCache = this.deps.prompter;
      else throw new Error('prompter not loaded: call loadPrompter() first');
    }
    return this.prompterCache;
  }

  /** The real prompter is @inquirer/prompts, loaded only by verbs that may prompt. */
  async loadPrompter(): Promise<Prompter> {
    if (!this.prompterCache) {
      const { createPrompter } = await import('./prompts.js');
      this.prompterCache = this.deps.prompter ?? createPrompter(this.io);
    }
    return this.prompterCache;
  }

  /**
   * The profile store. Reading (every API verb) needs only the JSON file; `{ write: true }` (profile
   * add, use, remove) also loads conf, which writes it atomically. A writable store serves reads too.
   */
  profiles(opts: { write?: boolean } = {}): Promise<ProfileStore> {
    const open = (write: boolean) => import('./config/profiles.js').then((m) => m.openProfileStore(this.configDir, { write }));
    if (opts.write) return (this.writableProfilesCache ??= open(true));
    return this.writableProfilesCache ?? (this.profilesCache ??= open(false));
  }

  /** The profile in force: flag > environment > profile > built-in default. */
  profile(): Promise<ResolvedProfile> {
    this.profileCache ??= (async () => {
      const store = await this.profiles();
      const { resolveProfile } = await import('./config/profiles.js');
      const resolved = resolveProfile(store, this.globals, this.env);
      this.guard.addSecret(resolved.clientSecret);
      this.guard.addSecret(resolved.encryptionKey);
      const { productionBanner } = await import('./rails.js');
      productionBanner(this, resolved);
      return resolved;
    })();
    return this.profileCache;
  }

  /**
   * The one transport for every request of this run: undici's keep-alive pool for a gateway, the
   * in-process dispatcher for the sandbox in this process (src/sandbox/in-process.ts says why).
   * Tests inject theirs.
   */
  dispatcher(opts: { embedded?: boolean } = {}): Promise<Dispatcher> {
    this.dispatcherCache ??= (async () => {
      if (this.deps.dispatcher) return this.deps.dispatcher;
      if (opts.embedded) {
        const inProcess = (await this.embeddedSandbox()).dispatcher();
        this.onCleanup(() => inProcess.close());
        return inProcess as unknown as Dispatcher;
      }
      const { createAgent } = await import('./api/agent.js');
      const agent = createAgent();
      this.onCleanup(() => agent.close());
      return agent;
    })();
    return this.dispatcherCache;
  }

  /** The in-process sandbox behind embedded profiles, started once per run. */
  embeddedSandbox(): Promise<EmbeddedSandbox> {
    this.embedded ??= (async () => {
      const { sandboxDbPath } = await import('./config/paths.js');
      const start = this.deps.startEmbedded ?? (await import('./sandbox/embedded.js')).startEmbedded;
      const sandbox = await start(sandboxDbPath(this.configDir), (line) => this.log(line));
      this.onCleanup(() => sandbox.close());
      return sandbox;
    })();
    return this.embedded;
  }

  /** Credentials and address of the profile, with the embedded sandbox filled in when needed. */
  async target(): Promise<ResolvedProfile & { baseUrl: string; embedded: boolean }> {
    const profile = await this.profile();
    if (profile.baseUrl !== undefined && this.sandboxOnThisMachine(profile)) return this.demoAccountAt(profile, profile.baseUrl);
    if (profile.baseUrl !== undefined) return { ...profile, baseUrl: profile.baseUrl, embedded: false };
    const sandbox = await this.embeddedSandbox();
    const account = sandbox.account(profile.account ?? 'merchant');
    this.guard.addSecret(profile.clientSecret ?? account.client_secret);
    return {
      ...profile,
      baseUrl: sandbox.baseUrl,
      embedded: true,
      clientId: profile.clientId ?? account.client_id,
      clientSecret: profile.clientSecret ?? account.client_secret,
    };
  }

  /**
   * `pgw sandbox serve` then `pgw --base-url http://127.0.0.1:8011 ...` on a built-in profile
   * (local, local-psp): nothing would be sent as credentials, and the answer would be a puzzle.
   * The serve runs on this machine, by default on the same database as the embedded sandbox, so
   * the profile's demo account (merchant or PSP) is used as the embedded profile would, and
   * stderr says so (issue 22 item 12). Credentials given by the environment always win.
   */
  private sandboxOnThisMachine(profile: ResolvedProfile): boolean {
    if (profile.env !== 'embedded' || profile.clientId !== undefined || profile.clientSecret !== undefined) return false;
    const host = new URL(profile.baseUrl!).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  }

  private async demoAccountAt(profile: ResolvedProfile, baseUrl: string): Promise<ResolvedProfile & { baseUrl: string; embedded: boolean }> {
    const sandbox = await this.embeddedSandbox();
    const kind = profile.account ?? 'merchant';
    const account = sandbox.account(kind);
    this.guard.addSecret(account.client_secret);
    const { sandboxDbPath } = await import('./config/paths.js');
    this.log(
      `note: ${baseUrl} is on this machine and profile ${profile.name} has no credentials: using the demo ${kind === 'psp' ? 'PSP' : 'merchant'} account of ${sandboxDbPath(this.configDir)} (a serve with --db has its own: set PGW_CLIENT_ID and PGW_CLIENT_SECRET)`,
    );
    return { ...profile, baseUrl, embedded: false, clientId: account.client_id, clientSecret: account.client_secret };
  }

  api(): Promise<ApiClient> {
    this.apiCache ??= this.createApi({ signal: this.signal });
    return this.apiCache;
  }

  /**
   * A client for the target of this run. `api()` shares one, stopped by the run's signal; a
   * caller that must still reach the gateway after that signal (pgw listen removing its
   * registration on Ctrl-C) makes its own, with no signal and its own time limit.
   */
  async createApi(opts: { signal?: AbortSignal; maxTimeoutMs?: number } = {}): Promise<ApiClient> {
    const target = await this.target();
    const [{ createClient }, dispatcher] = await Promise.all([import('./api/client.js'), this.dispatcher({ embedded: target.embedded })]);
    return createClient({
      baseUrl: target.baseUrl,
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      apiVersion: target.apiVersion,
      merchantId: target.merchantId,
      timeoutMs: opts.maxTimeoutMs === undefined ? target.timeoutMs : Math.min(target.timeoutMs, opts.maxTimeoutMs),
      dispatcher,
      userAgent: `pgw/${this.version}`,
      signal: opts.signal,
      closing: this.closing.signal,
      log: this.requestLog,
      // Cards sent are known to the output guard, so a gateway quoting one back is masked.
      onCard: (card) => this.guard.addCard(card),
      plainStrings: this.humanOutput(),
    });
  }

  /** Aborted by close(): the run is over. */
  private readonly closing = new AbortController();

  onCleanup(fn: () => Promise<void> | void): void {
    this.cleanups.push(fn);
  }

  /** Close pools and the embedded sandbox, newest first; never throws. */
  async close(): Promise<void> {
    // Requests nobody awaits any more (the other half of a pair that failed) end now, unretried.
    this.closing.abort();
    while (this.cleanups.length > 0) {
      const fn = this.cleanups.pop()!;
      try {
        await fn();
      } catch {
        // closing is best effort: the result has been printed already
      }
    }
  }
}
