// I6 of the model-based test (issue 45, test/robust/model/invariants-listen.ts) reports what it
// promises: an app that got an event twice, or not at all, is named; the apps that got each event
// once, directly or through a `pgw listen` built from its own parts, pass.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { POLL_MS } from '../../src/sandbox/webhooks.js';
import { Receiver } from './model/receiver.js';
import { World, api } from './model/ops.js';
import { checkEachAddressOnce } from './model/invariants-listen.js';
import { closeListeners, farmOf } from './model/listeners.js';
import { orderBody } from '../sandbox/harness.js';

const receiver = new Receiver();
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  await receiver.start();
});
afterAll(async () => {
  vi.useRealTimers();
  await receiver.close();
});

it('I6 passes apps that got each event once, and names one that got an event twice or never', async () => {
  const w = await World.open('embedded', receiver, 'i6', () => vi.advanceTimersByTime(POLL_MS));
  const farm = farmOf(w);
  try {
    // App 1 registered for M1 itself; app 2 behind M1's listener.
    expect((await w.send('M1', api.addWebhook(farm.appUrl(1, true)))).status).toBe(200);
    const url = await farm.start(farm.appUrl(2), 2, null);
    expect((await w.send('M1', api.addListener(url, farm.appUrl(2)))).status).toBe(200);
    const order = (await w.send('M1', api.createOrder(orderBody({ amount: '10.00' })))).body.data.order_id;
    await w.send('M1', api.pay(order, 'success', 'simulator'));
    await w.quiesce();
    expect(checkEachAddressOnce(w, farm)).toEqual([]);
    const got = receiver.received.filter((r) => r.path.startsWith('/r/i6/app/'));
    expect(got.map((r) => r.path).sort()).toEqual(['/r/i6/app/1', '/r/i6/app/2']);
    const copy = { ...got[0]! };
    receiver.received.push(copy);
    expect(checkEachAddressOnce(w, farm).join('\n')).toMatch(/^I6: event EV[0-9]+ \(PAYMENT_SUCCESSFUL of M1\) reached app [12] 2 times, once expected/);
    for (const r of [copy, got[0]!]) receiver.received.splice(receiver.received.indexOf(r), 1);
    expect(checkEachAddressOnce(w, farm).join('\n')).toMatch(/reached app [12] 0 times, once expected/);
  } finally {
    await closeListeners(w);
    await w.close();
  }
});
