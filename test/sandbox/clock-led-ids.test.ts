// Order ids and session ids led by the sandbox clock (src/sandbox/ids.ts, issue 23): ids of one
// database increase with its clock, so the indexes that hold them append; and every id is still
// claimed, so none is handed out twice: not by two connections on one file, not after the clock
// moved back, not after reset, not where an older pgw drew one at random.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/sandbox/store.js';
import { orderCreateSchemaFor } from '../../src/api/schemas/orders.js';
import { linkCreateSchema } from '../../src/api/schemas/links.js';
import { orderBody } from './harness.js';

const SECOND = 1_000_000;
const START = Date.parse('2026-11-27T05:00:00Z') * 1000; // sandbox time, epoch microseconds
const START_SECONDS = START / SECOND;

let dir: string;
let machine: number;
let stores: Store[];
let merchantId: string;

const open = (): Store => {
  const s = openStore(join(dir, 'sandbox.db'), { micros: () => machine });
  stores.push(s);
  return s;
};
const create = (s: Store, over: Record<string, unknown> = {}) => s.createOrder(merchantId, orderCreateSchemaFor(3).parse(orderBody(over)) as never, '3.0.0');
const number = (orderId: string) => Number(orderId.slice(2));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-clock-ids-'));
  machine = START;
  stores = [];
  merchantId = open().accounts().find((x) => !x.psp)!.merchant_id;
});
afterEach(() => {
  for (const s of stores) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('order ids follow the sandbox clock', () => {
  it('OD + the clock second (10 digits) + a count within it (4 digits), increasing', () => {
    const s = stores[0]!;
    const first = create(s).order_id;
    expect(first).toBe(`OD${START_SECONDS}0000`);
    expect(create(s).order_id).toBe(`OD${START_SECONDS}0001`);
    machine += 3 * SECOND;
    expect(create(s).order_id).toBe(`OD${START_SECONDS + 3}0000`);
    // The sandbox clock, not the machine's: an advance of a day moves the ids with it.
    s.advanceClock({ all: true }, 86_400);
    expect(create(s).order_id).toBe(`OD${START_SECONDS + 3 + 86_400}0000`);
  });

  it('a payment link order takes one the same way', () => {
    const s = stores[0]!;
    create(s);
    const body = {
      amount: '10.00',
      reference_id: 'link-ref-1',
      buyer: { name: 'A B', email: 'a@example.com', phone: '+919876543210', address: { line_1: 'x', city: 'y', state: 'z', postal_code: '560001' } },
      product: { name: 'P', description: 'a P', type_of_goods: 'digital_goods' },
      invoice: { number: 'INV1' },
    };
    const link = s.createPaymentLink(merchantId, linkCreateSchema.parse(body), START + 86_400 * SECOND, '3.0.0', 'http://127.0.0.1:4010') as { link_id: string };
    const orderId = s.db.get<{ order_id: string }>('SELECT order_id FROM links WHERE link_id = ?', link.link_id)!.order_id;
    expect(orderId).toBe(`OD${START_SECONDS}0001`);
  });

  it('more than 10,000 in one second run ahead of the clock, still 14 digits and increasing', () => {
    const s = stores[0]!;
    // Claimed as a process that had already made 10,000 this second would have.
    s.db.write(() => {
      for (let i = 0; i < 10_000; i++) s.db.run('INSERT INTO ids(id) VALUES (?)', `OD${START_SECONDS}${String(i).padStart(4, '0')}`);
    });
    expect(create(s).order_id).toBe(`OD${START_SECONDS + 1}0000`);
  });

  it('never hands out an id again once the clock has moved back, nor after reset --all in a new process', () => {
    const s = stores[0]!;
    const made = [create(s).order_id, create(s).order_id];
    s.setClock({ all: true }, START - 60 * SECOND);
    const after = create(s).order_id;
    expect(made).not.toContain(after);
    expect(number(after)).toBeGreaterThan(number(made[1]!));
    s.reset();
    s.setClock({ all: true }, START);
    // A new connection knows nothing of what this one handed out: the claims in `ids` do.
    const other = open();
    const again = [create(other).order_id, create(other).order_id, create(other).order_id];
    for (const id of again) expect([...made, after]).not.toContain(id);
    expect(again[0]).toMatch(new RegExp(`^OD${START_SECONDS}[0-9]{4}$`));
  });

  it('two connections on one file at the same clock interleave without a clash, jumping a claimed run in one look', () => {
    const [a] = stores as [Store];
    const b = open();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(create(a).order_id, create(b).order_id);
    expect(new Set(ids).size).toBe(40);
    for (const id of ids) expect(id).toMatch(new RegExp(`^OD${START_SECONDS}00[0-9]{2}$`));
    // A run of 500 ids claimed by another process: a new connection lands just past it.
    a.db.write(() => {
      for (let i = 100; i < 600; i++) a.db.run('INSERT INTO ids(id) VALUES (?)', `OD${START_SECONDS}${String(i).padStart(4, '0')}`);
    });
    const c = open();
    // c starts at the second's first number: taken (a's), so it jumps to past the highest nearby claim.
    expect(create(c).order_id).toBe(`OD${START_SECONDS}0600`);
  });

  it('skips an id an older pgw drew at random and claimed', () => {
    const s = stores[0]!;
    s.db.write(() => s.db.run('INSERT INTO ids(id) VALUES (?)', `OD${START_SECONDS}0000`));
    expect(create(s).order_id).toBe(`OD${START_SECONDS}0001`);
  });

  it('a clock set past the year 2286 falls back to 14 random digits, claimed the same way', () => {
    const s = stores[0]!;
    s.setClock({ all: true }, Date.parse('2300-01-01T00:00:00Z') * 1000);
    const id = create(s).order_id;
    expect(id).toMatch(/^OD[0-9]{14}$/);
    expect(s.db.get<{ n: number }>('SELECT count(*) AS n FROM ids WHERE id = ?', id)!.n).toBe(1);
  });
});

describe('session ids follow the sandbox clock', () => {
  it('64 lowercase hex: 16 of the sandbox clock in microseconds, then 48 random', () => {
    const s = stores[0]!;
    const a = create(s);
    machine += 7;
    const b = create(s);
    for (const o of [a, b]) expect(o.session_id).toMatch(/^[0-9a-f]{64}$/);
    const clockOf = (sessionId: string) => parseInt(sessionId.slice(0, 16), 16);
    expect(clockOf(a.session_id!)).toBe(Date.parse(a.created_at) * 1000 + Number(a.created_at.slice(23, 26)));
    expect(clockOf(b.session_id!) - clockOf(a.session_id!)).toBe(7);
    expect(a.session_id! < b.session_id!).toBe(true);
    expect(a.session_id!.slice(16)).not.toBe(b.session_id!.slice(16));
    // Sessions of one clock reading still differ: the random part tells them apart.
    const c = create(s);
    expect(c.session_id!.slice(0, 16)).toBe(b.session_id!.slice(0, 16));
    expect(c.session_id).not.toBe(b.session_id);
  });

  it('an S2S UPI intent order gets a clock-led session too', () => {
    const s = stores[0]!;
    const intent = create(s, { collection_mode: 's2s', mop_type: 'upi', upi_flow_type: 'intent', buyer: { ...(orderBody().buyer as object), ip_address: '203.0.113.1', user_agent: 'x' } });
    expect(intent.session_id!.slice(0, 16)).toBe(START.toString(16).padStart(16, '0'));
  });
});
