// Faults on demand over HTTP (issue 24): armed per account, applied before anything runs (status,
// drop), after the commit (after_commit), or after a delay; reproducible with a seed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { orderBody, startHarness, type Harness } from './harness.js';
import { openRaw } from '../helpers/sqlite.js';
import { nextRandom } from '../../src/sandbox/store/faults.js';
import { routePattern } from '../../src/sandbox/faults.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.call('DELETE', '/sandbox/faults/');
  await h.call('DELETE', '/sandbox/faults/', { as: 'psp' });
});

const orderCount = (reference: string): number => {
  const db = openRaw(h.dbPath);
  try {
    return (db.prepare('SELECT count(*) AS n FROM orders WHERE reference_id = ?').get(reference) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('status faults', () => {
  it('--status 503 --times 2: the next two creates fail in the envelope, the third succeeds; nothing made by the failures', async () => {
    const added = await h.call('POST', '/sandbox/faults/', { body: { route: 'POST /pg/orders/', status: 503, times: 2 } });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ id: expect.stringMatching(/^FT[0-9]{10}$/), route: 'POST /pg/orders/', kind: 'status', status: 503, times_left: 2 });
    const refs = ['f-1', 'f-2', 'f-3'];
    const answers = [];
    for (const ref of refs) answers.push(await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: ref }) }));
    expect(answers.map((a) => a.status)).toEqual([503, 503, 201]);
    expect(answers[0]!.body).toMatchObject({ success: false, error: { code: 'ERR_SERVICE_UNAVAILABLE' } });
    expect(answers[0]!.headers['retry-after']).toBe('1');
    expect(refs.map(orderCount)).toEqual([0, 0, 1]);
    const listed = (await h.call('GET', '/sandbox/faults/')).body.data;
    expect(listed).toMatchObject([{ times_left: 0, fired: 2, seen: 2 }]);
  });

  it("another account's requests are never faulted, nor /sandbox/faults/ itself", async () => {
    await h.call('POST', '/sandbox/faults/', { body: { route: '* /**', status: 500 } });
    expect((await h.call('GET', '/sandbox/webhooks/')).status).toBe(500);
    expect((await h.call('GET', '/sandbox/webhooks/', { as: 'psp' })).status).toBe(200);
    expect((await h.call('GET', '/sandbox/faults/', { as: 'psp' })).body.data).toEqual([]);
    expect((await h.call('GET', '/sandbox/faults/')).status).toBe(200);
    const cleared = await h.call('DELETE', '/sandbox/faults/');
    expect(cleared.body.data).toHaveLength(1);
    expect((await h.call('GET', '/sandbox/webhooks/')).status).toBe(200);
  });

  it('500 is ERR_SERVICE_ERROR_000 and 429 carries Retry-After (vendor 9.2)', async () => {
    await h.call('POST', '/sandbox/faults/', { body: { route: 'GET /sandbox/webhooks/', status: 500, times: 1 } });
    await h.call('POST', '/sandbox/faults/', { body: { route: 'GET /sandbox/webhooks/', status: 429, times: 1 } });
    const a = await h.call('GET', '/sandbox/webhooks/');
    const b = await h.call('GET', '/sandbox/webhooks/');
    expect(a.body.error.code).toBe('ERR_SERVICE_ERROR_000');
    expect(b.status).toBe(429);
    expect(b.headers['retry-after']).toBe('1');
  });
});

describe('connection faults', () => {
  it('--after-commit: the order is created and the answer lost', async () => {
    await h.call('POST', '/sandbox/faults/', { body: { route: 'POST /pg/orders/', after_commit: true, times: 1 } });
    await expect(h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: 'ac-1' }) })).rejects.toThrow();
    expect(orderCount('ac-1')).toBe(1);
  });

  it('--drop: the connection closes without an answer and nothing is made', async () => {
    await h.call('POST', '/sandbox/faults/', { body: { route: 'POST /pg/orders/', drop: true, times: 1 } });
    await expect(h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: 'dr-1' }) })).rejects.toThrow();
    expect(orderCount('dr-1')).toBe(0);
    expect((await h.call('POST', '/pg/orders/', { body: orderBody({ reference_id: 'dr-2' }) })).status).toBe(201);
  });

  it('--delay: answered normally, after the delay', async () => {
    await h.call('POST', '/sandbox/faults/', { body: { route: 'GET /sandbox/webhooks/', delay_ms: 30, times: 1 } });
    expect((await h.call('GET', '/sandbox/webhooks/')).status).toBe(200);
    expect((await h.call('GET', '/sandbox/faults/')).body.data[0]).toMatchObject({ kind: 'delay', fired: 1 });
  });
});

describe('rate and seed', () => {
  async function run(seed: number): Promise<number[]> {
    await h.call('DELETE', '/sandbox/faults/');
    const f = await h.call('POST', '/sandbox/faults/', { body: { route: 'GET /sandbox/webhooks/', status: 502, rate: 0.5, seed } });
    expect(f.body.data.seed).toBe(seed);
    const out: number[] = [];
    for (let i = 0; i < 24; i++) out.push((await h.call('GET', '/sandbox/webhooks/')).status);
    return out;
  }

  it('the same seed fails the same requests; the sequence is the generator\'s', async () => {
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(first).toContain(502);
    expect(first).toContain(200);
    let state = 7;
    const expected = first.map(() => {
      const [v, next] = nextRandom(state);
      state = next;
      return v < 0.5 ? 502 : 200;
    });
    expect(first).toEqual(expected);
  });

  it('a rate without a seed gets one, shown so the run can be repeated', async () => {
    const f = await h.call('POST', '/sandbox/faults/', { body: { route: 'GET /x/', status: 500, rate: 0.1 } });
    expect(f.body.data.seed).toEqual(expect.any(Number));
  });
});

describe('bodies and routes', () => {
  it.each([
    [{ route: 'POST /pg/orders/' }],
    [{ route: 'POST /pg/orders/', status: 503, drop: true }],
    [{ route: '/pg/orders/', status: 503 }],
    [{ route: 'FETCH /pg/orders/', status: 503 }],
    [{ route: 'POST /pg/orders/', status: 200 }],
    [{ route: 'POST /pg/orders/', status: 503, seed: 3 }],
    [{ route: 'POST /pg/orders/', status: 503, rate: 2 }],
    [{ route: 'POST /pg/orders/', status: 503, extra: 1 }],
  ])('%j is refused with 400', async (body) => {
    expect((await h.call('POST', '/sandbox/faults/', { body })).status).toBe(400);
  });

  it('patterns: * one segment, {id} and :id too, ** the rest; the final slash optional', () => {
    expect(routePattern('/pg/payments/*/').test('/pg/payments/PR1/')).toBe(true);
    expect(routePattern('/pg/payments/*/').test('/pg/payments/PR1/settlement/')).toBe(false);
    expect(routePattern('/pg/payments/{id}/').test('/pg/payments/PR1/')).toBe(true);
    expect(routePattern('/pg/**').test('/pg/payments/PR1/settlement/')).toBe(true);
    expect(routePattern('/pg/orders').test('/pg/orders/')).toBe(true);
    expect(routePattern('/pg/orders.').test('/pg/ordersX/')).toBe(false);
  });

  it('one unknown fault is 404 ERR_FAULT_002', async () => {
    const r = await h.call('DELETE', '/sandbox/faults/FT0000000000/');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('ERR_FAULT_002');
  });
});

describe('payment outcomes by test data (vendor 9.3) with faults armed', () => {
  it('testfailure@gocash fails and testsuccess@gocash pays, with a delay fault on the route', async () => {
    await h.call('POST', '/sandbox/faults/', { body: { route: 'POST /sandbox/orders/*/pay/', delay_ms: 5 } });
    const pay = async (vpa: string) => {
      const created = await h.call('POST', '/pg/orders/', { body: orderBody() });
      return (await h.call('POST', `/sandbox/orders/${created.body.data.order_id}/pay/`, { body: { outcome: 'success', vpa } })).body.data.status;
    };
    expect(await pay('testfailure@gocash')).toBe('failed');
    expect(await pay('testsuccess@gocash')).toBe('captured');
    expect(await pay('failure@upi')).toBe('failed');
    expect((await h.call('GET', '/sandbox/faults/')).body.data[0]).toMatchObject({ fired: 3 });
  });
});
