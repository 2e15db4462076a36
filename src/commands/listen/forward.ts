// --forward-to: each event POSTed to the developer's app with the exact body and the sender's
// headers (hop-by-hop ones aside, and Host set for the new address). One at a time, in the order
// received, so the app sees events in the order the gateway sent them.
import type { Dispatcher } from 'undici';
import { monotonicMs } from '../../monotonic.js';
import { EVENT_ID_HEADER, FORWARD_HEADER } from '../../events.js';

/** An app that has not answered by then is reported as failed; the listener carries on. */
export const FORWARD_TIMEOUT_MS = 10_000;

// RFC 9110 7.6.1 hop-by-hop fields, those the new request computes itself, and the sandbox's
// word to this listener (issue 45), which is not the gateway's and not for the app.
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-connection',
  'content-length',
  'expect',
  'trailer',
  FORWARD_HEADER.toLowerCase(),
  EVENT_ID_HEADER.toLowerCase(),
]);

export type ForwardResult = { ok: true; status: number; ms: number } | { ok: false; error: string; ms: number };

export interface Forwarder {
  forward(body: Buffer, rawHeaders: string[]): Promise<ForwardResult>;
  /** `cut`: a forward still on the wire is abandoned (the stop's time ran out), not waited for. */
  close(cut?: boolean): Promise<void>;
}

export function createForwarder(target: string, timeoutMs = FORWARD_TIMEOUT_MS): Forwarder {
  const url = new URL(target);
  let agent: Promise<Dispatcher & { close(): Promise<void>; destroy(): Promise<void> }> | undefined;
  return {
    async forward(body, rawHeaders) {
      const started = monotonicMs();
      const ms = () => Math.round(monotonicMs() - started);
      const headers: string[] = [];
      for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
        if (!NOT_FORWARDED.has(rawHeaders[i]!.toLowerCase())) headers.push(rawHeaders[i]!, rawHeaders[i + 1]!);
      }
      try {
        agent ??= import('../../api/agent.js').then((m) => m.createAgent() as Dispatcher & { close(): Promise<void>; destroy(): Promise<void> });
        const res = await (
          await agent
        ).request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        await res.body.dump();
        return { ok: true, status: res.statusCode, ms: ms() };
      } catch (err) {
        return { ok: false, error: describe(err), ms: ms() };
      }
    },
    async close(cut = false) {
      if (agent) await (cut ? (await agent).destroy() : (await agent).close()).catch(() => undefined);
    },
  };
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === 'ECONNREFUSED') return 'connection refused (is your app running?)';
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') return 'no answer in time';
  if (e.code === 'ENOTFOUND') return 'host not found';
  return e.message ?? String(err);
}
