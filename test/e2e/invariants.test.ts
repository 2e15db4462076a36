// Issue 31: the sandbox's invariants (docs/sandbox.md, "Invariants") held through the command line
// (run in-process) on the embedded sandbox and a `sandbox serve` process, one example per defect
// the model-based test (test/robust/model-invariants.test.ts) found in combinations of operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { BIN, ROOT } from '../helpers/spawn.js';
import { pgwInProcess } from '../helpers/in-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-invariants-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pgw(...args: string[]) {
  return pgwInProcess(args, { env: { PGW_CONFIG_DIR: dir } });
}
async function value(...args: string[]): Promise<string> {
  const r = await pgw(...args);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout.trim();
}
async function json(...args: string[]): Promise<any> {
  return JSON.parse(await value(...args, '-o', 'json'));
}

/** A captured payment of 100.00 on the Simulator gateway. */
async function payment100(): Promise<string> {
  const sub = await value('sandbox', 'subscription', 'create', '--amount', '100', '--query', 'uid');
  return value('sub', 'simulate', sub, '--status', 'SUCCESS', '--query', 'payment_id');
}
const refund = (payment: string) => value('refund', 'create', payment, '--amount', '100', '--query', 'refund_id');
const simulate = (refundId: string, status: string) => pgw('refund', 'simulate', refundId, '--status', status);

async function refundStatuses(payment: string): Promise<string[]> {
  const p = await json('payment', 'get', payment);
  return p.refund.map((r: { refund_status: string }) => r.refund_status);
}

describe('I1: a refund never takes back more than was captured (item 1)', () => {
  it('FAILED, a second refund, then the first back to REFUNDED: refused, nothing changed', async () => {
    const p = await payment100();
    const r1 = await refund(p);
    expect((await simulate(r1, 'FAILED')).code).toBe(0);
    const r2 = await refund(p); // allowed: a failed refund gave nothing back
    const back = await simulate(r1, 'REFUNDED');
    expect(back.code).toBe(1);
    expect(back.stdout).toBe('');
    expect(back.stderr).toContain('ERR_REFUND_002');
    expect(back.stderr).toContain(`${r1} cannot become refunded`);
    expect(await refundStatuses(p)).toEqual(['failed', 'initiated']);
    // The second one may complete; the first stays failed.
    expect((await simulate(r2, 'REFUNDED')).code).toBe(0);
    expect(await refundStatuses(p)).toEqual(['failed', 'refunded']);
  });

  it('BANK_REJECTED_REFUND, a chargeback of the whole payment, then the refund back to REFUNDED: refused', async () => {
    const p = await payment100();
    const r1 = await refund(p);
    expect((await simulate(r1, 'BANK_REJECTED_REFUND')).code).toBe(0);
    await value('sandbox', 'chargeback', p, '--amount', '100', '--query', 'chargeback_id');
    const back = await simulate(r1, 'REFUNDED');
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('more than the 100.00 captured');
    expect(await refundStatuses(p)).toEqual(['bank_rejected_refund']);
  });

  it('a settled refund marked FAILED, a second refund, then the first refunded again: refused', async () => {
    const p = await payment100();
    const other = await payment100();
    const r1 = await refund(p);
    expect((await simulate(r1, 'REFUNDED')).code).toBe(0);
    await value('settle', 'mark', p, other, '--refund', r1, '--query', 'settlement_id');
    expect((await simulate(r1, 'FAILED')).code).toBe(0);
    const r2 = await refund(p);
    expect((await simulate(r2, 'REFUNDED')).code).toBe(0);
    expect((await simulate(r1, 'REFUNDED')).code).toBe(1);
    expect(await refundStatuses(p)).toEqual(['failed', 'refunded']);
  });

  it('a settlement is never negative: a fully refunded payment settled with its refund alone is refused', async () => {
    const p = await payment100();
    const r1 = await refund(p);
    const mark = await pgw('settle', 'mark', p, '--refund', r1);
    expect(mark.code).toBe(1);
    expect(mark.stderr).toContain('would settle -5.90');
    expect(await value('payment', 'get', p, '--query', 'settlement_status')).toBe('READY_FOR_SETTLEMENT');
    // The dry run predicts the same refusal.
    const dry = await pgw('settle', 'mark', p, '--refund', r1, '--dry-run');
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain('would settle -5.90');
    // With another payment in the batch it settles: 94.10 + 94.10 − 100.00.
    const other = await payment100();
    expect(await value('settle', 'mark', p, other, '--refund', r1, '--query', 'settlement_amount')).toBe('88.20');
  });
});

/** A receiver on loopback answering `status.now`, counting what it got. */
async function receiver(status: { now: number }): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits++;
      res.writeHead(status.now).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits: () => hits,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('I4: an event stays pending while a retry is due, and reads delivered once one got 200 (item 4)', () => {
  it('500, a resend that gets 500 too, then the receiver fixed and the retry made', async () => {
    const status = { now: 500 };
    const hook = await receiver(status);
    const own = mkdtempSync(join(tmpdir(), 'pgw-invariants-events-'));
    const run = (...args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: own } });
    const ok = async (...args: string[]) => {
      const r = await run(...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout.trim();
    };
    try {
      await ok('sandbox', 'webhook', 'add', hook.url);
      await ok('trigger', 'PAYMENT_SUCCESSFUL');
      const event = JSON.parse(await ok('events', 'list', '--limit', '1', '-o', 'json'))[0];
      expect(event.status).toBe('pending');
      expect(event.attempts).toBe(1);
      await run('events', 'resend', event.id); // the receiver answers 500 again
      expect(hook.hits()).toBe(2);
      const afterResend = JSON.parse(await ok('events', 'get', event.id, '-o', 'json'));
      expect(afterResend.status).toBe('pending');
      expect(afterResend.next_attempt_at).not.toBeNull();
      expect(JSON.parse(await ok('events', 'list', '--status', 'pending', '-o', 'json')).map((e: { id: string }) => e.id)).toContain(event.id);
      status.now = 200;
      await ok('sandbox', 'clock', 'advance', '2m');
      expect(hook.hits()).toBe(3);
      const delivered = JSON.parse(await ok('events', 'get', event.id, '-o', 'json'));
      expect(delivered.status).toBe('delivered');
      expect(delivered.next_attempt_at).toBeNull();
      // Delivered: no retry is made any more, however far the clock goes.
      await ok('sandbox', 'clock', 'advance', '2h');
      expect(hook.hits()).toBe(3);
    } finally {
      await hook.close();
      rmSync(own, { recursive: true, force: true });
    }
  });
});

interface Account {
  client_id: string;
  client_secret: string;
  merchant_id: string;
  psp: boolean;
}

/** `pgw sandbox serve` on a database of its own; pgw runs against it as either account. */
async function serveSandbox(): Promise<{ run: (who: Account, ...args: string[]) => ReturnType<typeof pgwInProcess>; merchant: Account; psp: Account; dbPath: string; stop: () => Promise<void> }> {
  const own = mkdtempSync(join(tmpdir(), 'pgw-invariants-serve-'));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', join(own, 'team.db'), '--json', '--quiet'], { cwd: ROOT, env: { ...clean, PGW_CONFIG_DIR: own } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const until = Date.now() + 20_000;
  while (!out.includes('\n')) {
    if (Date.now() > until || child.exitCode !== null) throw new Error('sandbox serve did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  const started = JSON.parse(out.split('\n')[0]!) as { base_url: string; accounts: Account[] };
  return {
    dbPath: join(own, 'team.db'),
    merchant: started.accounts.find((a) => !a.psp)!,
    psp: started.accounts.find((a) => a.psp)!,
    run: (who, ...args) =>
      pgwInProcess(args, { env: { PGW_CONFIG_DIR: own, PGW_BASE_URL: started.base_url, PGW_CLIENT_ID: who.client_id, PGW_CLIENT_SECRET: who.client_secret } }),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(own, { recursive: true, force: true });
    },
  };
}

describe('I3: a scoped restore gives back exactly the snapshot\'s accounts (items 2 and 3)', () => {
  let s: Awaited<ReturnType<typeof serveSandbox>>;
  const hooks: Awaited<ReturnType<typeof receiver>>[] = [];
  beforeAll(async () => {
    s = await serveSandbox();
  }, 30_000);
  afterAll(async () => {
    await s?.stop();
    for (const h of hooks) await h.close();
  });
  async function ok(who: Account, ...args: string[]): Promise<string> {
    const r = await s.run(who, ...args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout.trim();
  }
  const parsed = async (who: Account, ...args: string[]) => JSON.parse(await ok(who, ...args, '-o', 'json'));
  /** The account's newest event once its first attempt is recorded (at most 10 s). */
  async function firstAttempted(who: Account): Promise<{ id: string; attempts: number }> {
    const until = Date.now() + 10_000;
    for (;;) {
      const [event] = await parsed(who, 'events', 'list', '--limit', '1');
      if (event.attempts > 0 || Date.now() > until) return event;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('the merchant\'s pending retry survives a reset, another account\'s new deliveries and the restore, and is then made', async () => {
    const mine = { now: 500 };
    const mineHook = await receiver(mine);
    const theirs = await receiver({ now: 500 });
    hooks.push(mineHook, theirs);
    const { merchant, psp } = s;
    await ok(merchant, 'sandbox', 'webhook', 'add', mineHook.url);
    await ok(merchant, 'trigger', 'PAYMENT_SUCCESSFUL');
    await ok(merchant, 'sandbox', 'clock', 'advance', '2m');
    const [event] = await parsed(merchant, 'events', 'list', '--limit', '1');
    expect([event.status, event.attempts]).toEqual(['pending', 2]);
    await ok(merchant, 'sandbox', 'snapshot', 'save', 's1');
    await ok(merchant, 'sandbox', 'reset', '--yes');

    const subs = await parsed(psp, 'merchant', 'list');
    await ok(psp, 'sandbox', 'webhook', 'add', theirs.url);
    await ok(psp, '-m', subs[0].id, 'trigger', 'PAYMENT_SUCCESSFUL');
    // The served sandbox delivers after it answers, as the gateway does: wait for the first attempt.
    const pspEvent = await firstAttempted(psp);
    expect(pspEvent.attempts).toBe(1);

    await ok(merchant, 'sandbox', 'snapshot', 'restore', 's1', '--yes');
    const restored = await parsed(merchant, 'events', 'get', event.id);
    expect([restored.status, restored.attempts, restored.deliveries[0].attempts.length]).toEqual(['pending', 2, 2]);
    const pspAfter = await parsed(psp, 'events', 'get', pspEvent.id);
    expect(pspAfter.attempts).toBe(1);
    expect(pspAfter.deliveries.map((d: { url: string }) => d.url)).toEqual([theirs.url]);

    // The retry is made when it falls due, and settles the event.
    mine.now = 200;
    const before = mineHook.hits();
    await ok(merchant, 'sandbox', 'clock', 'advance', '5m');
    expect(mineHook.hits()).toBe(before + 1);
    expect((await parsed(merchant, 'events', 'get', event.id)).status).toBe('delivered');
  }, 60_000);

  it('a sub-merchant\'s snapshot: refused while acting for its sibling; restored by the PSP, it touches nothing else', async () => {
    const { psp } = s;
    const [one, two] = (await parsed(psp, 'merchant', 'list')).map((m: { id: string }) => m.id);
    // The second seeded sub-merchant is PENDING: only an APPROVED one takes payments (issue 45).
    await ok(psp, 'sandbox', 'merchant', 'kyc', two, 'APPROVED');
    const payOne = await ok(psp, '-m', one, 'trigger', 'PAYMENT_SUCCESSFUL', '--query', 'payment_id');
    const payTwo = await ok(psp, '-m', two, 'trigger', 'PAYMENT_SUCCESSFUL', '--query', 'payment_id');
    await ok(psp, '-m', one, 'sandbox', 'snapshot', 'save', 'only-s1');
    const later = await ok(psp, '-m', one, 'trigger', 'PAYMENT_SUCCESSFUL', '--query', 'payment_id');
    const hooksBefore = await parsed(psp, 'sandbox', 'webhook', 'list');

    const refused = await s.run(psp, '-m', two, 'sandbox', 'snapshot', 'restore', 'only-s1', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ERR_SNAPSHOT_005');
    expect(await ok(psp, '-m', two, 'payment', 'get', payTwo, '--query', 'status')).toBe('captured');

    await ok(psp, 'sandbox', 'snapshot', 'restore', 'only-s1', '--yes');
    expect(await ok(psp, '-m', two, 'payment', 'get', payTwo, '--query', 'status')).toBe('captured');
    expect(await ok(psp, '-m', one, 'payment', 'get', payOne, '--query', 'status')).toBe('captured');
    expect((await s.run(psp, '-m', one, 'payment', 'get', later)).code).toBe(5);
    expect(await parsed(psp, 'sandbox', 'webhook', 'list')).toEqual(hooksBefore);
  }, 60_000);
});

describe('I2: each account tree has its own sandbox clock (item 5)', () => {
  let s: Awaited<ReturnType<typeof serveSandbox>>;
  beforeAll(async () => {
    s = await serveSandbox();
  }, 30_000);
  afterAll(() => s?.stop());
  async function ok(who: Account, ...args: string[]): Promise<string> {
    const r = await s.run(who, ...args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout.trim();
  }
  const linkArgs = ['--amount', '100', '--buyer-name', 'Asha', '--buyer-email', 'asha@example.com', '--buyer-phone', '+919876543210', '--address-line1', '12 MG Road', '--city', 'Bengaluru', '--state', 'Karnataka', '--postal-code', '560001', '--product-name', 'Scarf', '--product-description', 'Silk', '--goods', 'physical_goods', '--invoice-number', 'INV1', '--expires-in', '7d'];

  it("a merchant's clock advance neither moves a PSP's time, expires its 7-day link nor fires its PAYMENT_FAILED; --all moves both", async () => {
    const { merchant, psp } = s;
    const sub = await ok(psp, 'merchant', 'list', '--query', '[0].id');
    const link = await ok(psp, '-m', sub, 'link', 'create', ...linkArgs, '--reference-id', 'clock-1', '--query', 'link_id');
    const pspBefore = Date.parse(await ok(psp, 'sandbox', 'clock', '--query', 'now'));

    await ok(merchant, 'sandbox', 'clock', 'advance', '8d');
    const merchantNow = Date.parse(await ok(merchant, 'sandbox', 'clock', '--query', 'now'));
    const pspNow = Date.parse(await ok(psp, 'sandbox', 'clock', '--query', 'now'));
    expect(merchantNow - pspNow).toBeGreaterThan(7.9 * 86_400_000);
    expect(pspNow - pspBefore).toBeLessThan(60_000);
    expect(await ok(psp, '-m', sub, 'link', 'get', link, '--query', 'status')).toBe('active');
    expect(await ok(psp, 'events', 'list', '--type', 'PAYMENT_FAILED', '--query', 'length(@)')).toBe('0');

    // The machine that holds the file moves every clock: the PSP's link expires on its own clock.
    const all = await s.run(psp, 'sandbox', 'clock', 'advance', '8d', '--all', '--db', s.dbPath, '-o', 'json');
    expect(all.code, all.stderr).toBe(0);
    // issue 42: a move with --all answers every clock after it and what it caused (the link it expired).
    const moved = JSON.parse(all.stdout);
    expect(moved.clocks.length).toBeGreaterThan(0);
    expect(moved.caused.links_expired.map((l: { link_id: string }) => l.link_id)).toContain(link);
    expect(await ok(psp, '-m', sub, 'link', 'get', link, '--query', 'status')).toBe('expired');
    expect(await ok(psp, 'events', 'list', '--type', 'PAYMENT_FAILED', '--query', 'length(@)')).toBe('1');
    expect(Date.parse(await ok(merchant, 'sandbox', 'clock', '--query', 'now')) - merchantNow).toBeGreaterThan(7.9 * 86_400_000);
  }, 60_000);

  it('--all is refused over HTTP: it belongs to the machine that holds the database', async () => {
    const r = await s.run(s.merchant, 'sandbox', 'clock', 'advance', '1h', '--all');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--db <file>');
  });
});

describe('I5: the sandbox clock stays in the calendar (item 6)', () => {
  it('set near the end of 9999, then an advance past it: exit 2, the clock unchanged; set before 1970: exit 2', async () => {
    const own = mkdtempSync(join(tmpdir(), 'pgw-invariants-calendar-'));
    const run = (...args: string[]) => pgwInProcess(args, { env: { PGW_CONFIG_DIR: own } });
    try {
      expect((await run('sandbox', 'clock', 'set', '9999-12-31T23:00:00Z')).code).toBe(0);
      const far = await run('sandbox', 'clock', 'advance', '3660d');
      expect(far.code).toBe(2);
      expect(far.stderr).toContain('would pass 9999-12-31T23:59:59Z');
      expect((await run('sandbox', 'clock', 'advance', '3660d', '--all')).code).toBe(2);
      const now = (await run('sandbox', 'clock', '--query', 'now')).stdout.trim();
      expect(now.startsWith('9999-12-31T23:')).toBe(true);
      // Everything still works at the end of the calendar.
      expect((await run('trigger', 'PAYMENT_SUCCESSFUL')).code).toBe(0);
      expect((await run('sandbox', 'clock', 'set', '1969-12-31T23:59:59Z')).code).toBe(2);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});
