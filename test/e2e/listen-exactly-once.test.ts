// Issue 45, the five defects, each through `pgw listen` (or the CLI) as a real process: a
// sub-merchant's listener under a PSP-registered app (doubled events), a PSP's listener with one
// sub-merchant's app registered (lost events), --forward-to the listener itself (a loop), SIGTERM
// with forwards still owed to a slow app, and a sub-merchant that is not APPROVED taking money.
// Helpers (registrations, events) run in-process on the same embedded sandbox.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractBlocks } from '../docs/blocks.js';
import { runCli, tempConfigDir } from '../helpers/run.js';
import { BIN, ROOT, spawnPgw } from '../helpers/spawn.js';

// What the listener prints about forwarding, at start and at the stop: its own lines, and the two
// blocks docs/cli.md shows of them under "Events (`pgw listen`, `pgw trigger`, `pgw events`, `pgw
// webhook verify`)", are held to the same patterns.
const HEADING = 'Events (`pgw listen`, `pgw trigger`, `pgw events`, `pgw webhook verify`)';
const START_LINES = [
  /^ {2}forwarding to \S+, except events of:$/,
  /^ {2}not forwarding to \S+ now: each event gets there without it:$/,
  /^ {4}[0-9]+ {2}(WH[0-9]{10} \(registered for [0-9]+\) delivers them there|listener WH[0-9]{10} forwards them)$/,
  /^ {4}and [0-9]+ more sub-merchants$/,
  /^ {2}\(decided per event: a registration added or removed counts at once\)$/,
  /^ {2}to forward through this listener instead: pgw sandbox webhook remove WH[0-9]{10}$/,
];
const STOP_LINES = [
  /^forwarded [0-9]+ events? to \S+( \([0-9]+ more reached it without this listener\))?; (none failed|[0-9]+ could not be \(pgw events resend <id> sends one again\):)$/,
  /^ {2}EV[0-9]+ {2}(sent, but not answered within the stop's [0-9]+ ms \(--timeout\)|not sent: the stop's [0-9]+ ms \(--timeout\) ran out first|answered HTTP [0-9]{3}|.+)$/,
  /^ {2}and [0-9]+ more$/,
  /^listener stopped; registration WH[0-9]{10} removed$/,
];
const unfit = (lines: string[], patterns: RegExp[]) => lines.filter((l) => !patterns.some((p) => p.test(l)));
/** The lines the listener printed from the first matching `from` up to (not including) a line matching `to`. */
function linesBetween(text: string, from: RegExp, to: RegExp): string[] {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => from.test(l));
  const j = lines.findIndex((l, k) => k > i && to.test(l));
  return lines.slice(i, j < 0 ? undefined : j);
}

let config: { dir: string; cleanup: () => void };
let children: ChildProcessWithoutNullStreams[] = [];
let servers: Server[] = [];
const env = () => ({ PGW_CONFIG_DIR: config.dir });
const subs = { one: '', two: '' };
const psp = ['-p', 'local-psp'];

async function json(argv: string[]): Promise<any> {
  const r = await runCli([...argv, '--json'], { env: env() });
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

beforeAll(async () => {
  config = tempConfigDir();
  const list = await json([...psp, 'merchant', 'list']);
  [subs.one, subs.two] = [list[0].id, list[1].id];
});
afterEach(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children = [];
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  servers = [];
  for (const h of await json([...psp, 'sandbox', 'webhook', 'list'])) await json([...psp, 'sandbox', 'webhook', 'remove', h.id]);
});
afterAll(() => config.cleanup());

/** The developer's app: records each event's sequence_number; answers 200 at once, or once `release()` is called. */
async function app(opts: { held?: boolean } = {}): Promise<{ url: string; got: string[]; release: () => void }> {
  const got: string[] = [];
  let held = opts.held ?? false;
  const waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push(JSON.parse(body).sequence_number as string);
      const answer = () => res.writeHead(200).end();
      if (held) waiting.push(answer);
      else answer();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const release = () => {
    held = false;
    for (const answer of waiting.splice(0)) answer();
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, release };
}

async function until<T>(what: string, pick: () => T | undefined | false | Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  for (const end = Date.now() + ms; ; ) {
    const v = await pick();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Listening {
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
}

/** `pgw listen …` as its own process, once it says it listens (or exits). */
async function listen(args: string[], extraEnv: Record<string, string> = {}): Promise<Listening> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...clean, NO_COLOR: '1', ...env(), ...extraEnv } });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  await Promise.race([until('the listener to start', () => err.includes('Press Ctrl-C'), 20_000), exited]);
  return { out: () => out, err: () => err, exited, kill: (s) => child.kill(s) };
}

/** The sequence_numbers of the events about `id` (a payment), once every address has answered. */
async function settled(as: string[], id: string): Promise<string[]> {
  return until(`the events of ${id} to be delivered`, async () => {
    const list = await json([...as, 'events', 'list', '--about', id]);
    return list.length > 0 && list.every((e: { status: string }) => e.status === 'delivered') && list.map((e: { sequence_number: string }) => e.sequence_number);
  });
}

describe('item 1: a sub-merchant\'s listener under an app registered for its PSP', () => {
  it('does not forward what the PSP\'s registration delivers: the app gets each event once', async () => {
    const target = await app();
    await json([...psp, 'sandbox', 'webhook', 'add', target.url]);
    const l = await listen([...psp, '-m', subs.one, 'listen', '--forward-to', target.url.replace('127.0.0.1', 'localhost')]);
    expect(l.err()).toMatch(new RegExp(`    ${subs.one}  WH[0-9]{10} \\(registered for [0-9]+\\) delivers them there`));
    const made = await json([...psp, '-m', subs.one, 'trigger', 'PAYMENT_FAILED']);
    const [seq] = await settled([...psp, '-m', subs.one], made.payment_id);
    await until('the listener to have handled it', () => /PAYMENT_FAILED → not forwarded: the sandbox delivers it there \(WH[0-9]{10}\)/.test(l.err()));
    l.kill('SIGTERM');
    expect(await l.exited).toBe(0);
    expect(target.got.filter((s) => s === seq)).toHaveLength(1);
  }, 60_000);
});

describe("item 2: a PSP's listener with one sub-merchant's app registered", () => {
  it("forwards the PSP's own and the other sub-merchant's events, not the registered one's", async () => {
    await json([...psp, 'sandbox', 'merchant', 'kyc', subs.two, 'APPROVED']);
    const target = await app();
    await json([...psp, '-m', subs.one, 'sandbox', 'webhook', 'add', target.url]);
    const l = await listen([...psp, 'listen', '--forward-to', target.url]);
    expect(l.err()).toContain(`  forwarding to ${target.url}, except events of:\n    ${subs.one}  `);
    expect(unfit(linesBetween(l.err(), /^ {2}forwarding to /, /^Press Ctrl-C/), START_LINES)).toEqual([]);
    const uid = (await json([...psp, 'sandbox', 'subscription', 'create', '--amount', '10.00'])).uid;
    const own = await json([...psp, 'sub', 'simulate', uid, '--status', 'SUCCESS']);
    const one = await json([...psp, '-m', subs.one, 'trigger', 'PAYMENT_FAILED']);
    const two = await json([...psp, '-m', subs.two, 'trigger', 'PAYMENT_FAILED']);
    const seqs = [...(await settled(psp, own.payment_id)), ...(await settled(psp, one.payment_id)), ...(await settled(psp, two.payment_id))];
    l.kill('SIGTERM');
    expect(await l.exited).toBe(0);
    expect(l.err()).toMatch(/forwarded 2 events to \S+ \(1 more reached it without this listener\); none failed/);
    expect(target.got.sort()).toEqual(seqs.sort());
  }, 60_000);
});

describe('item 2: --forward-to the listener itself', () => {
  it('is refused at start, exit 2, in any loopback spelling, on the sandbox and off it', async () => {
    const port = 40_000 + Math.floor(Math.random() * 20_000);
    const remote = { PGW_BASE_URL: 'https://gateway.example', PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: 'secret-value' };
    for (const [args, extra] of [
      [['listen', '--port', String(port), '--forward-to', `http://localhost:${port}/webhooks`], remote],
      [['listen', '--port', String(port), '--forward-to', `http://127.1:${port}/`], {}],
      [['listen', '--port', String(port), '--forward-to', `http://[::1]:${port}`], {}],
    ] as const) {
      const r = await spawnPgw([...args, '-o', 'table'], { env: { ...env(), ...extra }, timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--forward-to .* is this listener itself \(127\.0\.0\.1:[0-9]+\): each event would be forwarded back to it, without end/);
    }
    expect(await json([...psp, 'sandbox', 'webhook', 'list'])).toEqual([]);
  }, 60_000);
});

describe('item 3: SIGTERM with forwards still owed to a slow app', () => {
  /** A listener forwarding to an app that holds its answers, three events acknowledged, then SIGTERM. */
  async function stopWithThreeOwed(args: string[]) {
    const slow = await app({ held: true });
    const l = await listen(['listen', ...args, '--forward-to', slow.url]);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await json(['trigger', 'PAYMENT_FAILED'])).events[0].id);
    // All three acknowledged (the sandbox logged them delivered, so it retries none), the first on the wire.
    for (const id of made) await until(`${id} to be acknowledged`, async () => (await json(['events', 'get', id])).status === 'delivered');
    await until('the first forward to reach the app', () => slow.got.length === 1);
    l.kill('SIGTERM');
    return { l, slow, made };
  }

  it('finishes what it acknowledged when the app answers within the stop\'s time (a few seconds by default)', async () => {
    const { l, slow } = await stopWithThreeOwed([]);
    await new Promise((r) => setTimeout(r, 300));
    slow.release();
    expect(await l.exited).toBe(0);
    expect(slow.got).toHaveLength(3);
    expect(l.err()).toMatch(/\nforwarded 3 events to \S+; none failed\nlistener stopped; registration WH[0-9]{10} removed\n$/);
    expect(unfit(linesBetween(l.err(), /^forwarded /, /^$/), STOP_LINES)).toEqual([]);
  }, 60_000);

  it('past --timeout, names each event it could not forward (for pgw events resend) and says nothing after it stops', async () => {
    const { l, slow, made } = await stopWithThreeOwed(['--timeout', '1s']);
    expect(await l.exited).toBe(0);
    slow.release();
    const summary = l.err().slice(l.err().indexOf('\nforwarded ') + 1).split('\n');
    expect(summary.slice(0, 4)).toEqual([
      `forwarded 0 events to ${slow.url}; 3 could not be (pgw events resend <id> sends one again):`,
      `  ${made[0]}  sent, but not answered within the stop's 1000 ms (--timeout)`,
      `  ${made[1]}  not sent: the stop's 1000 ms (--timeout) ran out first`,
      `  ${made[2]}  not sent: the stop's 1000 ms (--timeout) ran out first`,
    ]);
    expect(summary.slice(4)).toEqual([expect.stringMatching(/^listener stopped; registration WH[0-9]{10} removed$/), '']);
    expect(unfit(summary.slice(0, 5), STOP_LINES)).toEqual([]);
    // What it names is what pgw events resend takes.
    const again = await json(['events', 'resend', made[1]!, '--to', slow.url]);
    expect(again.id).toBe(made[1]);
  }, 60_000);
});

describe('docs/cli.md shows what the listener prints', () => {
  it(`the two blocks under "${HEADING}" fit the lines the listener prints`, () => {
    const blocks = extractBlocks('docs/cli.md', readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')).filter(
      (b) => b.heading === HEADING && b.marker.kind === 'covered-by' && b.marker.file === 'test/e2e/listen-exactly-once.test.ts',
    );
    expect(blocks).toHaveLength(2);
    const [start, stop] = blocks.map((b) => b.text.trimEnd().split('\n'));
    expect(unfit(start!, START_LINES)).toEqual([]);
    expect(unfit(stop!, STOP_LINES)).toEqual([]);
  });
});

describe('item 4: a sub-merchant that is not APPROVED takes no money', () => {
  it('is refused with its kyc_status named, exit 1, nothing made; once APPROVED it collects', async () => {
    await json([...psp, 'sandbox', 'merchant', 'kyc', subs.two, 'REJECTED']);
    const paymentsBefore = (await json([...psp, '-m', subs.two, 'payment', 'list'])).length;
    const refused = await spawnPgw([...psp, '-m', subs.two, 'trigger', 'PAYMENT_SUCCESSFUL', '-o', 'table'], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ERR_MERCHANT_ACCOUNT_002');
    expect(refused.stderr).toContain(`sub-merchant ${subs.two} is not active: its kyc_status is REJECTED`);
    expect(refused.stderr).toContain(`pgw -p local-psp sandbox merchant kyc <merchant_id> APPROVED`);
    expect(await json([...psp, '-m', subs.two, 'payment', 'list'])).toHaveLength(paymentsBefore);
    await json([...psp, 'sandbox', 'merchant', 'kyc', subs.two, 'APPROVED']);
    expect((await json([...psp, '-m', subs.two, 'trigger', 'PAYMENT_SUCCESSFUL'])).payment_id).toMatch(/^PR/);
  }, 60_000);
});
