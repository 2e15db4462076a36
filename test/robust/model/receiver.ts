// The model test's webhook receiver: a node:http server on 127.0.0.1 (port 0) that answers each
// account's addresses with the status a command set for that account (200 until told otherwise)
// and records what it was sent. Loopback only, bounded: it keeps the last MAX_KEPT requests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  event: string | undefined;
  sequence: string | undefined;
  answered: number;
}

const MAX_KEPT = 5000;
const MAX_BODY = 256 * 1024;

export class Receiver {
  private server?: Server;
  private base = '';
  /** `<run>/<account>` → the status its addresses answer. */
  private readonly statuses = new Map<string, number>();
  readonly received: Received[] = [];
  /** Requests read but not yet answered (the model waits for none before it looks). */
  inflight = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.inflight++;
      let size = 0;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      req.on('end', () => {
        const path = req.url ?? '/';
        const key = /^\/r\/([^/]+\/[^/]+)\//.exec(path)?.[1];
        const status = (key && this.statuses.get(key)) || 200;
        let sequence: string | undefined;
        try {
          sequence = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sequence_number?: string }).sequence_number;
        } catch {
          // not JSON: recorded without it
        }
        const ev = req.headers['x-webhook-event'];
        this.received.push({ path, event: Array.isArray(ev) ? ev[0] : ev, sequence, answered: status });
        if (this.received.length > MAX_KEPT) this.received.splice(0, this.received.length - MAX_KEPT);
        res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
        res.end(status === 200 ? 'ok' : 'no');
        this.inflight--;
      });
      req.on('error', () => {
        this.inflight--;
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The k-th address of `account` in run `run`. */
  url(run: string, account: string, k: number): string {
    return `${this.base}/r/${run}/${account}/${k}`;
  }

  /** Every address of `account` in `run` answers `status` from now on. */
  answer(run: string, account: string, status: number): void {
    this.statuses.set(`${run}/${account}`, status);
  }

  forget(run: string): void {
    for (const k of [...this.statuses.keys()]) if (k.startsWith(`${run}/`)) this.statuses.delete(k);
    this.received.length = 0;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    const s = this.server;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    s.closeAllConnections();
    await closed;
  }
}
