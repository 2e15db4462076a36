// Issue 31: the sandbox's invariants (docs/sandbox.md, "Invariants") held through the real binary
// on the embedded sandbox, one example per defect the model-based test
// (test/robust/model-invariants.test.ts) found in combinations of operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnPgw } from '../helpers/spawn.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-invariants-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pgw(...args: string[]) {
  return spawnPgw(args, { env: { PGW_CONFIG_DIR: dir } });
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
    expect(await value('payment', 'get', p, '--query', 'settlement_status')).toBe('null');
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
    const run = (...args: string[]) => spawnPgw(args, { env: { PGW_CONFIG_DIR: own } });
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
