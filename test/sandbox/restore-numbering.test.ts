// Issue 31 item 2 (I3): deliveries and attempts are numbered rows. Since migration 9 a number is
// never handed out twice; a snapshot saved before it may still hold a number that a reset handed
// out again to another account's row. A scoped restore then renumbers the snapshot's rows instead
// of skipping them (the old INSERT OR IGNORE dropped the caller's pending delivery and grafted its
// attempt onto the other account's event).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';
import { openRaw } from '../helpers/sqlite.js';
import { MIGRATIONS } from '../../src/sandbox/migrations.js';
import { Db } from '../../src/sandbox/db.js';

let h: Harness | undefined;
let hook: Server | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await new Promise((r) => (hook ? (hook.closeAllConnections(), hook.close(r)) : r(undefined)));
  hook = undefined;
});

async function failingReceiver(): Promise<string> {
  hook = createServer((req, res) => req.resume().on('end', () => res.writeHead(500).end()));
  await new Promise<void>((r) => hook!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
}

async function eventOf(as: 'merchant' | 'psp', headers: Record<string, string> = {}) {
  for (let i = 0; i < 200; i++) {
    const list = await h!.call('GET', '/sandbox/events/?limit=1', { as, headers });
    const e = list.body.data[0];
    if (e && e.attempts > 0) return (await h!.call('GET', `/sandbox/events/${e.id}/`, { as, headers })).body.data;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no attempt was made');
}

describe('a scoped restore never loses or grafts a delivery', () => {
  it('a snapshot row whose number another account now holds is renumbered, with its attempts', async () => {
    h = await startHarness();
    const url = await failingReceiver();
    expect((await h.call('POST', '/sandbox/webhooks/', { body: { url } })).status).toBe(200);
    await paidOrder(h, '100.00');
    const mine = await eventOf('merchant');
    expect((await h.call('POST', '/sandbox/snapshots/', { body: { name: 's1' } })).status).toBe(200);
    expect((await h.call('POST', '/sandbox/reset/')).status).toBe(200);

    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string }[];
    const sub = { 'x-merchant-id': subs[0]!.id };
    expect((await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: `${url}/psp` } })).status).toBe(200);
    await paidOrder(h, '200.00', { as: 'psp', headers: sub });
    const theirs = await eventOf('psp');

    // Play a database from before migration 9: the PSP's rows got the numbers the merchant's had.
    const raw = openRaw(h.dbPath);
    try {
      raw.exec('PRAGMA foreign_keys = OFF');
      const snap = openRaw(`${h.dbPath}-snapshots/accounts/${h.merchant.merchant_id}/s1.db`);
      const old = snap.prepare('SELECT d.id AS d, a.id AS a FROM deliveries d JOIN attempts a ON a.delivery_id = d.id').get() as { d: number; a: number };
      snap.close();
      const now = raw.prepare('SELECT d.id AS d, a.id AS a FROM deliveries d JOIN attempts a ON a.delivery_id = d.id').get() as { d: number; a: number };
      raw.prepare('UPDATE attempts SET id = ?, delivery_id = ? WHERE id = ?').run(old.a, old.d, now.a);
      raw.prepare('UPDATE deliveries SET id = ? WHERE id = ?').run(old.d, now.d);
    } finally {
      raw.close();
    }

    expect((await h.call('POST', '/sandbox/snapshots/s1/restore/', {})).status).toBe(200);
    const back = (await h.call('GET', `/sandbox/events/${mine.id}/`)).body.data;
    expect(back.status).toBe('pending');
    expect(back.deliveries.map((d: { url: string; attempts: unknown[] }) => [d.url, d.attempts.length])).toEqual([[url, 1]]);
    const other = (await h.call('GET', `/sandbox/events/${theirs.id}/`, { as: 'psp' })).body.data;
    expect(other.deliveries.map((d: { url: string; attempts: unknown[] }) => [d.url, d.attempts.length])).toEqual([[`${url}/psp`, 1]]);
  });
});

describe('migration 9', () => {
  it('keeps every delivery and attempt, and never hands a number out again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgw-m9-'));
    const path = join(dir, 'old.db');
    try {
      const raw = openRaw(path);
      for (const m of MIGRATIONS.slice(0, 8)) raw.exec(m);
      raw.exec('PRAGMA user_version = 8');
      raw.exec(`INSERT INTO merchants (merchant_id, brand_name, kyc_status, created_at, updated_at) VALUES ('1', 'M', 'APPROVED', 'x', 'x');
        INSERT INTO events (id, sequence_number, event_type, merchant_id, created_at, body) VALUES ('EV1', 's', 'PAYMENT_SUCCESSFUL', '1', 'x', '{}');
        INSERT INTO deliveries (id, event_id, url, signer_id, max_attempts, first_at, state) VALUES (7, 'EV1', 'http://h/', '1', 5, 0, 'failed');
        INSERT INTO attempts (id, delivery_id, n, at, status, ms) VALUES (9, 7, 1, 'x', 500, 3);`);
      raw.close();
      const db = new Db(path);
      try {
        expect(db.all('SELECT id, event_id, state FROM deliveries')).toEqual([{ id: 7, event_id: 'EV1', state: 'failed' }]);
        expect(db.all('SELECT id, delivery_id, status FROM attempts')).toEqual([{ id: 9, delivery_id: 7, status: 500 }]);
        db.write(() => {
          db.run('DELETE FROM deliveries'); // the attempt goes with it (ON DELETE CASCADE still holds)
          expect(db.all('SELECT id FROM attempts')).toEqual([]);
          db.run("INSERT INTO deliveries (event_id, url, signer_id, max_attempts, first_at, state) VALUES ('EV1', 'http://h/', '1', 5, 0, 'pending')");
        });
        expect(db.get<{ id: number }>('SELECT id FROM deliveries')!.id).toBe(8);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
