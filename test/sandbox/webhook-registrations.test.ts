// GET/DELETE /sandbox/webhooks/ and what delivery does with a `pgw listen` registration whose
// receiver is gone (docs/sandbox.md "Webhooks").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidOrder, startHarness, type Harness } from './harness.js';
import { Db } from '../../src/sandbox/db.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ pollWebhooks: false });
});
afterAll(() => h.close());

/** A receiver on 127.0.0.1 answering `status`; counts what it got. */
async function receiver(status = 200): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push(body);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function waitFor<T>(pick: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await pick();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ids = async (as: 'merchant' | 'psp' = 'merchant') =>
  ((await h.call('GET', '/sandbox/webhooks/', { as })).body.data as { id: string }[]).map((w) => w.id);

describe('listing and removing webhook addresses', () => {
  it('each account lists its own; a PSP also sees its sub-merchants\'; removal is scoped', async () => {
    const mine = (await h.call('POST', '/sandbox/webhooks/', { body: { url: 'https://shop.example/hooks' } })).body.data;
    const psp = (await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: 'https://psp.example/hooks' } })).body.data;
    const subs = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    const subId = subs.body.data.results[0].id as string;
    const forSub = (await h.call('POST', '/sandbox/webhooks/', { as: 'psp', headers: { 'x-merchant-id': subId }, body: { url: 'https://sub.example/h' } })).body.data;
    expect(forSub.merchant_id).toBe(subId);

    expect(await ids()).toEqual([mine.id]);
    expect(await ids('psp')).toEqual(expect.arrayContaining([psp.id, forSub.id]));
    expect(await ids('psp')).not.toContain(mine.id);

    const foreign = await h.call('DELETE', `/sandbox/webhooks/${psp.id}/`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('ERR_WEBHOOK_002');

    const removed = await h.call('DELETE', `/sandbox/webhooks/${mine.id}/`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ id: mine.id, url: 'https://shop.example/hooks', listener: false });
    expect(await ids()).toEqual([]);
    expect((await h.call('DELETE', `/sandbox/webhooks/${mine.id}/`)).status).toBe(404);
    await h.call('DELETE', `/sandbox/webhooks/${psp.id}/`, { as: 'psp' });
    await h.call('DELETE', `/sandbox/webhooks/${forSub.id}/`, { as: 'psp' });
    expect(await ids('psp')).toEqual([]);
  });

  it('a listener registration must be on loopback', async () => {
    const r = await h.call('POST', '/sandbox/webhooks/', { body: { url: 'https://shop.example/x', listener: true } });
    expect(r.status).toBe(400);
    expect(r.body.error.details.url).toMatch(/loopback/);
    const ok = await h.call('POST', '/sandbox/webhooks/', { body: { url: 'http://localhost:9/x', listener: true } });
    expect(ok.body.data.listener).toBe(true);
    await h.call('DELETE', `/sandbox/webhooks/${ok.body.data.id}/`);
  });
});

describe('reset', () => {
  it("empties the addresses but keeps running listeners' registrations", async () => {
    const plain = (await h.call('POST', '/sandbox/webhooks/', { body: { url: 'https://shop.example/r' } })).body.data;
    const live = (await h.call('POST', '/sandbox/webhooks/', { body: { url: 'http://127.0.0.1:9/pgw-listen/x/', listener: true } })).body.data;
    expect(await ids()).toEqual([plain.id, live.id]);
    expect((await h.call('POST', '/sandbox/reset/', {})).status).toBe(200);
    expect(await ids()).toEqual([live.id]);
    await h.call('DELETE', `/sandbox/webhooks/${live.id}/`);
  });
});

describe('reset and the delivery log', () => {
  it("empties the caller's events, deliveries and attempts, not another account's; the clock stays", async () => {
    const hook = (await h.call('POST', '/sandbox/webhooks/', { body: { url: 'http://127.0.0.1:9/gone' } })).body.data;
    const pspHook = (await h.call('POST', '/sandbox/webhooks/', { as: 'psp', body: { url: 'http://127.0.0.1:9/psp' } })).body.data;
    await paidOrder(h, '10.00');
    const subs = await h.call('GET', '/partners/merchants/', { as: 'psp' });
    await paidOrder(h, '11.00', { as: 'psp', headers: { 'x-merchant-id': subs.body.data.results[0].id } });
    await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 120 } });
    expect((await h.call('GET', '/sandbox/events/')).body.data.length).toBeGreaterThan(0);
    const pspBefore = (await h.call('GET', '/sandbox/events/', { as: 'psp' })).body.data.length;
    expect(pspBefore).toBeGreaterThan(0);
    expect((await h.call('POST', '/sandbox/reset/', {})).status).toBe(200);
    expect((await h.call('GET', '/sandbox/events/')).body.data).toEqual([]);
    expect((await h.call('GET', '/sandbox/events/', { as: 'psp' })).body.data).toHaveLength(pspBefore);
    // No attempt is left without its delivery, no delivery without its event.
    const raw = new Db(h.dbPath);
    expect(raw.get<{ n: number }>('SELECT count(*) AS n FROM attempts a LEFT JOIN deliveries d ON d.id = a.delivery_id WHERE d.id IS NULL')!.n).toBe(0);
    expect(raw.get<{ n: number }>('SELECT count(*) AS n FROM deliveries d LEFT JOIN events e ON e.id = d.event_id WHERE e.id IS NULL')!.n).toBe(0);
    expect(raw.get<{ n: number }>('SELECT count(*) AS n FROM attempts')!.n).toBeGreaterThan(0); // the PSP's stay
    raw.close();
    expect((await h.call('GET', '/sandbox/clock/')).body.data.offset_seconds).toBeGreaterThanOrEqual(120);
    await h.call('POST', '/sandbox/clock/', { body: { reset: true } });
    await h.call('DELETE', `/sandbox/webhooks/${pspHook.id}/`, { as: 'psp' });
    void hook;
  });
});

describe('a listener whose receiver is gone', () => {
  it('is dropped on the first refused delivery, never retried, and other addresses still get the event', async () => {
    const app = await receiver();
    const dead = await receiver();
    await dead.close(); // its port now refuses connections, as after a killed `pgw listen`
    const listener = (await h.call('POST', '/sandbox/webhooks/', { body: { url: dead.url, listener: true } })).body.data;
    const plain = (await h.call('POST', '/sandbox/webhooks/', { body: { url: app.url } })).body.data;
    const p = await paidOrder(h, '10.00');
    await waitFor(() => app.hits.find((b) => b.includes(p.paymentId)));
    await waitFor(async () => ((await ids()).includes(listener.id) ? undefined : true));
    expect(await ids()).toEqual([plain.id]);
    await h.call('DELETE', `/sandbox/webhooks/${plain.id}/`);
    await app.close();
  });

  it('a port answering 404 (someone else now) drops it; a listener answering 500 is kept and not retried', async () => {
    const stranger = await receiver(404);
    const broken = await receiver(500);
    const gone = (await h.call('POST', '/sandbox/webhooks/', { body: { url: stranger.url, listener: true } })).body.data;
    const kept = (await h.call('POST', '/sandbox/webhooks/', { body: { url: broken.url, listener: true } })).body.data;
    const ordinary = await receiver(500);
    await h.call('POST', '/sandbox/webhooks/', { body: { url: ordinary.url } });
    await paidOrder(h, '10.00');
    // The ordinary address gets all five tries once the clock has passed the last (vendor 1.1);
    // the listener's single try has long been made by then.
    await waitFor(() => (ordinary.hits.length >= 1 ? true : undefined));
    await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 3600 } });
    expect(ordinary.hits).toHaveLength(5);
    await waitFor(async () => ((await ids()).includes(gone.id) ? undefined : true));
    expect(broken.hits).toHaveLength(1);
    expect(await ids()).toContain(kept.id);
    for (const id of await ids()) await h.call('DELETE', `/sandbox/webhooks/${id}/`);
    await Promise.all([stranger.close(), broken.close(), ordinary.close()]);
  });
});
