// Shared by the robustness suites: a MockAgent gateway that accepts every request and records it
// (so "nothing sent" is a count of zero), a workspace of temp files, and the reading of a
// refusal's field paths from stderr in both output modes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { expect } from 'vitest';
import { runCli, type RunOptions, type RunResult } from '../helpers/run.js';
import { NOW } from './helpers-gen-text.js';

export const GATEWAY = 'https://gw.robust.test';

export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export type Responder = (req: SentRequest) => { status: number; body: unknown };

const ok = (data: unknown) => ({ status: 200, body: { success: true, message: 'ok', data } });

/**
 * A gateway that answers every request through `respond` (default: success with `{}`) and keeps
 * what was sent. The network is refused, so a request that misses it fails the run.
 */
export class RecordingGateway {
  readonly agent = new MockAgent();
  readonly sent: SentRequest[] = [];
  respond: Responder = () => ok({});

  constructor(origin = GATEWAY) {
    this.agent.disableNetConnect();
    this.agent
      .get(origin)
      .intercept({ path: () => true, method: () => true })
      .reply((opts) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries((opts.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = String(v);
        const text = typeof opts.body === 'string' ? opts.body : undefined;
        const req: SentRequest = { method: opts.method, path: opts.path, headers, body: text === undefined ? undefined : (JSON.parse(text) as unknown) };
        this.sent.push(req);
        const { status, body } = this.respond(req);
        return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { 'content-type': 'application/json' } } };
      })
      .persist();
  }

  /** What was sent since the last call, and forget it. */
  take(): SentRequest[] {
    return this.sent.splice(0, this.sent.length);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

export { ok as okEnvelope };

/** A temp directory for input files, removed by cleanup(). */
export class Workspace {
  readonly dir = mkdtempSync(join(tmpdir(), 'pgw-robust-'));
  private n = 0;

  /** Write JSON (or text) to a fresh file and return its path. */
  file(content: unknown, ext = 'json'): string {
    const path = join(this.dir, `in-${++this.n}.${ext}`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export { NOW as FIXED_NOW } from './helpers-gen-text.js';

/** runCli against the recording gateway, with credentials and a clock fixed for generated cards. */
export function runAgainst(gw: RecordingGateway, ws: Workspace, argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  return runCli(argv, {
    dispatcher: gw.agent,
    clock: () => NOW,
    ...opts,
    env: { PGW_CONFIG_DIR: join(ws.dir, 'config'), PGW_BASE_URL: GATEWAY, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'sk_robust_secret', ...opts.env },
  });
}

/**
 * The field paths a refusal names. JSON mode: the keys of `details` of a validation error, else
 * the part of the message before its first ": ". Table mode: the "  path: message" lines under a
 * heading, else the same part of the one `error:` line.
 */
export function refusedPaths(stderr: string, json: boolean): string[] {
  if (json) {
    const line = stderr.trim().split('\n').pop() ?? '';
    const { error } = JSON.parse(line) as { error: { code: string | null; message: string; details: Record<string, unknown> | null } };
    if (error.code === 'VALIDATION' && error.details) return Object.keys(error.details).map((k) => (k === '(body)' ? '' : k));
    return [error.message.split(': ')[0]!];
  }
  const lines = stderr.split('\n');
  const first = lines.find((l) => l.startsWith('error: '));
  if (!first) return [];
  const listed = lines.filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(': ')[0]!);
  return listed.length > 0 ? listed : [first.slice('error: '.length).split(': ')[0]!];
}

/** Every path named is `want` or a field inside it, and there is at least one. */
export function expectNamesOnly(paths: string[], want: string, context: string): void {
  expect(paths.length, `no field named: ${context}`).toBeGreaterThan(0);
  for (const p of paths) {
    expect(p === want || p.startsWith(`${want}.`) || p.startsWith(`${want} #`), `named "${p}", expected "${want}": ${context}`).toBe(true);
  }
}

/** Property runs per suite, from PGW_ROBUST_RUNS (a multiplier, default 1) for deeper local runs. */
export function runs(n: number): number {
  const factor = Number(process.env.PGW_ROBUST_RUNS ?? '1');
  return Math.max(1, Math.round(n * (Number.isFinite(factor) && factor > 0 ? factor : 1)));
}
