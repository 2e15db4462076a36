// Issue 45 item 1: the forwarding rule of `pgw listen`, every placement of the apps' registrations
// (none, the PSP, either sub-merchant, and their combinations) under a PSP's listener and a
// sub-merchant's at once: whatever the placement, each app gets every event that reaches it
// exactly once (from the sandbox, or from its listener), and none that does not. In-process
// against one embedded sandbox; the listener as a process is test/e2e/listen-exactly-once.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/main.js';
import { runCli, tempConfigDir } from '../../helpers/run.js';

let config: { dir: string; cleanup: () => void };
let servers: Server[] = [];
const env = () => ({ PGW_CONFIG_DIR: config.dir, NO_COLOR: '1' });
async function json(argv: string[]): Promise<any> {
  const r = await runCli([...argv, '--json'], { env: env() });
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

type Who = 'P' | 'S1' | 'S2';
const ids = {} as Record<Who, string>;
/** How each account is acted for: the PSP's profile, narrowed with -m for a sub-merchant. */
const as = (who: Who) => ['-p', 'local-psp', ...(who === 'P' ? [] : ['-m', ids[who]])];
let subscription = '';

/** An app that records the sequence_number of every event it is sent. */
async function app(): Promise<{ url: string; got: string[] }> {
  const got: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push(JSON.parse(body).sequence_number as string);
      res.writeHead(200).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

/** `pgw listen --forward-to <url>` in this process, until stop(): its stderr kept. */
async function listen(who: Who, forwardTo: string): Promise<{ err: () => string; stop: () => Promise<number> }> {
  const stop = new AbortController();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const stdout = new PassThrough().resume();
  const done = run([...as(who), 'listen', '--forward-to', forwardTo], { env: env(), stdin: new PassThrough(), stdout, stderr, signal: stop.signal });
  for (const until = Date.now() + 10_000; !err.includes('Press Ctrl-C'); ) {
    if (Date.now() > until) throw new Error(`the listener did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { err: () => err, stop: () => (stop.abort('SIGTERM'), done) };
}

beforeAll(async () => {
  config = tempConfigDir();
  const subs = await json(['-p', 'local-psp', 'merchant', 'list']);
  [ids.S1, ids.S2] = [subs[0].id, subs[1].id];
  ids.P = (await json(['-p', 'local-psp', 'sandbox', 'webhook', 'add', 'http://127.0.0.1:9/never'])).merchant_id;
  await json(['-p', 'local-psp', 'sandbox', 'webhook', 'remove', (await json(['-p', 'local-psp', 'sandbox', 'webhook', 'list']))[0].id]);
  // Only an APPROVED sub-merchant takes payments (item 4): the seeded second one is PENDING.
  await json(['-p', 'local-psp', 'sandbox', 'merchant', 'kyc', ids.S2, 'APPROVED']);
  subscription = (await json(['-p', 'local-psp', 'sandbox', 'subscription', 'create', '--amount', '10.00'])).uid;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  servers = [];
  config.cleanup();
});

/** One event of each account: the PSP's own (a subscription charge), and one per sub-merchant. */
async function oneEventEach(): Promise<Record<Who, string>> {
  const before = new Set((await json(['-p', 'local-psp', 'events', 'list'])).map((e: { id: string }) => e.id));
  await json(['-p', 'local-psp', 'sub', 'simulate', subscription, '--status', 'SUCCESS']);
  await json([...as('S1'), 'trigger', 'PAYMENT_FAILED']);
  await json([...as('S2'), 'trigger', 'PAYMENT_FAILED']);
  // Every address the sandbox sent them to has answered (the listeners acknowledge at once).
  for (const until = Date.now() + 10_000; ; ) {
    const fresh = (await json(['-p', 'local-psp', 'events', 'list'])).filter((e: { id: string }) => !before.has(e.id));
    if (fresh.length === 3 && fresh.every((e: { status: string }) => e.status === 'delivered' || e.status === 'no_address')) {
      const of = (who: Who) => fresh.find((e: { merchant_id: string }) => e.merchant_id === ids[who]).sequence_number as string;
      return { P: of('P'), S1: of('S1'), S2: of('S2') };
    }
    if (Date.now() > until) throw new Error(`the events were not delivered: ${JSON.stringify(fresh)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** vendor 1.1: an event of a sub-merchant goes to its own registrations and its PSP's. */
const reaches = (registered: readonly Who[], of: Who) => registered.includes(of) || (of !== 'P' && registered.includes('P'));

const PLACEMENTS: Who[][] = [[], ['P'], ['S1'], ['S2'], ['P', 'S1'], ['P', 'S2'], ['S1', 'S2'], ['P', 'S1', 'S2']];

describe('the forwarding rule, per event, from the registrations that receive it', () => {
  it.each(PLACEMENTS.map((p) => [p.join('+') || 'nowhere', p] as const))('apps registered on %s: each app gets each event once, or never', async (_name, placed) => {
    // Two apps, one behind the PSP's listener (its own and every sub-merchant's events), one behind
    // S1's (S1's events); each app registered on the accounts placed, spelled localhost on S2.
    const [pspApp, subApp] = [await app(), await app()];
    const hooks: { who: Who; id: string }[] = [];
    for (const who of placed) {
      for (const a of [pspApp, subApp]) hooks.push({ who, id: (await json([...as(who), 'sandbox', 'webhook', 'add', who === 'S2' ? a.url.replace('127.0.0.1', 'localhost') : a.url])).id });
    }
    const listeners = [await listen('P', pspApp.url), await listen('S1', subApp.url)];
    const seq = await oneEventEach();
    const codes = [await listeners[0]!.stop(), await listeners[1]!.stop()];
    expect(codes).toEqual([0, 0]);
    for (const who of ['P', 'S1', 'S2'] as const) {
      // The PSP's listener receives every event: its app gets each exactly once.
      expect(pspApp.got.filter((s) => s === seq[who]), `the PSP's app, ${who}'s event`).toHaveLength(1);
      // S1's listener receives S1's: the rest reach its app only through a registration.
      const want = who === 'S1' || reaches(placed, who) ? 1 : 0;
      expect(subApp.got.filter((s) => s === seq[who]), `S1's app, ${who}'s event`).toHaveLength(want);
    }
    // Said at start: the PSP's listener names what it will not forward, and why.
    if (placed.length > 0) expect(listeners[0]!.err()).toMatch(/except events of:|not forwarding to .* now/);
    else expect(listeners[0]!.err()).toContain(`  forwarding to ${pspApp.url}\n`);
    for (const h of hooks) await json([...as(h.who), 'sandbox', 'webhook', 'remove', h.id]);
  });

  it("two listeners forwarding to one app (the PSP's and S1's): it gets each event once", async () => {
    const one = await app();
    const listeners = [await listen('P', one.url), await listen('S1', one.url)];
    expect(listeners[1]!.err()).toMatch(new RegExp(`    ${ids.S1}  listener WH[0-9]{10} forwards them`));
    const seq = await oneEventEach();
    for (const l of listeners) expect(await l.stop()).toBe(0);
    expect(one.got.sort()).toEqual([seq.P, seq.S1, seq.S2].sort());
  });
});
