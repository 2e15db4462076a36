// Webhook delivery (spec part 6): events are POSTed as JSON to the addresses registered for the
// merchant (and its PSP) after the change has committed, by whichever process made the change
// (the embedded sandbox of any pgw run, or `pgw sandbox serve`). A failed delivery is retried with
// backoff; it never blocks the response or undoes the change, and errors are only logged.
//
// Receivers of `pgw listen` (listener registrations) are treated differently: the listener answers
// at once, on this machine's loopback, so a refused connection or a 404 means its process is gone
// (killed before it could deregister) or the port now belongs to someone else. Such a delivery is
// not retried and the registration is dropped, so a dead listener costs one refused connect once,
// never retries, waits or log lines on every later event. Other failures of a listener are not
// retried either and wait at most LISTENER_TIMEOUT_MS.
import type { Dispatcher } from 'undici';
import type { SandboxEvent } from './store.js';
import type { WebhookTarget } from './store/admin.js';

export interface WebhookOptions {
  targetsFor: (merchantId: string) => WebhookTarget[];
  /** Forget a listener found gone (store.dropListener). */
  dropListener?: (url: string) => void;
  log?: (line: string) => void;
  /** Waits between attempts; attempts = 1 + its length. */
  retryDelaysMs?: number[];
  timeoutMs?: number;
}

export const DEFAULT_RETRY_DELAYS_MS = [500, 2000, 5000];
/** A listener acknowledges before it forwards: anything slower than this is stuck (e.g. suspended). */
export const LISTENER_TIMEOUT_MS = 2000;

/** The receiver is not there: nothing listens on the port, or what listens is not that listener. */
function isGone(err: Error & { code?: string; statusCode?: number }): boolean {
  return err.code === 'ECONNREFUSED' || err.statusCode === 404 || err.statusCode === 410;
}

export class WebhookSender {
  private readonly inflight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private closed = false;
  /** The CLI's keep-alive pool (src/api/agent.ts), loaded with the first delivery: most runs send none. */
  private agent?: Promise<Dispatcher & { close(): Promise<void> }>;

  constructor(private readonly opts: WebhookOptions) {}

  /** Queue delivery of one event to every address; returns at once. */
  send(event: SandboxEvent): void {
    if (this.closed) return;
    let targets: WebhookTarget[];
    try {
      targets = this.opts.targetsFor(event.merchant_id);
    } catch (err) {
      this.opts.log?.(`webhook: cannot look up addresses: ${(err as Error).message}`);
      return;
    }
    const body = JSON.stringify({ event: event.type, merchant_id: event.merchant_id, created_at: event.created_at, data: event.data });
    for (const target of targets) this.attempt(target, body, event.type, 0);
  }

  private attempt(target: WebhookTarget, body: string, type: string, n: number): void {
    const { url } = target;
    const p = this.post(target, body, type)
      .then(() => this.opts.log?.(`webhook ${type} → ${url}: delivered`))
      .catch((err: Error) => {
        if (target.listener) {
          this.listenerFailed(url, type, err);
          return;
        }
        const delays = this.opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
        if (this.closed || n >= delays.length) {
          this.opts.log?.(`webhook ${type} → ${url}: giving up after ${n + 1} attempt(s): ${err.message}`);
          return;
        }
        this.opts.log?.(`webhook ${type} → ${url}: attempt ${n + 1} failed (${err.message}); retrying`);
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.attempt(target, body, type, n + 1);
        }, delays[n]);
        t.unref();
        this.timers.add(t);
      })
      .finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  private listenerFailed(url: string, type: string, err: Error): void {
    if (!isGone(err)) {
      this.opts.log?.(`webhook ${type} → ${url}: listener did not take it (${err.message}); not retried`);
      return;
    }
    try {
      this.opts.dropListener?.(url);
      this.opts.log?.(`webhook: the listener at ${url} is gone; its registration was removed`);
    } catch (dropErr) {
      this.opts.log?.(`webhook: could not remove the registration of ${url}: ${(dropErr as Error).message}`);
    }
  }

  private async post(target: WebhookTarget, body: string, type: string): Promise<void> {
    const timeout = target.listener ? LISTENER_TIMEOUT_MS : (this.opts.timeoutMs ?? 5000);
    this.agent ??= import('../api/agent.js').then((m) => m.createAgent());
    const agent = await this.agent;
    const url = new URL(target.url);
    const res = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'pgw-sandbox', 'x-pgw-event': type },
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: this.abort.signal,
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw Object.assign(new Error(`HTTP ${res.statusCode}`), { statusCode: res.statusCode });
    }
  }

  /** Cancel retries; give deliveries already on the wire up to `graceMs`, then abort them. */
  async close(graceMs = 1000): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.inflight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...this.inflight]), grace]);
      clearTimeout(timer);
    }
    this.abort.abort();
    if (this.agent) await (await this.agent).close().catch(() => undefined);
  }
}
