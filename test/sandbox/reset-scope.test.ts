// Issue 21 item 6: over HTTP, reset empties the caller's own data (a PSP's includes its
// sub-merchants), never another account's; the whole database only through the file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';
import { openRaw } from '../helpers/sqlite.js';
import { openStore } from '../../src/sandbox/store.js';
import { subMerchantBody } from './fixtures/merchant-body.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

async function world() {
  const merchant = (await h.call('POST', '/sandbox/seed/', { body: { payments: 2 } })).body.data.payments as string[];
  const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string }[];
  const sub = (await h.call('POST', '/sandbox/seed/', { as: 'psp', headers: { 'x-merchant-id': subs[0]!.id }, body: { payments: 2 } })).body.data.payments as string[];
  const own = (await h.call('POST', '/sandbox/seed/', { as: 'psp', body: { payments: 1 } })).body.data.payments as string[];
  const created = await h.call('POST', '/partners/merchants/', { as: 'psp', body: subMerchantBody('Acme') });
  expect(created.status).toBe(201);
  const hook = await h.call('POST', '/sandbox/webhooks/', { body: { url: 'http://127.0.0.1:9/m' } });
  const pspHook = await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: 'http://127.0.0.1:9/p' } });
  const listener = await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: 'http://127.0.0.1:9/l', listener: true } });
  return { merchant, sub, own, subs, createdId: created.body.data.id as string, hook: hook.body.data.id, pspHook: pspHook.body.data.id, listener: listener.body.data.id };
}

const status = async (id: string, as: 'merchant' | 'psp') => (await h.call('GET', `/pg/payments/${id}/`, { as })).status;

describe('POST /sandbox/reset/ over HTTP (issue 21 item 6)', () => {
  it("a merchant's reset empties its own data and leaves the PSP's and its sub-merchants' alone", async () => {
    const w = await world();
    const r = await h.call('POST', '/sandbox/reset/', {});
    expect(r.body.data).toEqual({ reset: true, merchant_ids: [h.merchant.merchant_id] });
    for (const id of w.merchant) expect(await status(id, 'merchant')).toBe(404);
    for (const id of [...w.sub, ...w.own]) expect(await status(id, 'psp')).toBe(200);
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data;
    expect(subs.count).toBe(3);
    const hooks = (await h.call('GET', '/sandbox/webhooks/', { as: 'psp' })).body.data.map((x: { id: string }) => x.id);
    expect(hooks).toEqual(expect.arrayContaining([w.pspHook, w.listener]));
    expect((await h.call('GET', '/sandbox/webhooks/')).body.data).toEqual([]);
  });

  it("a PSP's reset empties its own and its sub-merchants' data, deletes the sub-merchants it created, keeps the merchant's", async () => {
    const w = await world();
    const preview = (await h.call('GET', '/sandbox/reset/', { as: 'psp' })).body.data;
    expect(preview.merchants.map((m: { merchant_id: string }) => m.merchant_id)).toEqual(expect.arrayContaining([h.psp.merchant_id, w.subs[0]!.id, w.createdId]));
    expect(preview.merchants.find((m: { merchant_id: string }) => m.merchant_id === w.createdId).deleted).toBe(true);
    expect(preview.merchants.find((m: { merchant_id: string }) => m.merchant_id === h.psp.merchant_id).deleted).toBe(false);
    expect(preview.counts).toMatchObject({ orders: 3, payments: 3, webhooks: 1 });

    const r = await h.call('POST', '/sandbox/reset/', { as: 'psp' });
    expect(r.status).toBe(200);
    for (const id of [...w.sub, ...w.own]) expect(await status(id, 'psp')).toBe(404);
    for (const id of w.merchant) expect(await status(id, 'merchant')).toBe(200);
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data;
    expect(subs.results.map((s: { id: string }) => s.id)).toEqual(w.subs.map((s) => s.id));
    // The running listener's registration stays; the plain address goes.
    const hooks = (await h.call('GET', '/sandbox/webhooks/', { as: 'psp' })).body.data.map((x: { id: string }) => x.id);
    expect(hooks).toEqual([w.listener]);
    expect((await h.call('GET', '/sandbox/webhooks/')).body.data.map((x: { id: string }) => x.id)).toEqual([w.hook]);
  });

  it('X-Merchant-ID narrows a PSP reset to that sub-merchant; one it may not act for is not found', async () => {
    const w = await world();
    const r = await h.call('POST', '/sandbox/reset/', { as: 'psp', headers: { 'x-merchant-id': w.subs[0]!.id } });
    expect(r.body.data.merchant_ids).toEqual([w.subs[0]!.id]);
    for (const id of w.sub) expect(await status(id, 'psp')).toBe(404);
    for (const id of w.own) expect(await status(id, 'psp')).toBe(200);
    const foreign = await h.call('POST', '/sandbox/reset/', { as: 'psp', headers: { 'x-merchant-id': h.merchant.merchant_id } });
    expect(foreign.status).toBe(404);
    for (const id of w.merchant) expect(await status(id, 'merchant')).toBe(200);
  });

  it('the whole database is emptied only through the file (store.reset without a scope)', async () => {
    const w = await world();
    const store = openStore(h.dbPath);
    try {
      store.reset();
    } finally {
      store.close();
    }
    for (const id of w.merchant) expect(await status(id, 'merchant')).toBe(404);
    for (const id of [...w.sub, ...w.own]) expect(await status(id, 'psp')).toBe(404);
    expect((await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.count).toBe(2);
  });
});

describe('reset and the event outbox (issue 19 tables)', () => {
  it("a PSP's reset removes its events (with their deliveries and attempts) and keeps the merchant's", async () => {
    await h.call('POST', '/sandbox/webhooks/', { body: { url: 'http://127.0.0.1:9/m' } });
    await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: 'http://127.0.0.1:9/p' } });
    await paidOrder(h);
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string }[];
    await paidOrder(h, '10.00', { as: 'psp', headers: { 'x-merchant-id': subs[0]!.id } });
    const events = async (as: 'merchant' | 'psp') => (await h.call('GET', '/sandbox/events/', { as })).body.data as unknown[];
    expect((await events('merchant')).length).toBeGreaterThan(0);
    expect((await events('psp')).length).toBeGreaterThan(0);
    const before = (await events('merchant')).length;
    expect((await h.call('POST', '/sandbox/reset/', { as: 'psp' })).status).toBe(200);
    expect(await events('psp')).toEqual([]);
    expect((await events('merchant')).length).toBe(before);
    const db = openRaw(h.dbPath);
    try {
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    } finally {
      db.close();
    }
  });
});
