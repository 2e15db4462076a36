// Issue 45 in the model-based test: `pgw listen` receivers, built from the listener's own parts
// (src/commands/listen: its receiver, its forwarder, and its reading of the sandbox's per-event
// decision), registered as the listener registers and stopped as it stops: take nothing more,
// deregister, finish what was acknowledged. Each forwards to one of two app addresses on the
// test's receiver (which always answer 200), so invariants-listen.ts can count what each app got.
import { randomBytes } from 'node:crypto';
import { startReceiver, type Receiver as ListenReceiver } from '../../../src/commands/listen/receiver.js';
import { createForwarder, type Forwarder } from '../../../src/commands/listen/forward.js';
import { notForwardedBecause } from '../../../src/commands/listen/forwarding.js';
import { parseEvent } from '../../../src/commands/listen/present.js';
import type { Account, World } from './ops.js';

/** A running listener, as the model knows it. */
export interface MListener {
  /** Its registration. */
  id: string;
  /** The account it listens for (X-Merchant-ID for a sub-merchant). */
  merchant: Account;
  url: string;
  /** The app it forwards to (1 or 2) and the events it shows (null: every one). */
  app: number;
  events: string[] | null;
}

interface Live {
  receiver: ListenReceiver;
  forwarder: Forwarder;
  queue: Promise<void>;
}

export const APPS = [1, 2] as const;

export class ListenerFarm {
  /** Every listener of the run, running or stopped, by its receiver's address. */
  readonly ever = new Map<string, { app: number; events: string[] | null }>();
  /** Events (sequence_number) ever seen resent: I6 counts them no more (invariants-listen.ts). */
  readonly resent = new Set<string>();
  private readonly live = new Map<string, Live>();

  constructor(private readonly w: World) {}

  /** App `k`'s address; `localhost` spells the same address another way (one app to the sandbox). */
  appUrl(k: number, localhost = false): string {
    const u = this.w.receiver.url(this.w.run, 'app', k);
    return localhost ? u.replace('127.0.0.1', 'localhost') : u;
  }

  /** A receiver that acknowledges at once and forwards what the sandbox says is its to forward. */
  async start(forwardTo: string, app: number, events: string[] | null): Promise<string> {
    const forwarder = createForwarder(forwardTo);
    const live: Live = { receiver: undefined as unknown as ListenReceiver, forwarder, queue: Promise.resolve() };
    const counter = this.w.receiver;
    live.receiver = await startReceiver({
      port: 0,
      path: `/pgw-listen/${randomBytes(8).toString('hex')}/`,
      onEvent: (event) => {
        // Counted as work at the receiver until forwarded: the model waits for it (ops.ts quiesce).
        counter.inflight++;
        live.queue = live.queue
          .then(async () => {
            if (events !== null && !events.includes(parseEvent(event.body).name)) return;
            if (notForwardedBecause(event) !== undefined) return;
            await forwarder.forward(event.body, event.rawHeaders);
          })
          .catch(() => undefined)
          .finally(() => counter.inflight--);
      },
    });
    this.live.set(live.receiver.url, live);
    this.ever.set(live.receiver.url, { app, events });
    return live.receiver.url;
  }

  /** The stop's first half: nothing more is taken. */
  stopAccepting(url: string): void {
    this.live.get(url)?.receiver.stopAccepting();
  }

  /** The stop's second half: what was acknowledged is forwarded, then all is closed. */
  async finish(url: string): Promise<void> {
    const live = this.live.get(url);
    if (!live) return;
    this.live.delete(url);
    await live.queue;
    await live.receiver.close();
    await live.forwarder.close();
  }

  async closeAll(): Promise<void> {
    for (const url of [...this.live.keys()]) {
      this.stopAccepting(url);
      await this.finish(url);
    }
  }
}

const farms = new WeakMap<World, ListenerFarm>();

export function farmOf(w: World): ListenerFarm {
  let f = farms.get(w);
  if (!f) farms.set(w, (f = new ListenerFarm(w)));
  return f;
}

/** The run's listeners, stopped before its world closes. */
export async function closeListeners(w: World): Promise<void> {
  await farms.get(w)?.closeAll();
}
