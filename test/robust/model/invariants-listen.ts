// I6 (issue 45, docs/sandbox.md "Invariants"): each event reaches each receiving address exactly
// once. Checked after every step of the model test on the apps behind `pgw listen` (listeners.ts):
// an app is to get an event once when the sandbox delivered the event to it (a registration of
// the app, however spelled, for the event's merchant or its PSP) or a listener forwarding there
// acknowledged it and shows its type; never otherwise. What the apps got is what the test's
// receiver recorded; which listener forwards where is the test's own record, not the sandbox's.
import { addressKey } from '../../../src/local-address.js';
import { APPS, type ListenerFarm } from './listeners.js';
import type { World } from './ops.js';

interface EventRow {
  id: string;
  event_type: string;
  merchant_id: string;
  sequence_number: string;
}
interface DeliveryRow {
  id: number;
  event_id: string;
  url: string;
  listener: number;
  max_attempts: number;
}

export function checkEachAddressOnce(w: World, farm: ListenerFarm | undefined): string[] {
  const appPath = new RegExp(`^/r/${w.run}/app/([0-9]+)$`);
  const got = new Map<string, number>();
  for (const r of w.receiver.received) {
    const k = appPath.exec(r.path)?.[1];
    if (k === undefined || r.answered !== 200 || r.sequence === undefined) continue;
    got.set(`${r.sequence} ${k}`, (got.get(`${r.sequence} ${k}`) ?? 0) + 1);
  }
  const apps = APPS.map((k) => ({ k, key: addressKey(w.receiver.url(w.run, 'app', k)) }));
  const byEvent = new Map<string, DeliveryRow[]>();
  for (const d of w.q('SELECT id, event_id, url, listener, max_attempts FROM deliveries ORDER BY id').all() as DeliveryRow[]) {
    (byEvent.get(d.event_id) ?? byEvent.set(d.event_id, []).get(d.event_id)!).push(d);
  }
  const answered = new Set((w.q('SELECT DISTINCT delivery_id AS id FROM attempts WHERE status = 200').all() as { id: number }[]).map((r) => Number(r.id)));
  const out: string[] = [];
  for (const e of w.q('SELECT id, event_type, merchant_id, sequence_number FROM events').all() as EventRow[]) {
    const ds = byEvent.get(e.id) ?? [];
    // A resend is one more send on request (pgw events resend): its event is counted no more, even
    // once a restore has taken the resend's record back (the app did get it).
    if (ds.some((d) => d.listener === 0 && d.max_attempts === 1)) farm?.resent.add(e.sequence_number);
    if (farm?.resent.has(e.sequence_number)) continue;
    for (const { k, key } of apps) {
      const direct = ds.filter((d) => d.listener === 0 && addressKey(d.url) === key && answered.has(Number(d.id)));
      const forwarders = ds.filter((d) => {
        const l = d.listener === 1 ? farm?.ever.get(d.url) : undefined;
        return l !== undefined && l.app === k && (l.events === null || l.events.includes(e.event_type)) && answered.has(Number(d.id));
      });
      const expected = direct.length > 0 || forwarders.length > 0 ? 1 : 0;
      const n = got.get(`${e.sequence_number} ${k}`) ?? 0;
      if (n !== expected) {
        const acc = w.accountOf(e.merchant_id) ?? e.merchant_id;
        out.push(
          `I6: event ${e.id} (${e.event_type} of ${acc}) reached app ${k} ${n} times, ${expected ? 'once' : 'never'} expected: ` +
            `delivered there by the sandbox ${direct.length} times, acknowledged by ${forwarders.length} listeners that forward there`,
        );
      }
    }
  }
  return out;
}
