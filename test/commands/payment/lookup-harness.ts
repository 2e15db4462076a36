// Shared by the look-up tests (payment get, link get): the sandbox harness over real HTTP, pgw
// pointed at it, and a gateway stand-in that counts the requests in flight at once.
import { afterAll, beforeAll } from 'vitest';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from '../../sandbox/harness.js';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from '../../helpers/run.js';

export interface LookupTarget {
  readonly h: Harness;
  pgw(argv: string[], opts?: RunOptions): Promise<RunResult>;
}

export function useHarness(): LookupTarget {
  let h: Harness | undefined;
  let cfg: { dir: string; cleanup: () => void } | undefined;
  beforeAll(async () => {
    h = await startHarness();
    cfg = tempConfigDir();
  });
  afterAll(async () => {
    await h?.close();
    cfg?.cleanup();
  });
  return {
    get h() {
      return h!;
    },
    pgw: (argv, opts = {}) =>
      runCli(argv, {
        ...opts,
        env: {
          PGW_CONFIG_DIR: cfg!.dir,
          PGW_BASE_URL: h!.sandbox.baseUrl,
          PGW_CLIENT_ID: h!.merchant.client_id,
          PGW_CLIENT_SECRET: h!.merchant.client_secret,
          ...opts.env,
        },
      }),
  };
}

export interface CountingGateway {
  baseUrl: string;
  /** The most requests that were in flight at the same moment. */
  readonly maxInFlight: number;
  readonly total: number;
  close(): Promise<void>;
}

/**
 * Answers GET <prefix><id>/ with `{success, data: {<idKey>: id}}`. It holds every request until
 * one more than `limit` are in flight (the client broke its bound: the count shows it), every
 * expected request has arrived, or no new request has come for a while (the client is waiting on
 * the held ones: it sent all it may). The count is what is asserted, never the timing: a client
 * within its bound never gets past `limit`, whatever the speed.
 */
export async function startCountingGateway(opts: { limit: number; expected: number; idKey: string }): Promise<CountingGateway> {
  let inFlight = 0;
  let maxInFlight = 0;
  let total = 0;
  const held: (() => void)[] = [];
  let idle: NodeJS.Timeout | undefined;
  const releaseAll = () => {
    clearTimeout(idle);
    for (const release of held.splice(0)) release();
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    total++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const id = /\/([A-Za-z0-9_-]+)\/$/.exec(req.url ?? '')?.[1] ?? '?';
    held.push(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, message: 'ok', data: { [opts.idKey]: id, status: 'captured' } }));
    });
    clearTimeout(idle);
    if (held.length > opts.limit || total >= opts.expected) releaseAll();
    else idle = setTimeout(releaseAll, 400);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get maxInFlight() {
      return maxInFlight;
    },
    get total() {
      return total;
    },
    close: () =>
      new Promise<void>((resolve) => {
        releaseAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
