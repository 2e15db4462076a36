// A gateway stub for command tests: per test, a fresh undici MockAgent with the network shut off,
// a fresh config directory, and pgw run in-process against them with the credentials in the
// environment. After each test every interceptor must have been used.
import { afterEach, beforeEach } from 'vitest';
import { MockAgent } from 'undici';
import type { Env } from '../../src/context.js';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from './run.js';

export const STUB_BASE_URL = 'https://gw.test';

export interface GatewayStub {
  /** This test's agent (also the dispatcher pgw is given). */
  readonly agent: MockAgent;
  /** The interceptors of STUB_BASE_URL. */
  readonly pool: ReturnType<MockAgent['get']>;
  /** This test's config directory (PGW_CONFIG_DIR). */
  readonly dir: string;
  /** pgw with the stub as dispatcher; `opts.env` is laid over the stub's environment. */
  pgw(argv: string[], opts?: RunOptions): Promise<RunResult>;
}

/** Registers the per-test set-up and checks in the calling suite; read the fields inside tests. */
export function useGatewayStub(opts: { clientId?: string; secret: string; env?: Env }): GatewayStub {
  let agent: MockAgent | undefined;
  let tmp: ReturnType<typeof tempConfigDir> | undefined;
  const live = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the gateway stub is used outside a test');
    return value;
  };

  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    tmp = tempConfigDir();
  });
  afterEach(async () => {
    try {
      agent?.assertNoPendingInterceptors();
    } finally {
      await agent?.close();
      tmp?.cleanup();
      agent = undefined;
      tmp = undefined;
    }
  });

  return {
    get agent() {
      return live(agent);
    },
    get pool() {
      return live(agent).get(STUB_BASE_URL);
    },
    get dir() {
      return live(tmp).dir;
    },
    pgw(argv, runOpts = {}) {
      return runCli(argv, {
        dispatcher: live(agent),
        ...runOpts,
        env: {
          PGW_CONFIG_DIR: live(tmp).dir,
          PGW_BASE_URL: STUB_BASE_URL,
          PGW_CLIENT_ID: opts.clientId ?? 'cid',
          PGW_CLIENT_SECRET: opts.secret,
          NO_COLOR: '1',
          ...opts.env,
          ...runOpts.env,
        },
      });
    },
  };
}
