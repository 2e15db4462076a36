// pgw listen in-process against the embedded sandbox (real HTTP), with pgw trigger and the sandbox
// helpers run beside it: the terminal line, --events, forward failures, and bad input.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../../src/main.js';
import { runCli, tempConfigDir } from '../../helpers/run.js';

let config: { dir: string; cleanup: () => void };
let servers: Server[] = [];
beforeEach(() => {
  config = tempConfigDir();
});
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  servers = [];
  config.cleanup();
});

const env = () => ({ PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' });
const pgw = (argv: string[]) => runCli(argv, { env: env() });

class Stream extends PassThrough {
  isTTY?: boolean;
  columns = 160; // wide enough that no ID of an event line gives way (present.test.ts checks the fitting)
  text = '';
  constructor(tty: boolean) {
    super();
    if (tty) this.isTTY = true;
    this.on('data', (c: Buffer) => (this.text += c.toString()));
  }
}

/** pgw listen running in this process until stop() (what Ctrl-C does through bin/). */
async function listen(args: string[], tty: boolean) {
  const stop = new AbortController();
  const stdout = new Stream(tty);
  const stderr = new Stream(tty);
  const stdin = new PassThrough();
  const done = run(['listen', ...args], { env: env(), stdin, stdout, stderr, signal: stop.signal });
  await waitFor('the listener', () => /Press Ctrl-C|error/.test(stderr.text));
  return {
    stdout,
    stderr,
    async stop(): Promise<number> {
      stop.abort('SIGINT');
      return done;
    },
  };
}

async function waitFor<T>(what: string, pick: () => T | undefined | false, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = pick();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An app answering `status` to every POST. */
async function app(status: number): Promise<{ url: string; hits: { event: string; body: string }[]; server: Server }> {
  const hits: { event: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ event: JSON.parse(body).event_type, body });
      res.writeHead(status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits, server };
}

async function trigger(event: string, ...extra: string[]): Promise<Record<string, string>> {
  const r = await pgw(['trigger', event, '--json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, string>;
}

describe('pgw listen on a terminal', () => {
  it('one line per event: time, event, its IDs and the forward result; a failing app does not stop it', async () => {
    const target = await app(503);
    const l = await listen(['--forward-to', target.url], true);
    expect(l.stderr.text).toContain(`forwarding to ${target.url}`);

    const failed = await trigger('PAYMENT_FAILED', '--link');
    const line = await waitFor('the line', () => l.stdout.text.split('\n').find((x) => x.includes(failed.payment_id!)));
    // The sandbox tells the listener the account's Encryption Key: each line says the signature verified.
    expect(line).toMatch(/^[0-9]{2}:[0-9]{2}:[0-9]{2}  PAYMENT_FAILED +signed ✓  payment_id=PR[0-9]{10}  link_id=PR[0-9]{10}  order_id=OD[0-9]+  → 503 \([0-9]+ ms\)$/);
    expect(line).toContain(`link_id=${failed.link_id}`);
    expect(line).toContain(`order_id=${failed.order_id}`);
    // The sandbox's delivery was acknowledged: the app's 503 made it retry nothing.
    expect(target.hits).toHaveLength(1);

    // The app goes away: the failure is shown and the listener carries on.
    await new Promise((r) => (target.server.closeAllConnections(), target.server.close(r)));
    servers = servers.filter((s) => s !== target.server);
    const settled = await trigger('PAYMENT_SETTLED');
    const settledLine = await waitFor('the settled line', () => l.stdout.text.split('\n').find((x) => x.includes(settled.settlement_id!)));
    expect(settledLine).toMatch(/PAYMENT_SETTLED +signed ✓  settlement_id=ST[0-9]{10}  → failed: connection refused/);

    expect(await l.stop()).toBe(0);
    expect(l.stderr.text).toMatch(/listener stopped; registration WH[0-9]{10} removed/);
    expect(JSON.parse((await pgw(['sandbox', 'webhook', 'list', '--json'])).stdout)).toEqual([]);
  });

  it('--events keeps only the events named, shown and forwarded', async () => {
    const target = await app(200);
    const l = await listen(['--events', 'payment_settled', '--forward-to', target.url, '--json'], true);
    expect(l.stderr.text).toContain('Listening for PAYMENT_SETTLED of merchant');
    const settled = await trigger('PAYMENT_SETTLED');
    await waitFor('the settled event', () => l.stdout.text.includes(settled.settlement_id!));
    await trigger('PAYMENT_SUCCESSFUL');
    const last = await trigger('PAYMENT_SETTLED');
    await waitFor('the second settled event', () => l.stdout.text.includes(last.settlement_id!));
    expect(await l.stop()).toBe(0);
    const printed = l.stdout.text.trim().split('\n').map((x) => JSON.parse(x).event_type);
    expect(printed).toEqual(['PAYMENT_SETTLED', 'PAYMENT_SETTLED']);
    expect(target.hits.map((h) => h.event)).toEqual(['PAYMENT_SETTLED', 'PAYMENT_SETTLED']);
    // --json prints what was received, byte for byte, and that is what the app got.
    expect(l.stdout.text.trim().split('\n')).toEqual(target.hits.map((h) => h.body));
  });
});

describe('pgw listen on a PSP profile', () => {
  it("registers for the PSP and receives its sub-merchants' events", async () => {
    const subs = JSON.parse((await pgw(['-p', 'local-psp', 'merchant', 'list', '--json'])).stdout) as { id: string }[];
    const l = await listen(['-p', 'local-psp', '--json'], false);
    const made = await trigger('PAYMENT_SUCCESSFUL', '-p', 'local-psp', '-m', subs[0]!.id);
    const line = await waitFor('the event', () => l.stdout.text.split('\n').find((x) => x.includes(made.payment_id!)));
    expect(JSON.parse(line)).toMatchObject({ event_type: 'PAYMENT_SUCCESSFUL', data: { payment_id: made.payment_id } });
    expect(await l.stop()).toBe(0);
  });
});

describe('bad input: exit 2, nothing registered', () => {
  it.each([
    [['--forward-to', 'ftp://example.com/x'], /--forward-to: .* must be an http or https address/],
    [['--events', 'PAYMENT_SETTLED,payment.captured'], /--events: "PAYMENT.CAPTURED" is not an event the sandbox sends: use PAYMENT_SUCCESSFUL, PAYMENT_FAILED, PAYMENT_SETTLED, PAYMENT_REFUNDED/],
    [['--events', 'payment_captured'], /--events: "PAYMENT_CAPTURED" is now PAYMENT_SUCCESSFUL/],
    [['--events', ' , '], /--events: give one or more event names/],
    [['--port', '70000'], /--port: "70000" is not a port number/],
  ])('listen %j', async (args, message) => {
    const r = await pgw(['listen', ...args, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(JSON.parse((await pgw(['sandbox', 'webhook', 'list', '--json'])).stdout)).toEqual([]);
  });

  it.each([
    [['NOPE'], /"NOPE" is not an event the sandbox sends/],
    [['PAYMENT_SETTLED', '--amount', '12.345'], /--amount: "12.345" is not an amount/],
    [['PAYMENT_SETTLED', '--mop', 'cash'], /--mop/],
  ])('trigger %j', async (args, message) => {
    const r = await pgw(['trigger', ...args, '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
