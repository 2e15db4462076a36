// `pgw sandbox serve`'s request log, one line per request on stderr, like a dev server:
//   03:51:07 POST /pg/orders/ 200 4ms merchant
// Time (local), method, path, status, duration, the account that authenticated: `merchant` or
// `psp` for the demo accounts (as the built-in profiles name them), else its merchant_id; "-"
// when none did. Never a query string, header or body: the path alone, with
// any card-number-like run of digits masked and control characters removed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isCardNumber, maskCardNumber } from '../safety/redact.js';
import { monotonicMs } from '../monotonic.js';

/**
 * The account a response answered, kept on the response itself: a WeakMap entry for every
 * request (the log is off under --quiet, yet every request noted its account) gave the garbage
 * collector an ephemeron to trace per response in `sandbox serve` (issue 23).
 */
const ACCOUNT = Symbol('pgw.account');
type Noted = { [ACCOUNT]?: string };

/** Called by the server once a request has authenticated: the log names the account. */
export function noteAccount(res: object, name: string): void {
  (res as Noted)[ACCOUNT] = name;
}

export interface RequestLogOptions {
  write: (line: string) => void;
  now?: () => Date;
  /** Colour the status (2xx green, 4xx yellow, 5xx red): only for a terminal. */
  color?: boolean;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const MAX_PATH = 120;

/** The path of a request target, safe to print. */
export function loggablePath(target: string | undefined): string {
  let path = (target ?? '/').split('?')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep it encoded: still safe once masked
  }
  // Grouped (4111 1111 ...) and plain runs of digits that are card numbers, masked; never the
  // digits of an ID (OD + 14 digits can pass the Luhn check), hence no letter right before a run.
  path = path.replace(/(?<![A-Za-z0-9])\d[\d -]{11,24}\d(?![0-9])/g, (run) => (isCardNumber(run) ? maskCardNumber(run) : run)).replace(CONTROL, '');
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH - 1)}…` : path;
}

function paint(status: number, color: boolean): string {
  const text = String(status);
  if (!color) return text;
  const code = status >= 500 ? 31 : status >= 400 ? 33 : 32;
  return `\u001b[${code}m${text}\u001b[39m`;
}

/**
 * A hook for the server: call it with each request; it logs when the answer has been sent. Lines
 * are written together once per turn of the event loop: one write (and one pass of the output
 * guard) for every request answered in that turn, instead of one per request, which cost a busy
 * server ~15 µs a request (a third of a GET). A line still appears as soon as its turn ends.
 */
export function requestLogger(opts: RequestLogOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const now = opts.now ?? (() => new Date());
  let pending: string[] = [];
  const flush = (): void => {
    const lines = pending;
    pending = [];
    opts.write(lines.join('\n'));
  };
  const log = (line: string): void => {
    if (pending.push(line) === 1) setImmediate(flush);
  };
  return (req, res) => {
    const started = monotonicMs();
    res.on('finish', () => {
      const at = now();
      const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
      const ms = Math.round(monotonicMs() - started);
      const method = (req.method ?? '-').replace(CONTROL, '').slice(0, 7);
      // Compact, one space apart: an 80-column terminal holds a long sandbox path on one line.
      log(`${time} ${method} ${loggablePath(req.url)} ${paint(res.statusCode, opts.color === true)} ${ms}ms ${(res as Noted)[ACCOUNT] ?? '-'}`);
    });
  };
}
