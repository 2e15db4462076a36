// Webhook delivery (vendor 1.1, 1.2): makes the attempts the outbox (store/outbox.ts) says are due
// on the sandbox clock, in whichever process holds the database: the embedded sandbox of any pgw
// run, `pgw sandbox serve`, a `pgw listen` on an embedded profile. Due work is looked for when the
// process opens the database, after every write that recorded events, once a second, and when
// the clock is moved (`clock advance` waits for what fell due). An attempt is leased in the
// database first, so two processes sharing the file never both make it.
//
// Each attempt: POST of the stored bytes, signed with the Encryption Key of the account the
// events belong to (X-Webhook-Signature and -V2), 10 s to answer, success only on HTTP 200.
//
// Receivers of `pgw listen` (listener registrations) get one try: the listener answers at once, on
// this machine's loopback, so a refused connection or a 404 means its process is gone (killed
// before it could deregister) or the port now belongs to someone else; the registration is then
// dropped, so a dead listener costs one refused connect once, never retries on later events.
import type { Dispatcher } from 'undici';
import { EVENT_HEADER, SIGNATURE_HEADER, SIGNATURE_V2_HEADER, TIMESTAMP_HEADER, signBody, signV2 } from '../webhook-signature.js';
import type { AttemptResult, DueDelivery } from './store/outbox.js';
import { EVENT_ID_HEADER, FORWARD_HEADER, forwardHeaderValue } from '../events.js';
import { monotonicMs } from '../monotonic.js';

/** vendor 1.1. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A listener acknowledges before it forwards: anything slower than this is stuck (e.g. suspended). */
export const LISTENER_TIMEOUT_MS = 2000;
/** vendor 1.1: the product name, then -Webhook/1.0. */
export const WEBHOOK_USER_AGENT = 'EximPe-Webhook/1.0';
/** How long an attempt stays leased to this process: longer than any attempt can take. */
const LEASE_MS = DELIVERY_TIMEOUT_MS + 20_000;
/** How often a process holding the database looks for attempts that fell due. */
export const POLL_MS = 1000;

/** What the dispatcher needs of the store. */
export interface OutboxAccess {
  /** Claims the attempts due on the sandbox clock, leased to this process for `leaseMicros` of it. */
  claimDue(leaseMicros: number, limit?: number): DueDelivery[];
  recordAttempt(deliveryId: number, result: AttemptResult): void;
  releaseLease(deliveryId: number): void;
  /** When the earliest attempt falls due, in the machine's time (each due time is on its own tree's clock). */
  nextDue(): number | undefined;
  /** The machine's clock under the sandbox's (epoch microseconds). */
  machineMicros(): number;
  /** Record the time-based events that fell due (links expired unpaid); optional in tests. */
  announceDue?(): number;
  /** Is an attempt due in `clock`'s tree (null: any) leased to a process making it now? Optional in tests. */
  dueInFlight?(clock: string | null): boolean;
}

export interface WebhookOptions {
  outbox: OutboxAccess;
  log?: (line: string) => void;
  timeoutMs?: number;
  /** Why this address may not be posted to (issue 21 item 8), or undefined when it may. */
  refuseTarget?: (url: string) => string | undefined;
  /** Look for due work on a timer (default true). */
  poll?: boolean;
}

/** The receiver is not there: nothing listens on the port, or what listens is not that listener. */
function isGone(r: AttemptResult): boolean {
  return r.error === 'connection refused' || r.status === 404 || r.status === 410;
}

function describe(err: unknown): string {
  const e = err as { code?: string; name?: string; message?: string };
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.name === 'TimeoutError') return 'timeout';
  if (e.code === 'ENOTFOUND') return 'host not found';
  if (e.code === 'ECONNRESET' || e.code === 'UND_ERR_SOCKET') return 'connection reset';
  return e.message ?? String(err);
}

export class WebhookDispatcher {
  private readonly inflight = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();
  private closed = false;
  private draining?: Promise<void>;
  private again = false;
  private timer?: NodeJS.Timeout;
  /** The CLI's keep-alive pool (src/api/agent.ts), loaded with the first delivery: most runs send none. */
  private agent?: Promise<Dispatcher & { close(): Promise<void> }>;

  constructor(private readonly opts: WebhookOptions) {
    if (opts.poll !== false) {
      this.timer = setInterval(() => this.tick(), POLL_MS);
      this.timer.unref();
    }
  }

  /** Something may have fallen due (a write recorded events, the process just opened the database). */
  kick(): void {
    void this.drain();
  }

  private tick(): void {
    this.announce();
    if (this.dueNow()) this.kick();
  }

  /** Time-based events first: their deliveries are then due like any other. */
  private announce(): void {
    try {
      this.opts.outbox.announceDue?.();
    } catch (err) {
      this.opts.log?.(`webhook: cannot record time-based events: ${(err as Error).message}`);
    }
  }

  /** A read: is any attempt due? (Claiming takes the write lock; most pgw runs have nothing due.) */
  private dueNow(): boolean {
    try {
      const due = this.opts.outbox.nextDue();
      return due !== undefined && due <= this.opts.outbox.machineMicros();
    } catch (err) {
      this.opts.log?.(`webhook: cannot read the outbox: ${(err as Error).message}`);
      return false;
    }
  }

  /**
   * Make every attempt due now, and wait for them and for those already on the wire in this
   * process: `clock advance` and `events resend` answer only after this.
   */
  async drain(): Promise<void> {
    if (this.draining) {
      this.again = true;
      await this.draining;
      return this.drain();
    }
    this.draining = (async () => {
      do {
        this.again = false;
        let claimed: DueDelivery[] = [];
        do {
          claimed = [];
          if (this.closed) return;
          this.announce();
          if (this.dueNow()) {
            try {
              claimed = this.opts.outbox.claimDue(LEASE_MS * 1000);
            } catch (err) {
              this.opts.log?.(`webhook: cannot read the outbox: ${(err as Error).message}`);
              return;
            }
          }
          for (const d of claimed) this.start(d);
          // Retries of what just failed may already be due (a clock moved far ahead): go round again.
          await Promise.allSettled([...this.inflight.values()]);
        } while (claimed.length > 0);
      } while (this.again);
    })().finally(() => (this.draining = undefined));
    await this.draining;
  }

  /**
   * Everything due, made: this process's attempts (drain) and those another process sharing the
   * file has leased, in `clock`'s tree (null: any), waited for until they are recorded (or their
   * lease runs out and they are due here again). A clock move answers only after this, so what it
   * reports is what happened (issue 42 item 5: under `pgw mcp` a retry leased by a `sandbox serve`
   * landed after the answer).
   */
  async settle(clock: string | null = null): Promise<void> {
    const until = monotonicMs() + LEASE_MS;
    for (;;) {
      await this.drain();
      if (this.closed || monotonicMs() > until || !this.inFlightElsewhere(clock)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private inFlightElsewhere(clock: string | null): boolean {
    try {
      return this.opts.outbox.dueInFlight?.(clock) === true;
    } catch (err) {
      this.opts.log?.(`webhook: cannot read the outbox: ${(err as Error).message}`);
      return false;
    }
  }

  private start(d: DueDelivery): void {
    const p = this.attempt(d)
      .catch((err: Error) => this.opts.log?.(`webhook: ${err.message}`))
      .finally(() => this.inflight.delete(d.id));
    this.inflight.set(d.id, p);
  }

  private async attempt(d: DueDelivery): Promise<void> {
    const started = monotonicMs();
    let result: AttemptResult;
    const refusal = this.opts.refuseTarget?.(d.url);
    if (refusal !== undefined) {
      result = { error: refusal, ms: 0 };
    } else {
      const headers = this.headersOf(d);
      // Kept with the attempt (issue 33 item 9): what the receiver was given to check.
      const signed = { signature: headers[SIGNATURE_HEADER], signatureV2: headers[SIGNATURE_V2_HEADER] };
      try {
        const status = await this.post(d, headers);
        result = { status, ms: monotonicMs() - started, ...signed };
      } catch (err) {
        if (this.abort.signal.aborted) {
          // Cut off by the process stopping (after its grace): not an answer; due again for
          // whoever opens the file next. A failure within the grace is an answer like any other.
          this.opts.outbox.releaseLease(d.id);
          return;
        }
        result = { error: describe(err), ms: monotonicMs() - started, ...signed };
      }
    }
    if (d.listener && result.status !== 200) result.gone = isGone(result);
    this.opts.outbox.recordAttempt(d.id, result);
    this.report(d, result);
  }

  private report(d: DueDelivery, r: AttemptResult): void {
    const log = this.opts.log;
    if (!log) return;
    const answer = r.status !== undefined ? `HTTP ${r.status}` : (r.error ?? 'no answer');
    if (r.status === 200) log(`webhook ${d.event_type} ${d.event_id} → ${d.url}: delivered (attempt ${d.n})`);
    else if (d.listener && r.gone) log(`webhook: the listener at ${d.url} is gone (${answer}); its registration was removed`);
    else if (d.listener) log(`webhook ${d.event_type} ${d.event_id} → ${d.url}: listener did not take it (${answer}); not retried`);
    else log(`webhook ${d.event_type} ${d.event_id} → ${d.url}: attempt ${d.n} failed (${answer})`);
  }

  /** The request's headers, signed now. */
  private headersOf(d: DueDelivery): Record<string, string> {
    // vendor 1.1: Unix time as a string, on the sandbox clock of the event's account tree; the
    // same value is V2's `t` (1.2).
    const timestamp = String(Math.floor((this.opts.outbox.machineMicros() + d.offsetMicros) / 1_000_000));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      [EVENT_HEADER]: d.event_type,
      [TIMESTAMP_HEADER]: timestamp,
    };
    if (d.key !== null) {
      headers[SIGNATURE_HEADER] = signBody(d.key, d.body);
      headers[SIGNATURE_V2_HEADER] = signV2(d.key, timestamp, d.body);
    }
    // pgw's own, to its own receivers only (issue 45): the forwarding rule's decision for this
    // event, and the event's ID for `pgw events resend` (the listener names it when it cannot forward).
    if (d.listener || d.forward !== null) headers[EVENT_ID_HEADER] = d.event_id;
    if (d.forward !== null) headers[FORWARD_HEADER] = forwardHeaderValue(d.forward);
    return headers;
  }

  /** One POST of the stored bytes; the HTTP status answered. */
  private async post(d: DueDelivery, headers: Record<string, string>): Promise<number> {
    const timeout = d.listener ? LISTENER_TIMEOUT_MS : (this.opts.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    this.agent ??= import('../api/agent.js').then((m) => m.createAgent());
    const agent = await this.agent;
    const url = new URL(d.url);
    const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(timeout)]);
    const res = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      body: d.body,
      headers,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal,
    });
    await res.body.dump().catch(() => undefined);
    return res.statusCode;
  }

  /**
   * Stop looking for work. Within `graceMs`, what is due is still made, attempts on the wire and
   * those that fell due meanwhile (a short run that recorded two events while the first was on
   * the wire sends the second too, not only with the next pgw run); then what is left is cut off
   * (it stays due, for whoever opens the file next).
   */
  async close(graceMs = 1000): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.inflight.size > 0 || this.draining || this.dueNow()) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([this.drain(), grace]);
      clearTimeout(timer);
    }
    this.closed = true;
    this.abort.abort();
    await Promise.allSettled([...this.inflight.values()]);
    if (this.agent) await (await this.agent).close().catch(() => undefined);
  }
}
