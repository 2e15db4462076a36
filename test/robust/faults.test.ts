// Faults against a real gateway stand-in on 127.0.0.1 (issue 8, part 2): every fault × every
// representative command gives the contract's exit code and one clear line (each fault through the
// real binary with one command at least, the grid's other cells in-process: issue 44);
// GET is retried by the policy (1 + 3 attempts on 429/502/503/504 and connection failures, never
// on a timeout) and POST and PATCH are sent exactly once, whatever happens.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { rmSync } from 'node:fs';
import * as f from './fault-server.js';
import { paidOrder, startHarness } from '../sandbox/harness.js';
import { COMMANDS, failureMessage, requireBuild, runAgainst, workDir } from './fault-server-cli.js';

const FAST = 5_000; // generous: these faults fail at once, and the machine is shared
const SLOW = 500; // the --timeout for faults that never finish

interface Case {
  name: string;
  fault: f.Fault | 'refused';
  exit: number;
  message: RegExp;
  /** The GET policy retries this one (4 attempts); otherwise 1. POST and PATCH: always 1. */
  retried: boolean;
  timeoutMs?: number;
}

const HOST = String.raw`127\.0\.0\.1:\d+`;
const closed = new RegExp(`^connection to ${HOST} closed before the response was complete$`);
const timedOut = new RegExp(`^request timed out after ${SLOW} ms \\(${HOST}\\)$`);
const html = (status: string) => new RegExp(`^gateway answered ${status} with a non-JSON body \\(text/html\\)$`);
const tooLarge = new RegExp(`^response from ${HOST} is larger than 32 MiB: refused$`);

const CASES: Case[] = [
  { name: 'connection refused', fault: 'refused', exit: 3, message: new RegExp(`^could not connect to ${HOST}: connection refused$`), retried: true },
  { name: 'reset on connect', fault: f.resetOnConnect, exit: 3, message: closed, retried: true },
  { name: 'reset mid-body', fault: f.resetMidBody, exit: 3, message: closed, retried: true },
  { name: 'truncated JSON (Content-Length larger than sent)', fault: f.truncatedJson, exit: 3, message: closed, retried: true },
  { name: 'slow headers', fault: f.slowHeaders, exit: 3, message: timedOut, retried: false, timeoutMs: SLOW },
  { name: 'slow body', fault: f.slowBody, exit: 3, message: timedOut, retried: false, timeoutMs: SLOW },
  { name: '429 with Retry-After: 0', fault: f.tooManyRequests('0'), exit: 1, message: /^Too many requests \(ERR_RATE_LIMIT_000\)$/, retried: true },
  { name: '502 HTML page (no Retry-After: backoff)', fault: f.htmlError(502, 'Bad Gateway'), exit: 1, message: html('502 Bad Gateway'), retried: true },
  { name: '503 HTML page, Retry-After: 0', fault: f.htmlError(503, 'Service Temporarily Unavailable', { 'retry-after': '0' }), exit: 1, message: html('503 Service Unavailable'), retried: true },
  { name: '504 HTML page, Retry-After: 0', fault: f.htmlError(504, 'Gateway Time-out', { 'retry-after': '0' }), exit: 1, message: html('504 Gateway Timeout'), retried: true },
  { name: '500 HTML page', fault: f.htmlError(500, 'Internal Server Error'), exit: 1, message: html('500 Internal Server Error'), retried: false },
  { name: '401 HTML page', fault: f.htmlError(401, 'Authorization Required'), exit: 4, message: html('401 Unauthorized'), retried: false },
  { name: '404 HTML page', fault: f.htmlError(404, 'Not Found'), exit: 5, message: html('404 Not Found'), retried: false },
  {
    name: '200 whose body is not the envelope',
    fault: f.notTheEnvelope,
    exit: 1,
    message: /^unexpected response from the gateway: 200 OK with a body that is not the \{success, message, data\} envelope$/,
    retried: false,
  },
  { name: '200 with an HTML page', fault: f.htmlOk, exit: 1, message: /^unexpected response from the gateway: 200 OK with a non-JSON body$/, retried: false },
  { name: '50 MB body, Content-Length declared', fault: f.hugeBody(50, true), exit: 1, message: tooLarge, retried: false },
  { name: '50 MB body, chunked', fault: f.hugeBody(50, false), exit: 1, message: tooLarge, retried: false },
];

const dirs: string[] = [];
const dir = () => {
  const d = workDir();
  dirs.push(d);
  return d;
};

beforeAll(requireBuild);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Table mode and JSON mode alternate over the grid, so each fault and each command meets both. The
 * real binary runs the grid's diagonal (fault i with command i mod 5: every fault, and every command
 * with several faults), so what only a process shows (its exit status, an error escaping to its
 * edge) is seen for each fault; the other cells run the same command line in-process.
 */
const grid = CASES.flatMap((c, i) =>
  COMMANDS.map((cmd, j) => ({ c, cmd, mode: (i + j) % 2 === 0 ? ('table' as const) : ('json' as const), binary: j === i % COMMANDS.length })),
);

describe.concurrent('faults × commands', () => {
  it.for(grid.map((g) => ({ ...g, label: `${g.c.name}: ${g.cmd.name} (${g.mode}${g.binary ? ', binary' : ''})` })))('$label', async ({ c, cmd, mode, binary }, { expect }) => {
    const server = c.fault === 'refused' ? undefined : await f.startFaultServer(c.fault);
    const base = server?.base ?? `http://127.0.0.1:${await f.closedPort()}`;
    try {
      const d = dir();
      const r = await runAgainst(base, cmd.args(d), { dir: d, timeoutMs: c.timeoutMs ?? FAST, mode, inProcess: !binary });
      expect(r.code, r.stderr).toBe(c.exit);
      expect(failureMessage(r, mode)).toMatch(c.message);
      if (server) {
        const expected = cmd.method === 'GET' && c.retried ? 4 : 1;
        expect(server.attempts.length, `${cmd.method} attempts`).toBe(expected);
        if (c.fault !== f.resetOnConnect) expect(new Set(server.attempts.map((a) => a.method))).toEqual(new Set([cmd.method]));
      }
    } finally {
      await server?.close();
    }
  });
});

describe.concurrent('retry policy, seen from the client', () => {
  // Nothing listens, so the server cannot count: the client's --verbose log shows each attempt.
  it.for(COMMANDS.filter((c) => c.name !== 'settle get' && c.name !== 'merchant list'))(
    'connection refused: $name is attempted 1 + 3 times for GET, once otherwise',
    async (cmd, { expect }) => {
      const d = dir();
      const r = await runAgainst(`http://127.0.0.1:${await f.closedPort()}`, cmd.args(d), { dir: d, timeoutMs: FAST, mode: 'table', extra: ['--verbose'], inProcess: true });
      expect(r.code).toBe(3);
      const sent = r.stderr.split('\n').filter((l) => l.startsWith(`> ${cmd.method} http`));
      expect(sent).toHaveLength(cmd.method === 'GET' ? 4 : 1);
      expect(r.stderr).not.toContain('\n    at ');
    },
  );

  it('Retry-After is honoured: a 429 asking for 1 s, then success, waits at least that long', async ({ expect }) => {
    const server = await f.startFaultServer(f.thenOk(f.tooManyRequests('1'), 1, { payment_id: 'PR0000000001', status: 'captured' }));
    try {
      const d = dir();
      const r = await runAgainst(server.base, ['payment', 'get', 'PR0000000001'], { dir: d, timeoutMs: FAST, mode: 'json', inProcess: true });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ payment_id: 'PR0000000001', status: 'captured' });
      expect(server.attempts).toHaveLength(2);
      // A lower bound only (the backoff alone would start at 250 ms): never flaky.
      expect(server.attempts[1]!.at - server.attempts[0]!.at).toBeGreaterThanOrEqual(990);
    } finally {
      await server.close();
    }
  });

  it('a GET that fails twice with 503 and then answers succeeds on the third attempt', async ({ expect }) => {
    const server = await f.startFaultServer(f.thenOk(f.htmlError(503, 'Service Unavailable', { 'retry-after': '0' }), 2, { settlement_id: 'ST0000000001' }));
    try {
      const d = dir();
      const r = await runAgainst(server.base, ['settle', 'get', 'ST0000000001'], { dir: d, timeoutMs: FAST, mode: 'json', inProcess: true });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ settlement_id: 'ST0000000001' });
      expect(server.attempts).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

// The same command lines against a healthy gateway (the sandbox) succeed: a fault above fails
// because of the fault, not because of the command line.
describe('control: the same commands against the sandbox', () => {
  it('every command exits 0 with data on stdout', async ({ expect }) => {
    const h = await startHarness();
    try {
      const { orderId, paymentId } = await paidOrder(h);
      const settled = await h.call('POST', '/pg/settlements/mark-settled/', { body: { payment_uids: [paymentId] } });
      const settlementId = settled.body.data.settlement_id as string;
      const ids: Record<string, string> = { PR0000000001: paymentId, ST0000000001: settlementId, OD0000000001: orderId };
      for (const cmd of COMMANDS) {
        const d = dir();
        const args = cmd.args(d).map((a) => ids[a] ?? a);
        const account = cmd.name === 'merchant list' ? h.psp : h.merchant;
        const r = await runAgainst(h.sandbox.baseUrl, args, { dir: d, timeoutMs: FAST, mode: 'json', clientId: account.client_id, secret: account.client_secret, inProcess: true });
        expect(r.code, `${cmd.name}: ${r.stderr}`).toBe(0);
        expect(JSON.parse(r.stdout), cmd.name).toBeTruthy();
      }
    } finally {
      await h.close();
    }
  });
});
