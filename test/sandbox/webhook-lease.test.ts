// The webhook delivery lease (outbox.ts claimDue) runs on the sandbox's own clock, and a clock move
// moves the leases with it (clock.ts): an attempt one process is making is neither freed for
// another process by `clock advance` nor pinned for a day by a clock set backwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/sandbox/store.js';
import { orderBody } from './harness.js';
import { orderCreateSchemaFor } from '../../src/api/schemas/orders.js';

const LEASE = 60_000_000; // 60 s, in microseconds
let dir: string;
let machine: number; // the base clock both stores run on (microseconds)
let a: Store;
let b: Store;
let merchantId: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-lease-'));
  machine = Date.parse('2026-11-25T10:00:00Z') * 1000;
  const opts = { micros: () => machine };
  a = openStore(join(dir, 'sandbox.db'), opts);
  b = openStore(join(dir, 'sandbox.db'), opts);
  merchantId = a.accounts().find((x) => !x.psp)!.merchant_id;
  a.addWebhook(merchantId, 'http://127.0.0.1:9/hook');
  // A paid order: its PAYMENT_SUCCESSFUL delivery is due at once.
  const order = a.createOrder(merchantId, orderCreateSchemaFor(3).parse(orderBody()) as never, '3.0.0');
  a.pay([merchantId], order.order_id, { outcome: 'success' } as never);
});
afterEach(() => {
  a.close();
  b.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the delivery lease is on the sandbox clock', () => {
  it('held against another process until its length of sandbox time has passed', () => {
    const claimed = a.claimDue(LEASE);
    expect(claimed.length).toBeGreaterThan(0);
    expect(b.claimDue(LEASE)).toEqual([]);
    machine += LEASE + 1;
    expect(b.claimDue(LEASE).map((d) => d.id)).toEqual(claimed.map((d) => d.id));
  });

  it('clock advance moves the lease with it: the attempt in flight is not handed to another process', () => {
    const claimed = a.claimDue(LEASE);
    expect(claimed.length).toBeGreaterThan(0);
    a.advanceClock({ all: true }, 3600);
    expect(b.claimDue(LEASE)).toEqual([]);
    machine += LEASE + 1;
    expect(b.claimDue(LEASE).map((d) => d.id)).toEqual(claimed.map((d) => d.id));
  });

  it('a clock set a day back does not pin the lease for a day', () => {
    const claimed = a.claimDue(LEASE);
    expect(claimed.length).toBeGreaterThan(0);
    a.setClock({ all: true }, machine - 86_400_000_000);
    expect(b.claimDue(LEASE)).toEqual([]);
    machine += LEASE + 1;
    // Due an attempt's time ago on the old clock, so due a day later on the new one: released and
    // due again only then, never lost.
    a.setClock({ all: true }, machine);
    expect(b.claimDue(LEASE).map((d) => d.id)).toEqual(claimed.map((d) => d.id));
  });
});
