// The in-process sandbox behind the `local` and `local-psp` profiles (docs/sandbox.md): started on
// 127.0.0.1 on a free port for one pgw run, against <config dir>/sandbox.db, and closed after.
// Several pgw processes may share the file at once; SQLite (WAL, IMMEDIATE writes) keeps them safe.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_SANDBOX_PORT, startServer } from './serve.js';

export interface EmbeddedSandbox {
  baseUrl: string;
  account(kind: 'merchant' | 'psp'): { client_id: string; client_secret: string; merchant_id: string };
  close(): Promise<void>;
}

export async function startEmbedded(dbPath: string): Promise<EmbeddedSandbox> {
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  const running = await startServer({
    port: 0,
    host: '127.0.0.1',
    dbPath,
    // The buyer pages of orders made here open once `pgw sandbox serve` runs on its default port.
    publicBaseUrl: `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`,
  });
  return {
    baseUrl: running.baseUrl,
    account(kind) {
      const a = running.accounts.find((x) => x.psp === (kind === 'psp'));
      if (!a) throw new Error(`the sandbox has no ${kind} account`);
      return { client_id: a.client_id, client_secret: a.client_secret, merchant_id: a.merchant_id };
    },
    close: () => running.close(),
  };
}
