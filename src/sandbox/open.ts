// The sandbox without a transport: its database, its webhook deliveries and its request pipeline.
// `pgw sandbox serve` puts node:http in front of it (serve.ts); the embedded profile calls it in
// the process (embedded.ts, in-process.ts) and so never loads node:http's server or a socket.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequestHandler, type RequestHandler } from './pipeline.js';
import { withParityTrace } from './parity-trace.js';
import { openStore, type SeededAccount, type Store } from './store.js';
import { WebhookDispatcher } from './webhooks.js';
import { webhookHostPolicy } from './webhook-hosts.js';
import type { PagesHandler } from './pages-hook.js';

export { DEFAULT_SANDBOX_PORT } from './default-port.js';

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

/** The sandbox without a transport: its store, its webhook deliveries and its request pipeline. */
export interface OpenSandbox {
  accounts: SeededAccount[];
  /** The store itself, for what works on the file rather than over a request (`pgw sandbox clock --all`). */
  store: Store;
  handle: RequestHandler;
  close(): Promise<void>;
}

/**
 * Opens the database and starts webhook delivery. `baseUrl` is read on each request that needs
 * it (a page address with no Host header): a listening server knows it only once bound.
 */
export function openSandbox(opts: ServeOptions, baseUrl: () => string): OpenSandbox {
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
  store.deliverDue = (clock) => webhooks.settle(clock ?? null);
  // Deliveries that fell due while no process held the database (a killed serve, a short run).
  webhooks.kick();
  // The parity trace (parity-trace.ts) reads the process's environment, as the engine choice does
  // (sqlite/select.ts): a test run sets it for every process it starts.
  const handle = withParityTrace(createRequestHandler({
    store,
    baseUrl,
    publicBaseUrl: opts.publicBaseUrl,
    production: opts.production,
    pages: opts.pages,
    log: opts.log,
    corsOrigins: opts.corsOrigins,
    explainFailures: opts.explainFailures ? { database: opts.dbPath } : undefined,
    allowGlobalSnapshots: opts.allowGlobalSnapshots,
  }), store, process.env);
  let closing: Promise<void> | undefined;
  return {
    accounts: store.accounts(),
    store,
    handle,
    close() {
      closing ??= (async () => {
        await webhooks.close();
        store.close();
      })();
      return closing;
    },
  };
}

