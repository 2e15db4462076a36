// Webhook delivery (spec part 6): events are POSTed as JSON to the addresses registered for the
// merchant (and its PSP) after the change has committed. A failed delivery is retried with
// backoff; it never blocks the response or undoes the change, and errors are only logged.
import type { Dispatcher } from 'undici';
import type { SandboxEvent } from './store.js';

export interface WebhookOptions {
  urlsFor: (merchantId: string) => string[];
  log?: (line: string) => void;
  /** Waits between attempts; attempts = 1 + its length. */
  retryDelaysMs?: number[];
  timeoutMs?: number;
}

export const DEFAULT_RETRY_DELAYS_MS = [500, 2000, 5000];

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
    let urls: string[];
    try {
      urls = this.opts.urlsFor(event.merchant_id);
    } catch (err) {
      this.opts.log?.(`webhook: cannot look up addresses: ${(err as Error).message}`);
      return;
    }
    const body = JSON.stringify({ event: event.type, merchant_id: event.merchant_id, created_at: event.created_at, data: event.data });
    for (const url of urls) this.attempt(url, body, event.type, 0);
  }

  private attempt(url: string, body: string, type: string, n: number): void {
    const p = this.post(url, body, type)
      .then(() => this.opts.log?.(`webhook ${type} → ${url}: delivered`))
      .catch((err: Error) => {
        const delays = this.opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
        if (this.closed || n >= delays.length) {
          this.opts.log?.(`webhook ${type} → ${url}: giving up after ${n + 1} attempt(s): ${err.message}`);
          return;
        }
        this.opts.log?.(`webhook ${type} → ${url}: attempt ${n + 1} failed (${err.message}); retrying`);
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.attempt(url, body, type, n + 1);
        }, delays[n]);
        t.unref();
        this.timers.add(t);
      })
      .finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  private async post(url: string, body: string, type: string): Promise<void> {
    const timeout = this.opts.timeoutMs ?? 5000;
    this.agent ??= import('../api/agent.js').then((m) => m.createAgent());
    const agent = await this.agent;
    const target = new URL(url);
    const res = await agent.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'pgw-sandbox', 'x-pgw-event': type },
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: this.abort.signal,
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}`);
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
