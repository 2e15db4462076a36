// pgw sandbox wait [--ready-file F | --url U] [--timeout 30s] (issues 24, 32): exit 0 as soon as a
// sandbox server answers GET /sandbox/health/, for CI steps and `docker compose` health checks
// instead of fixed sleeps. Always over the network, never the in-process sandbox: the embedded
// profile's sandbox is "ready" in any process, so answering for it let CI go on before the server
// it had started in the background listened (issue 32 item 3). It asks every 50 ms (a refused
// connection answers at once), each try bounded by what is left of the timeout; past the
// timeout, exit 3 naming the address (or the file) it was waiting for and the last reason.
import type { Context } from '../../context.js';
import { InterruptedError, NetworkError, RefusedError, UsageError } from '../../errors.js';
import { isProduction, requireSandbox } from '../../rails.js';
import { emit } from '../../output/render.js';
import { DEFAULT_SERVE_URL, pagesBaseFor } from '../../sandbox/serve-record.js';
import { sandboxDbPath } from '../../config/paths.js';

export const HEALTH_PATH = '/sandbox/health/';
export { DEFAULT_SERVE_URL };
const POLL_MS = 50;

export interface HealthView {
  status: string;
  version: string;
  engine: string;
  sqlite_version?: string;
  schema_version?: number;
  clock: string;
}

export interface WaitOptions {
  readyFile?: string;
  url?: string;
}

/**
 * What to wait for: a ready file (then the address in it), an address, or, on the embedded
 * profiles, the serve of their database: where its record says it listens (it may start on
 * another port than the default, issue 33 item 11), else where serve listens by default.
 */
type Target = { file: string } | { url: string } | { db: string };

/**
 * How long to wait: the global --timeout (ms, or 30s, 2m), which for this verb bounds the whole
 * wait, not one request; 30 s without it (PGW_TIMEOUT, a per-request limit, is not read).
 */
export async function runSandboxWait(ctx: Context, opts: WaitOptions = {}): Promise<void> {
  const given = ctx.globals.timeout;
  const { parseTimeout } = await import('../../config/profiles.js');
  const timeoutMs = given === undefined ? 30_000 : parseTimeout(given, '--timeout');
  if (opts.readyFile !== undefined && opts.url !== undefined) throw new UsageError('--ready-file and --url: give one of them');
  const output = ctx.output;
  const profile = await ctx.profile();
  requireSandbox(profile, 'sandbox wait');
  const givenUrl = opts.url ?? profile.baseUrl;
  const target: Target =
    opts.readyFile !== undefined
      ? { file: readyFilePath(opts.readyFile) }
      : givenUrl !== undefined
        ? { url: checkedUrl(givenUrl, opts.url !== undefined ? '--url' : undefined) }
        : { db: sandboxDbPath(ctx.configDir) };
  const deadline = Date.now() + timeoutMs;
  const { readServeReady } = await import('./serve-ready.js');
  const dispatcher = await ctx.dispatcher({ embedded: false });
  const { readLimitedBody } = await import('../../api/body.js');
  let last = 'no answer yet';
  let tried = 'file' in target ? `the ready file ${target.file}` : `the sandbox at ${'url' in target ? target.url : DEFAULT_SERVE_URL}`;
  for (;;) {
    if (ctx.signal.aborted) throw new InterruptedError('interrupted');
    const ready = 'file' in target ? readServeReady(target.file) : undefined;
    const url = 'url' in target ? target.url : 'db' in target ? pagesBaseFor(target.db, (line) => ctx.log(line)).baseUrl : ready ? checkedUrl(ready.base_url, `the base_url of ${target.file}`) : undefined;
    if (url === undefined) last = 'it does not exist yet';
    else {
      tried = `the sandbox at ${url}${'file' in target ? ` (from ${target.file})` : ''}`;
      const base = new URL(url);
      const left = deadline - Date.now();
      const controller = new AbortController();
      const stop = () => controller.abort();
      const timer = setTimeout(stop, Math.max(1, Math.min(left, 5_000)));
      ctx.signal.addEventListener('abort', stop, { once: true });
      try {
        const res = await dispatcher.request({
          origin: base.origin,
          path: `${base.pathname.replace(/\/+$/, '')}${HEALTH_PATH}`,
          method: 'GET',
          headers: { accept: 'application/json', 'user-agent': `pgw/${ctx.version}` },
          signal: controller.signal,
        });
        const text = await readLimitedBody(res, base.host, 64 * 1024);
        const body = parse(text);
        if (res.statusCode === 200 && body?.success === true && body.data?.status === 'ok') {
          const health = body.data;
          await emit(ctx.io, output, { base_url: url, ...health }, () => ctx.io.err(`sandbox ready at ${url} (pgw ${health.version}, ${health.engine}, sandbox time ${health.clock})\n`));
          return;
        }
        last = res.statusCode === 200 ? 'its health check did not answer ok' : `GET ${HEALTH_PATH} answered ${res.statusCode}${res.statusCode === 404 ? " (not pgw's sandbox, or an older pgw)" : ''}`;
      } catch (err) {
        if (ctx.signal.aborted) throw new InterruptedError('interrupted');
        const code = (err as { code?: string }).code;
        last = code === 'ECONNREFUSED' ? 'connection refused' : (err as Error).message || String(err);
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', stop);
      }
    }
    if (Date.now() + POLL_MS > deadline) {
      throw new NetworkError(`${tried} was not ready within ${given ?? '30s'}: ${last}`, {
        code: 'NOT_READY',
        suggestion: `start it with: pgw sandbox serve${'file' in target ? ` --ready-file ${target.file}` : ''} (or wait longer with --timeout)`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function readyFilePath(value: string): string {
  if (value.trim() === '') throw new UsageError('--ready-file: give a file path');
  return value;
}

/** An http(s) address that is not production's (its health check is pgw's sandbox's alone). */
function checkedUrl(value: string, source: string | undefined): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`${source ?? 'the base URL'}: "${value}" is not an http(s) address`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${source ?? 'the base URL'}: "${value}" is not an http(s) address`);
  if (isProduction({ env: 'sandbox', baseUrl: value })) {
    throw new RefusedError(`sandbox wait is sandbox only: ${value} is the production gateway`, { code: 'SANDBOX_ONLY' });
  }
  return value.replace(/\/+$/, '');
}

function parse(text: string): { success?: unknown; data?: HealthView } | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' ? (v as { success?: unknown; data?: HealthView }) : undefined;
  } catch {
    return undefined;
  }
}
