// Snapshots over HTTP (issue 24): scoped to the caller like reset, unless the server allows
// global ones; a restore brings back exactly the saved rows, in one transaction.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { startHarness, type Harness } from './harness.js';
import { subMerchantBody } from './fixtures/merchant-body.js';

let h: Harness;
afterEach(() => h?.close());

const seed = async (n: number, as: 'merchant' | 'psp' = 'merchant') => (await h.call('POST', '/sandbox/seed/', { as, body: { payments: n } })).body.data.payments as string[];
const found = async (id: string, as: 'merchant' | 'psp' = 'merchant') => (await h.call('GET', `/pg/payments/${id}/`, { as })).status === 200;

describe('snapshots over HTTP, scoped to the caller', () => {
  it("save, change, restore: the caller's rows are the saved ones; another account's later rows stay", async () => {
    h = await startHarness();
    const before = await seed(2);
    const saved = await h.call('POST', '/sandbox/snapshots/', { body: { name: 'base' } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ name: 'base', scope: 'account', account: h.merchant.merchant_id, merchant_ids: [h.merchant.merchant_id], orders: 2, payments: 2, replaced: false });
    const file = `${h.dbPath}-snapshots/accounts/${h.merchant.merchant_id}/base.db`;
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const after = await seed(3);
    const psp = await seed(1, 'psp');
    const restored = await h.call('POST', '/sandbox/snapshots/base/restore/', {});
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ name: 'base', restored: true });
    for (const id of before) expect(await found(id)).toBe(true);
    for (const id of after) expect(await found(id)).toBe(false);
    expect(await found(psp[0]!, 'psp')).toBe(true);

    // Another account sees none of it, and cannot restore it.
    expect((await h.call('GET', '/sandbox/snapshots/', { as: 'psp' })).body.data).toEqual([]);
    expect((await h.call('POST', '/sandbox/snapshots/base/restore/', { as: 'psp' })).status).toBe(404);
    expect((await h.call('GET', '/sandbox/snapshots/')).body.data.map((s: { name: string }) => s.name)).toEqual(['base']);

    const again = await h.call('POST', '/sandbox/snapshots/', { body: { name: 'base' } });
    expect(again.body.data.replaced).toBe(true);
    expect((await h.call('DELETE', '/sandbox/snapshots/base/')).status).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect((await h.call('DELETE', '/sandbox/snapshots/base/')).status).toBe(404);
  });

  it("a PSP's snapshot covers its sub-merchants, including one created after it (deleted on restore)", async () => {
    h = await startHarness();
    const subs = (await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.results as { id: string }[];
    const subPay = (await h.call('POST', '/sandbox/seed/', { as: 'psp', headers: { 'x-merchant-id': subs[0]!.id }, body: { payments: 1 } })).body.data.payments as string[];
    expect((await h.call('POST', '/sandbox/snapshots/', { as: 'psp', body: { name: 'psp-base' } })).body.data.merchant_ids).toHaveLength(3);
    const created = await h.call('POST', '/partners/merchants/', { as: 'psp', body: subMerchantBody('Later') });
    expect(created.status).toBe(201);
    // Created PENDING: approved first, since only an APPROVED sub-merchant takes payments (issue 45).
    await h.call('POST', `/sandbox/merchants/${created.body.data.id}/kyc/`, { as: 'psp', body: { kyc_status: 'APPROVED' } });
    const later = (await h.call('POST', '/sandbox/seed/', { as: 'psp', headers: { 'x-merchant-id': created.body.data.id }, body: { payments: 1 } })).body.data.payments as string[];
    const merchant = await seed(1);
    expect((await h.call('POST', '/sandbox/snapshots/psp-base/restore/', { as: 'psp' })).status).toBe(200);
    expect(await found(subPay[0]!, 'psp')).toBe(true);
    expect(await found(later[0]!, 'psp')).toBe(false);
    expect((await h.call('GET', '/partners/merchants/', { as: 'psp' })).body.data.count).toBe(2);
    expect(await found(merchant[0]!)).toBe(true);
  });

  it('names are checked; an unknown one is 404', async () => {
    h = await startHarness();
    for (const body of [{}, { name: '../x' }, { name: '' }, { name: 'a/b' }, { name: 'ok', extra: 1 }]) {
      expect((await h.call('POST', '/sandbox/snapshots/', { body })).status).toBe(400);
    }
    expect((await h.call('POST', '/sandbox/snapshots/nope/restore/', {})).status).toBe(404);
  });
});

describe('--allow-global-snapshots', () => {
  it('snapshots over HTTP are of the whole database: every account comes back', async () => {
    h = await startHarness({ allowGlobalSnapshots: true });
    const merchant = await seed(1);
    const saved = await h.call('POST', '/sandbox/snapshots/', { as: 'psp', body: { name: 'world' } });
    expect(saved.body.data).toMatchObject({ scope: 'global', account: null, merchant_ids: null });
    const laterMerchant = await seed(1);
    const laterPsp = await seed(1, 'psp');
    expect((await h.call('POST', '/sandbox/snapshots/world/restore/', { as: 'psp' })).status).toBe(200);
    expect(await found(merchant[0]!)).toBe(true);
    expect(await found(laterMerchant[0]!)).toBe(false);
    expect(await found(laterPsp[0]!, 'psp')).toBe(false);
    expect(existsSync(`${h.dbPath}-snapshots/world.db`)).toBe(true);
  });
});

describe('the sandbox clock', () => {
  it('a whole-database restore brings the clock back to what it read when the snapshot was taken', async () => {
    h = await startHarness({ allowGlobalSnapshots: true });
    const saved = (await h.call('POST', '/sandbox/snapshots/', { body: { name: 'then' } })).body.data;
    expect((await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 30 * 86_400 } })).status).toBe(200);
    const advanced = (await h.call('GET', '/sandbox/clock/')).body.data.now as string;
    expect(advanced > saved.created_at).toBe(true);
    expect((await h.call('POST', '/sandbox/snapshots/then/restore/', {})).status).toBe(200);
    const now = (await h.call('GET', '/sandbox/clock/')).body.data.now as string;
    // Back at the snapshot's moment (running on from there), well before the advanced time.
    expect(now >= saved.created_at).toBe(true);
    expect(now < advanced).toBe(true);
  });

  it("a scoped restore sets the caller's own clock back to its reading at the save; another account's clock stays (issue 31, I2)", async () => {
    h = await startHarness();
    const now = async (as: 'merchant' | 'psp') => Date.parse((await h.call('GET', '/sandbox/clock/', { as })).body.data.now as string);
    await h.call('POST', '/sandbox/snapshots/', { body: { name: 'mine' } });
    const saved = await now('merchant');
    await h.call('POST', '/sandbox/clock/', { body: { advance_seconds: 30 * 86_400 } });
    await h.call('POST', '/sandbox/clock/', { as: 'psp', body: { advance_seconds: 7 * 86_400 } });
    const theirs = await now('psp');
    await h.call('POST', '/sandbox/snapshots/mine/restore/', {});
    const back = await now('merchant');
    // As it read at the save (taken just before `saved` was read), then running on: not 30 days on.
    expect(Math.abs(back - saved)).toBeLessThan(60_000);
    expect((await now('psp')) - theirs).toBeGreaterThanOrEqual(0);
    expect((await now('psp')) - theirs).toBeLessThan(60_000);
  });
});
