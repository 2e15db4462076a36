// pgw sandbox wait [--timeout 30s] (issue 24): exit 0 as soon as the sandbox at the profile's
// address answers GET /sandbox/health/, for CI steps and `docker compose` health checks instead
// of fixed sleeps. It asks every 50 ms (a refused connection answers at once), each try bounded
// by what is left of the timeout; past the timeout, exit 3 naming the last reason.
import type { Context } from '../../context.js';
import { InterruptedError, NetworkError } from '../../errors.js';
import { requireSandbox } from '../../rails.js';
import { emit } from '../../output/render.js';

export const HEALTH_PATH = '/sandbox/health/';
const POLL_MS = 50;

export interface HealthView {
  status: string;
  version: string;
  engine: string;
  sqlite_version?: string;
  schema_version?: number;
  clock: string;
}

/**
 * How long to wait: the global --timeout (ms, or 30s, 2m), which for this verb bounds the whole
 * wait, not one request; 30 s without it (PGW_TIMEOUT, a per-request limit, is not read).
 */
export async function runSandboxWait(ctx: Context): Promise<void> {
  const given = ctx.globals.timeout;
  const { parseTimeout } = await import('../../config/profiles.js');
  const timeoutMs = given === undefined ? 30_000 : parseTimeout(given, '--timeout');
  const output = ctx.output;
  const profile = await ctx.profile();
  requireSandbox(profile, 'sandbox wait');
  const deadline = Date.now() + timeoutMs;
  // The embedded profile's sandbox starts in this process: ready once started.
  const target = await ctx.target();
  const dispatcher = await ctx.dispatcher({ embedded: target.embedded });
  const { readLimitedBody } = await import('../../api/body.js');
  const base = new URL(target.baseUrl);
  let last = 'no answer yet';
  for (;;) {
    if (ctx.signal.aborted) throw new InterruptedError('interrupted');
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
        await emit(ctx.io, output, { base_url: target.baseUrl, ...health }, () =>
          ctx.io.err(`${target.embedded ? 'embedded sandbox ready, in this process' : `sandbox ready at ${target.baseUrl}`} (pgw ${health.version}, ${health.engine}, sandbox time ${health.clock})\n`),
        );
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
    if (Date.now() + POLL_MS > deadline) {
      throw new NetworkError(`the sandbox at ${target.baseUrl} was not ready within ${given ?? '30s'}: ${last}`, {
        code: 'NOT_READY',
        suggestion: 'start it with: pgw sandbox serve (or wait longer with --timeout)',
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function parse(text: string): { success?: unknown; data?: HealthView } | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' ? (v as { success?: unknown; data?: HealthView }) : undefined;
  } catch {
    return undefined;
  }
}
