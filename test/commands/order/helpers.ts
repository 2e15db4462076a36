// Shared by the order command tests: the sandbox over real HTTP (started once per file on port 0),
// a MockAgent for answers the sandbox does not give (and, with no interceptor, proof that nothing
// was sent), a complete order as flags and as a file, and a marker card to hunt for.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { startServer, type RunningSandbox } from '../../../src/sandbox/serve.js';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from '../../helpers/run.js';
import { orderBody } from '../../sandbox/harness.js';

/** Marker card data: found anywhere in output or files, it leaked. */
export const CARD_NUMBER = '4000056655665556';
export const CVV = '7319';
export const MASKED = '400005******5556';

export function cardJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    number: CARD_NUMBER,
    cardholder_name: 'Asha Verma',
    expiry_month: '12',
    expiry_year: String(new Date().getUTCFullYear() + 2),
    cvv: CVV,
    network: 'visa',
    nickname: 'Personal Visa',
    identifier: 'customer-0001',
    ...over,
  };
}

let refCounter = 0;
export const uniqueRef = () => `ref-${process.pid}-${Date.now().toString(36)}-${++refCounter}`;

/** A valid v3 create-order body (hosted, physical goods): the sandbox tests' own, with a unique reference. */
export function orderJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return orderBody({ amount: '1500.00', reference_id: uniqueRef(), ...over });
}

/** The same order as flags only. */
export function orderFlags(): string[] {
  return [
    '--amount', '1500',
    '--currency', 'INR',
    '--reference-id', uniqueRef(),
    '--return-url', 'https://merchant.example/return',
    '--buyer-name', 'Asha Verma',
    '--buyer-email', 'asha@example.com',
    '--buyer-phone', '+919876543210',
    '--address-line1', '12 MG Road',
    '--city', 'Bengaluru',
    '--state', 'Karnataka',
    '--postal-code', '560001',
    '--product-name', 'Scarf',
    '--goods', 'physical_goods',
    '--hs-code', '62141000',
    '--invoice-number', 'INV-1',
  ];
}

export interface Workspace {
  readonly dir: string;
  file(name: string, content: unknown): string;
}

/** A temp config dir per test, for PGW_CONFIG_DIR and for files the test writes. */
export function useWorkspace(): Workspace {
  let tmp: { dir: string; cleanup: () => void } | undefined;
  beforeEach(() => {
    tmp = tempConfigDir();
  });
  afterEach(() => tmp?.cleanup());
  return {
    get dir() {
      return tmp!.dir;
    },
    file(name, content) {
      const path = join(tmp!.dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    },
  };
}

export interface SandboxTarget {
  readonly sandbox: RunningSandbox;
  readonly env: Record<string, string>;
  pgw(argv: string[], opts?: RunOptions): Promise<RunResult>;
}

/** One sandbox server for the file (port 0, its own database); each run reaches it over HTTP. */
export function useSandbox(ws: Workspace): SandboxTarget {
  let sandbox: RunningSandbox | undefined;
  let dbDir: { dir: string; cleanup: () => void } | undefined;
  beforeAll(async () => {
    dbDir = tempConfigDir();
    sandbox = await startServer({ port: 0, host: '127.0.0.1', dbPath: join(dbDir.dir, 'sandbox.db') });
  });
  afterAll(async () => {
    await sandbox?.close();
    dbDir?.cleanup();
  });
  const target: SandboxTarget = {
    get sandbox() {
      return sandbox!;
    },
    get env() {
      const merchant = sandbox!.accounts.find((a) => !a.psp)!;
      return {
        PGW_CONFIG_DIR: ws.dir,
        PGW_BASE_URL: sandbox!.baseUrl,
        PGW_CLIENT_ID: merchant.client_id,
        PGW_CLIENT_SECRET: merchant.client_secret,
      };
    },
    pgw: (argv, opts = {}) => runCli(argv, { ...opts, env: { ...target.env, ...opts.env } }),
  };
  return target;
}

export const GATEWAY = 'https://gw.test';
export const SECRET = 'sk_marker_order_5150';

export interface MockTarget {
  readonly agent: MockAgent;
  pgw(argv: string[], opts?: RunOptions): Promise<RunResult>;
  /** Reply once to method+path (on `at`, default the mock's origin); records what was sent. */
  reply(method: string, path: string, status: number, body: unknown, at?: string): { body?: unknown; headers: Record<string, string> }[];
}

/** A MockAgent per test that refuses the network and fails on unused interceptors. */
export function useMock(ws: Workspace, origin = GATEWAY): MockTarget {
  let agent: MockAgent | undefined;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    agent!.assertNoPendingInterceptors();
    await agent!.close();
  });
  return {
    get agent() {
      return agent!;
    },
    pgw: (argv, opts = {}) =>
      runCli(argv, {
        dispatcher: agent,
        ...opts,
        env: { PGW_CONFIG_DIR: ws.dir, PGW_BASE_URL: origin, PGW_CLIENT_ID: 'cid', PGW_CLIENT_SECRET: SECRET, ...opts.env },
      }),
    reply(method, path, status, body, at = origin) {
      const seen: { body?: unknown; headers: Record<string, string> }[] = [];
      agent!
        .get(at)
        .intercept({ method, path })
        .reply((o) => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries((o.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = String(v);
          seen.push({ headers, body: typeof o.body === 'string' ? JSON.parse(o.body) : undefined });
          return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { 'content-type': 'application/json' } } };
        });
      return seen;
    },
  };
}
