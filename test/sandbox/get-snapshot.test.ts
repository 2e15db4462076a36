// A GET is answered from one snapshot (pipeline.ts `handle`): the fault check, authentication and
// the handler's queries share one read, so the server looks for other processes' commits once a
// request (db.ts syncEpoch, one pread of the WAL index), not once per read. A fault armed on the
// route still fires (a write, outside the snapshot), and one armed elsewhere does not slow it.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WalIndexWatch } from '../../src/sandbox/wal-index.js';
import { paidOrder, startHarness, type Harness } from './harness.js';

let h: Harness;
let paymentId: string;
beforeAll(async () => {
  h = await startHarness();
  ({ paymentId } = await paidOrder(h, '1000.00'));
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.call('DELETE', '/sandbox/faults/');
});

/** The server's commit checks made while answering `n` GETs of the payment (statuses returned). */
async function checksFor(n: number): Promise<{ checks: number; statuses: number[] }> {
  await h.call('GET', `/pg/payments/${paymentId}/`); // the handler loaded, the caches warm
  const spy = vi.spyOn(WalIndexWatch.prototype, 'changed');
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await h.call('GET', `/pg/payments/${paymentId}/`)).status);
  const checks = spy.mock.calls.length;
  spy.mockRestore();
  return { checks, statuses };
}

describe('a GET reads one snapshot', () => {
  it('looks for other commits once a request', async () => {
    const { checks, statuses } = await checksFor(5);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(checks).toBe(5);
  });

  it('still once a request with a fault armed on another route', async () => {
    expect((await h.call('POST', '/sandbox/faults/', { body: { route: 'POST /pg/orders/', status: 503 } })).status).toBe(200);
    const { checks, statuses } = await checksFor(3);
    expect(statuses).toEqual([200, 200, 200]);
    expect(checks).toBe(3);
  });

  it('a fault armed on the route fires, then the GET answers again', async () => {
    expect((await h.call('POST', '/sandbox/faults/', { body: { route: 'GET /pg/payments/*/', status: 503, times: 1 } })).status).toBe(200);
    const faulted = await h.call('GET', `/pg/payments/${paymentId}/`);
    expect(faulted.status).toBe(503);
    expect(faulted.headers['x-pgw-fault']).toMatch(/^FT/);
    const next = await h.call('GET', `/pg/payments/${paymentId}/`);
    expect(next.status).toBe(200);
    expect(next.body.data.payment_id).toBe(paymentId);
  });

  it('a wrong secret is still refused, from the same snapshot', async () => {
    const res = await h.call('GET', `/pg/payments/${paymentId}/`, { headers: { 'x-client-secret': 'not-the-secret' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('ERR_AUTH_001');
  });
});
