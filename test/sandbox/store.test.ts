import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Db, WAL_AUTOCHECKPOINT, stamp } from '../../src/sandbox/db.js';
import { MIGRATIONS, migrate } from '../../src/sandbox/migrations.js';
import { openStore } from '../../src/sandbox/store.js';
import { openRaw, pragmaValue } from '../helpers/sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'pgw-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('connection settings', () => {
  it('WAL, busy_timeout and synchronous=NORMAL on every connection', () => {
    const db = new Db(join(dir, 'pragmas.db'));
    try {
      expect(db.pragma('journal_mode')).toBe('wal');
      expect(db.pragma('busy_timeout')).toBe(5000);
      expect(db.pragma('synchronous')).toBe(1);
      expect(db.pragma('user_version')).toBe(MIGRATIONS.length);
      expect(db.pragma('foreign_keys')).toBe(1);
      // Checkpoints less often than SQLite's 1000 pages (issue 23: create throughput).
      expect(db.pragma('wal_autocheckpoint')).toBe(WAL_AUTOCHECKPOINT);
      expect(WAL_AUTOCHECKPOINT).toBeGreaterThan(1000);
    } finally {
      db.close();
    }
  });

  it('prepares each statement once', () => {
    const db = new Db(join(dir, 'stmts.db'));
    try {
      expect(db.stmt('SELECT 1')).toBe(db.stmt('SELECT 1'));
    } finally {
      db.close();
    }
  });

  it('migrations apply once and refuse a newer schema', () => {
    const path = join(dir, 'migrate.db');
    new Db(path).close();
    const raw = openRaw(path);
    try {
      migrate(raw); // already current: nothing to do
      expect(pragmaValue(raw, 'user_version')).toBe(MIGRATIONS.length);
      raw.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
      expect(() => migrate(raw)).toThrow(/newer than this pgw/);
    } finally {
      raw.close();
    }
  });
});

describe('timestamps and identifiers', () => {
  it('UTC with microseconds', () => {
    expect(stamp(Date.parse('2026-11-21T10:00:00.123Z') * 1000 + 456)).toBe('2026-11-21T10:00:00.123456Z');
    expect(stamp(0)).toBe('1970-01-01T00:00:00.000000Z');
  });

  it('identifier forms of spec 2.6-2.9', () => {
    const store = openStore(join(dir, 'ids.db'));
    try {
      const [merchant] = store.accounts();
      const seeded = store.seed(merchant!.merchant_id);
      expect(seeded.orders.every((id) => /^OD[0-9]+$/.test(id))).toBe(true);
      expect(seeded.payments.every((id) => /^PR[0-9]{10}$/.test(id))).toBe(true);
      expect(seeded.settlement_id).toMatch(/^ST[0-9]{10}$/);
      expect(seeded.link_id).toMatch(/^PR[0-9]{10}$/);
      expect(seeded.refunds[0]).toMatch(/^RF[0-9]{10}$/);
      expect(merchant!.merchant_id).toMatch(/^[1-9][0-9]{9}$/);
    } finally {
      store.close();
    }
  });

  it('a write that fails leaves nothing behind and sends no event', () => {
    const events: unknown[] = [];
    const store = openStore(join(dir, 'atomic.db'), { onEvent: (e) => events.push(e) });
    try {
      const [merchant] = store.accounts();
      const seeded = store.seed(merchant!.merchant_id, 2);
      expect(events).toEqual([]); // seeding is silent
      expect(() => store.markSettled([merchant!.merchant_id], { payment_uids: [seeded.payments[0]!, 'PR0'], refund_uids: [], chargeback_uids: [] })).toThrow();
      expect(events).toEqual([]);
      expect(store.payment([merchant!.merchant_id], seeded.payments[0]!).settlement).toBeNull();
      store.markSettled([merchant!.merchant_id], { payment_uids: [seeded.payments[0]!], refund_uids: [], chargeback_uids: [] });
      expect(events).toHaveLength(1);
    } finally {
      store.close();
    }
  });
});
