// Starting and stopping the sandbox: `pgw sandbox serve`, the embedded profile and the tests.
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSandboxServer } from './server.js';
import { openStore, type SeededAccount } from './store.js';
import { WebhookDispatcher } from './webhooks.js';
import { webhookHostPolicy } from './webhook-hosts.js';
import type { PagesHandler } from './pages-hook.js';
import { memorySocketPair } from './memory-socket.js';
import type { Duplex } from 'node:stream';

/** `pgw sandbox serve` listens here by default; embedded profiles print page addresses on it. */
export const DEFAULT_SANDBOX_PORT = 4010;

export interface ServeOptions {
  port: number;
  host: string;
  dbPath: string;
  log?: (line: string) => void;
  /** Every request, once answered (request-log.ts). */
  requestLog?: (req: IncomingMessage, res: ServerResponse) => void;
  /** Fixed base for buyer-page addresses in responses (default: the request's Host). */
  publicBaseUrl?: string;
  /** The sandbox's clock (tests); default the system clock. */
  clock?: () => Date;
  /** Answer sandbox-only operations as production does, and serve no /sandbox/ helpers. */
  production?: boolean;
  pages?: PagesHandler;
  /** Hosts outside loopback that webhooks may go to when bound beyond loopback (--allow-webhook-host). */
  allowWebhookHosts?: readonly string[];
  /** Look for due deliveries on a timer (default true; tests that drive the clock may turn it off). */
  pollWebhooks?: boolean;
  /** Browser origins allowed besides loopback ones (--cors-origin). */
  corsOrigins?: readonly string[];
  /** The embedded sandbox: unexpected failures name the database and their cause (server.ts). */
  explainFailures?: boolean;
  /** Snapshots over HTTP cover the whole database (--allow-global-snapshots). */
  allowGlobalSnapshots?: boolean;
}

export interface RunningSandbox {
  baseUrl: string;
  accounts: SeededAccount[];
  /** A connection to this server that never leaves the process (memory-socket.ts). */
  connect(): Duplex;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startServer(opts: ServeOptions): Promise<RunningSandbox> {
  const clock = opts.clock;
  const store = openStore(opts.dbPath, clock ? { micros: () => clock().getTime() * 1000 } : {});
  // issue 21 item 8: a server others can reach must not post to any host an account names.
  const refuseTarget = webhookHostPolicy(opts.host, opts.allowWebhookHosts ?? []);
  const webhooks = new WebhookDispatcher({
    outbox: store,
    log: opts.log,
    refuseTarget,
    poll: opts.pollWebhooks,
  });
  store.refuseWebhookTarget = refuseTarget;
  store.onCommit = () => webhooks.kick();
  store.deliverDue = () => webhooks.drain();
  // Deliveries that fell due while no process held the database (a killed serve, a short run).
  webhooks.kick();
  let baseUrl = '';
  const server = createSandboxServer({
    store,
    baseUrl: () => baseUrl,
    publicBaseUrl: opts.publicBaseUrl,
    // Date rules of the schemas read the sandbox clock too.
    now: () => new Date(Math.floor(store.nowMicros() / 1000)),
    production: opts.production,
    pages: opts.pages,
    log: opts.log,
    corsOrigins: opts.corsOrigins,
    requestLog: opts.requestLog,
    explainFailures: opts.explainFailures ? { database: opts.dbPath } : undefined,
    allowGlobalSnapshots: opts.allowGlobalSnapshots,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    store.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${urlHost(opts.host)}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    accounts: store.accounts(),
    connect() {
      const [client, end] = memorySocketPair();
      server.emit('connection', end);
      return client;
    },
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await stopped;
        await webhooks.close();
        store.close();
      })();
      return closing;
    },
  };
}
