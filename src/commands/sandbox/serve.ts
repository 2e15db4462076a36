// pgw sandbox serve: the sandbox as a server a team can share. Prints where it listens and the
// demo accounts' credentials (the sandbox's own, generated per database), then runs until
// Ctrl-C or SIGTERM (bin/ turns those into ctx.signal).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { sandboxDbPath } from '../../config/paths.js';
import { renderDetail } from '../../output/render.js';

export interface ServeOptions {
  port: string;
  host: string;
  db?: string;
  corsOrigin?: string[];
  /** Nothing but errors: no request log, no banner (the credentials then go to --ready-file or --json only). */
  quiet?: boolean;
  /** Hosts outside loopback webhooks may go to, when bound beyond loopback (issue 21 item 8). */
  allowWebhookHost?: string[];
  /** Snapshots over HTTP cover the whole database (issue 24). */
  allowGlobalSnapshots?: boolean;
  /** Where to write the JSON line once listening (issue 24). */
  readyFile?: string;
}

/** --cors-origin values as origins; `*` and anything with a path are refused (exit 2). */
async function corsOrigins(values: string[]): Promise<string[]> {
  const { normaliseOrigin } = await import('../../sandbox/cors.js');
  return values.map((value) => {
    if (value.trim() === '*') throw new UsageError('--cors-origin: "*" is not allowed: name each origin, e.g. http://devbox.local:3000');
    const origin = normaliseOrigin(value);
    if (!origin) throw new UsageError(`--cors-origin: "${value}" is not an origin (scheme://host[:port], no path), e.g. https://app.example.com`);
    return origin;
  });
}

export async function runSandboxServe(ctx: Context, opts: ServeOptions): Promise<void> {
  if (!/^[0-9]+$/.test(opts.port) || Number.parseInt(opts.port, 10) > 65_535) {
    throw new UsageError(`--port: "${opts.port}" is not a port number (0-65535)`);
  }
  const port = Number.parseInt(opts.port, 10);
  const origins = await corsOrigins(opts.corsOrigin ?? []);
  const dbPath = opts.db ?? sandboxDbPath(ctx.configDir);
  const { readyFileOption, writeReadyFile } = await import('../ready-file.js');
  const readyFile = readyFileOption(opts.readyFile);
  const { normaliseWebhookHost, bindsBeyondLoopback } = await import('../../sandbox/webhook-hosts.js');
  const allowWebhookHosts = (opts.allowWebhookHost ?? []).map((value) => {
    const host = normaliseWebhookHost(value);
    if (!host) throw new UsageError(`--allow-webhook-host: "${value}" is not a host name or address (no scheme, port or path), e.g. hooks.example.com`);
    return host;
  });
  const { startServer } = await import('../../sandbox/serve.js');
  const { requestLogger } = await import('../../sandbox/request-log.js');
  const requestLog = opts.quiet ? undefined : requestLogger({ write: (line) => ctx.log(line), color: ctx.io.colorErr });
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      port,
      host: opts.host,
      dbPath,
      requestLog,
      log: ctx.verbose ? (line) => ctx.log(line) : undefined,
      corsOrigins: origins,
      allowWebhookHosts,
      allowGlobalSnapshots: opts.allowGlobalSnapshots,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${opts.host} is in use: choose another with --port (0 for any free port)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host: cannot listen on "${opts.host}"`);
    // A database path that is a link to nothing (src/sandbox/store.ts): refused, nothing created.
    if (code === 'ELOOP') throw new UsageError(`${opts.db === undefined ? '' : '--db: '}${(err as Error).message}`);
    throw err;
  }
  ctx.onCleanup(() => server.close());
  // Where this database's buyer pages open, for the embedded profiles (and any pgw) that use the
  // same file: they address pages on the port this serve actually got (issue 33 item 11).
  const { writeServeRecord } = await import('../../sandbox/serve-record.js');
  ctx.onCleanup(writeServeRecord(dbPath, server.baseUrl));
  // Listening, the database open and migrated: ready. The same line --json prints (issue 24).
  if (readyFile) writeReadyFile(ctx, readyFile, { base_url: server.baseUrl, accounts: server.accounts });

  // --quiet prints nothing but errors (issue 32 item 4): a server started in a CI step's background
  // must not put the demo credentials in the job's log. They are in the ready file, and on stdout
  // only when --json (or -o json) is asked for by name, never by a piped stdout's default.
  const jsonAsked = ctx.globals.json === true || ctx.globals.output === 'json';
  if (opts.quiet && !jsonAsked) {
    await untilAborted(ctx.signal);
    return;
  }
  if (ctx.output.format === 'json' || ctx.globals.json) {
    ctx.io.out(`${JSON.stringify({ base_url: server.baseUrl, accounts: server.accounts })}\n`);
  } else {
    ctx.io.out(`pgw sandbox listening on ${server.baseUrl}\ndatabase ${dbPath}\n\n`);
    // One block per account, not a table: the credentials are there to be copied, whole, at any width.
    const sections = server.accounts.map((a) => ({
      title: `${a.name}${a.psp ? ' (PSP)' : ''}`,
      rows: [
        ['client_id', a.client_id],
        ['client_secret', a.client_secret],
        ['merchant_id', a.merchant_id],
        ['encryption_key', a.encryption_key],
      ] as [string, string][],
    }));
    ctx.io.out(renderDetail(sections));
    ctx.io.err(`Use it with: pgw --base-url ${server.baseUrl}\n  (credentials in PGW_CLIENT_ID and PGW_CLIENT_SECRET), or save it as a profile:\n  pgw profile add <name> --base-url ${server.baseUrl} --client-id <id>\n`);
    ctx.io.err("Each account's encryption_key signs its webhooks (X-Webhook-Signature).\n");
    if (bindsBeyondLoopback(opts.host)) {
      // Short lines: this block is read on an 80-column terminal.
      ctx.io.err(`Webhooks go to loopback${allowWebhookHosts.length > 0 ? ` and ${allowWebhookHosts.join(', ')}` : ''} only (bound beyond loopback);\n  allow a host with --allow-webhook-host <host>.\n`);
    }
    ctx.io.err('Requests are logged below (--quiet: none). Press Ctrl-C to stop.\n');
  }
  await untilAborted(ctx.signal);
  if (!opts.quiet) ctx.io.err('sandbox stopped\n');
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
