// The parity trace (docs/parity.md): when PGW_PARITY_TRACE names a file, every request the
// sandbox answers adds one JSON line to it: the operation (route pattern), the status code, the
// gateway's error code, the event types the request caused and the status values it answered
// with, and the test file that caused it (PGW_PARITY_TEST, set by the test run's setup file).
// `npm run parity` turns the lines into the report. Off, this module is one `if` at start-up:
// the pipeline is handed back untouched.
import { appendFileSync } from 'node:fs';
import type { RequestHandler } from './pipeline.js';
import { buildRouter, matchPage } from './routes.js';
import type { Store } from './store.js';

export interface ParityTraceLine {
  /** The test file, relative to the repository (PGW_PARITY_TEST); "" outside a test run. */
  test: string;
  method: string;
  /** The route's pattern (`/pg/orders/:order_id/`), `page:<kind>` for buyer pages, or `unrouted`. */
  route: string;
  status: number;
  /** error.code of an error envelope (a string, or an integer code as a string). */
  code?: string;
  events?: string[];
  /** `parent.key=value` for every string value of a key ending in `status`, in the answer and the events' data. */
  statuses?: string[];
}

type Env = Record<string, string | undefined>;

/** The pipeline, or the pipeline with every answer traced when the environment asks for it. */
export function withParityTrace(handle: RequestHandler, store: Store, env: Env): RequestHandler {
  const file = env.PGW_PARITY_TRACE;
  if (!file) return handle;
  const router = buildRouter({ production: false });
  // A trace never changes an answer: a database that cannot be read (closed, not yet migrated)
  // leaves the line without its events, and the request goes on to fail or succeed as it would.
  const lastEvent = (): number => {
    try {
      return store.db.get<{ n: number | null }>('SELECT max(rowid) AS n FROM events')?.n ?? 0;
    } catch {
      return Number.MAX_SAFE_INTEGER;
    }
  };
  return (req, res) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0]!;
    const before = lastEvent();
    let status = 0;
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((code: number, headers?: never) => {
      status = code;
      return writeHead(code, headers);
    }) as typeof res.writeHead;
    const end = res.end.bind(res);
    res.end = ((body?: string | Buffer) => {
      try {
        const line = traceLine(env.PGW_PARITY_TEST ?? '', method, routeOf(router, method, path), status || res.statusCode, body);
        const events = store.db.all<{ event_type: string; body: string }>('SELECT event_type, body FROM events WHERE rowid > ? ORDER BY rowid', before);
        if (events.length > 0) {
          line.events = [...new Set(events.map((e) => e.event_type))];
          const seen = new Set(line.statuses);
          for (const e of events) collectStatuses(parse(e.body), seen);
          if (seen.size > 0) line.statuses = [...seen].sort();
        }
        appendFileSync(file, `${JSON.stringify(line)}\n`);
      } catch {
        // A trace never changes an answer.
      }
      return end(body);
    }) as typeof res.end;
    handle(req, res);
  };
}

function routeOf(router: ReturnType<typeof buildRouter>, method: string, path: string): string {
  const page = matchPage(method, path);
  if (page) return `page:${page.kind}`;
  const match = router.match(method, path);
  return match.kind === 'found' ? match.pattern : 'unrouted';
}

function parse(text: string | Buffer | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text.toString());
  } catch {
    return undefined;
  }
}

function traceLine(test: string, method: string, route: string, status: number, body: string | Buffer | undefined): ParityTraceLine {
  const line: ParityTraceLine = { test, method, route, status };
  const json = parse(body) as { error?: { code?: unknown }; detail?: unknown; success?: unknown } | undefined;
  const code = json?.error?.code;
  if (typeof code === 'string' || typeof code === 'number') line.code = String(code);
  // The gateway's bare refusal ({"detail": …}, no envelope): parity/gateway.json names it `{detail}`.
  else if (status >= 400 && json && json.detail !== undefined && json.success === undefined) line.code = '{detail}';
  const seen = new Set<string>();
  collectStatuses(json, seen);
  if (seen.size > 0) line.statuses = [...seen].sort();
  return line;
}

/**
 * Every string value of a key ending in `status`, at any depth, as `parent.key=value` (`parent`
 * the nearest enclosing object's key: `settlement.status=pending`, `payments.status=captured`)
 * or `key=value` at the top, so the report can tell an order's status from its payments'.
 */
function collectStatuses(value: unknown, into: Set<string>, parent = '', depth = 0): void {
  if (depth > 12 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collectStatuses(v, into, parent, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string' && /status$/i.test(key) && v !== '' && v.length <= 40) into.add(`${parent ? `${parent}.` : ''}${key}=${v}`);
    else collectStatuses(v, into, key === 'data' && depth === 0 ? '' : key, depth + 1);
  }
}
