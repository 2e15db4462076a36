// Starting and stopping the sandbox: `pgw sandbox serve` and the tests on the network
// (startServer), the embedded profile in the process (openSandbox; embedded.ts).
import type { AddressInfo } from 'node:net';
import { serveHandler } from './server.js';
import { openSandbox, type ServeOptions } from './open.js';
import type { SeededAccount } from './store.js';

export { DEFAULT_SANDBOX_PORT, type ServeOptions } from './open.js';

export interface RunningSandbox {
  baseUrl: string;
  accounts: SeededAccount[];
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startServer(opts: ServeOptions): Promise<RunningSandbox> {
  let baseUrl = '';
  const sandbox = openSandbox(opts, () => baseUrl);
  const server = serveHandler(sandbox.handle, { requestLog: opts.requestLog, log: opts.log });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await sandbox.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${urlHost(opts.host)}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    accounts: sandbox.accounts,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await stopped;
        await sandbox.close();
      })();
      return closing;
    },
  };
}
