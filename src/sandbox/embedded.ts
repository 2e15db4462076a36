// The in-process sandbox behind the `local` and `local-psp` profiles (docs/sandbox.md): opened for
// one pgw run against <config dir>/sandbox.db, and closed after. Several pgw processes may share
// the file at once; SQLite (WAL, IMMEDIATE writes) keeps them safe. It listens on no port: pgw's
// requests reach it through an in-process dispatcher (in-process.ts, issue 23), and the buyer
// pages of what it creates open in a `pgw sandbox serve` on the same database: addressed where
// that serve listens when one runs (its record, serve-record.ts), else on serve's default port.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openSandbox, type OpenSandbox } from './open.js';
import { pagesBaseFor } from './serve-record.js';
import { inProcessDispatcher, type InProcessDispatcher } from './in-process.js';
import { GatewayError, PgwError } from '../errors.js';
import type { SeededAccount } from './store/accounts.js';

/**
 * The address pgw's HTTP core builds the embedded sandbox's URLs on (and --verbose prints). No
 * request leaves the process, so it names no port; `.invalid` (RFC 6761) can never resolve, so
 * nothing else could ever answer to it.
 */
export const EMBEDDED_BASE_URL = 'http://embedded-sandbox.invalid';

export interface EmbeddedSandbox {
  baseUrl: string;
  /**
   * Where the buyer pages of what it creates open: the address of the `pgw sandbox serve` running
   * on this database (`serving`), else the one a serve started without --port and --host would take.
   */
  pages?: { baseUrl: string; serving: boolean };
  /** The transport for pgw's own requests: straight into the sandbox's request pipeline. */
  dispatcher(): InProcessDispatcher;
  account(kind: 'merchant' | 'psp'): { client_id: string; client_secret: string; merchant_id: string };
  /** The demo accounts whole, Encryption Keys included, as `sandbox serve` prints them (pgw sandbox env). */
  accounts(): SeededAccount[];
  close(): Promise<void>;
}

/** `warn`: where a serve record that was there but not trusted is told of (serve-record.ts). */
export async function startEmbedded(dbPath: string, warn?: (line: string) => void): Promise<EmbeddedSandbox> {
  let sandbox: OpenSandbox;
  const pages = pagesBaseFor(dbPath, warn);
  try {
    mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
    sandbox = openSandbox(
      {
        port: 0,
        host: '127.0.0.1',
        dbPath,
        // The buyer pages of orders made here open in a serve on this database (issue 33 item 11).
        publicBaseUrl: pages.baseUrl,
        explainFailures: true,
      },
      () => EMBEDDED_BASE_URL,
    );
  } catch (err) {
    // pgw's own errors already say what is wrong and what to do (no SQLite engine on this Node).
    if (err instanceof PgwError) throw err;
    // A corrupt, unreadable or foreign file: say which file, and what to do about it.
    const code = (err as NodeJS.ErrnoException).code;
    const message = err instanceof Error ? err.message : String(err);
    throw new GatewayError(`the local sandbox's database ${dbPath} could not be opened: ${message}${code && !message.includes(code) ? ` (${code})` : ''}`, {
      code: 'SANDBOX_DATABASE',
      suggestion: `check the file's owner and mode, or move it away to start an empty sandbox (it holds only sandbox data)`,
    });
  }
  return {
    baseUrl: EMBEDDED_BASE_URL,
    pages,
    account(kind) {
      const a = sandbox.accounts.find((x) => x.psp === (kind === 'psp'));
      if (!a) throw new Error(`the sandbox has no ${kind} account`);
      return { client_id: a.client_id, client_secret: a.client_secret, merchant_id: a.merchant_id };
    },
    accounts: () => sandbox.accounts,
    dispatcher: () => inProcessDispatcher(sandbox.handle),
    close: () => sandbox.close(),
  };
}
