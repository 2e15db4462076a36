// The in-process sandbox behind the `local` and `local-psp` profiles (docs/sandbox.md): started on
// 127.0.0.1 on a free port for one pgw run, against <config dir>/sandbox.db, and closed after.
// Several pgw processes may share the file at once; SQLite (WAL, IMMEDIATE writes) keeps them safe.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_SANDBOX_PORT, startServer, type RunningSandbox } from './serve.js';
import { GatewayError, PgwError } from '../errors.js';
import type { Duplex } from 'node:stream';

export interface EmbeddedSandbox {
  baseUrl: string;
  /**
   * A connection to the sandbox inside this process, with no socket (memory-socket.ts): what pgw's
   * own requests use. baseUrl stays a listening address for anything outside (a browser).
   */
  connect?(): Duplex;
  account(kind: 'merchant' | 'psp'): { client_id: string; client_secret: string; merchant_id: string };
  close(): Promise<void>;
}

export async function startEmbedded(dbPath: string): Promise<EmbeddedSandbox> {
  let running: RunningSandbox;
  try {
    mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
    running = await startServer({
      port: 0,
      host: '127.0.0.1',
      dbPath,
      // The buyer pages of orders made here open once `pgw sandbox serve` runs on its default port.
      publicBaseUrl: `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`,
      explainFailures: true,
    });
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
    baseUrl: running.baseUrl,
    account(kind) {
      const a = running.accounts.find((x) => x.psp === (kind === 'psp'));
      if (!a) throw new Error(`the sandbox has no ${kind} account`);
      return { client_id: a.client_id, client_secret: a.client_secret, merchant_id: a.merchant_id };
    },
    connect: () => running.connect(),
    close: () => running.close(),
  };
}
