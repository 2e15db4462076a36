// The other side of a comparison: pgw's own sandbox, in this process, on a database of its own in a
// temporary directory (never the user's embedded one: a comparison must not change it, and must
// start from a known world). Its requests go through the same in-process dispatcher the embedded
// profile uses, so they meet the same request pipeline `pgw sandbox serve` runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors.js';
import { send, type Side } from './exchange.js';
import type { Need, Vars } from './scenario.js';
import { capturedFrom } from './select.js';

/** A base address no request can leave the process for (RFC 6761 `.invalid`), as the embedded sandbox's. */
const SANDBOX_BASE_URL = 'http://compare-sandbox.invalid';

export interface SandboxSide {
  side: Side;
  /** The IDs the sandbox's counterparts of `--payment` and `--subscription` have. */
  vars: Vars;
  /** Its accounts' secrets: kept out of everything printed or recorded, like the profile's. */
  secrets: string[];
  /** Requests made to set it up (seed, a subscription): not compared, counted apart. */
  setupRequests: number;
  close(): Promise<void>;
}

export interface SandboxSideOptions {
  /** A PSP's profile: the sandbox acts as its PSP. */
  psp: boolean;
  /** The profile acts for a sub-merchant (X-Merchant-ID): the sandbox's PSP acts for its approved one. */
  actsForMerchant: boolean;
  apiVersion: string;
  timeoutMs: number;
  userAgent: string;
  needs: Set<Need>;
  log?: (line: string) => void;
}

/**
 * Opens the sandbox on a fresh database and gives it what the scenario reads on the gateway: the
 * demo data of `pgw sandbox seed` (payments, a settlement, a link, so lists have entries), a
 * captured payment not yet settled for `--payment`, and a subscription for `--subscription`.
 */
export async function openSandboxSide(opts: SandboxSideOptions): Promise<SandboxSide> {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-compare-'));
  const [{ openSandbox }, { inProcessDispatcher }] = await Promise.all([import('../sandbox/open.js'), import('../sandbox/in-process.js')]);
  let sandbox: ReturnType<typeof openSandbox> | undefined;
  const close = async (): Promise<void> => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    sandbox = openSandbox({ port: 0, host: '127.0.0.1', dbPath: join(dir, 'sandbox.db'), pollWebhooks: false }, () => SANDBOX_BASE_URL);
    const account = sandbox.accounts.find((a) => a.psp === opts.psp)!;
    const side: Side = {
      name: 'sandbox',
      baseUrl: SANDBOX_BASE_URL,
      dispatcher: inProcessDispatcher(sandbox.handle) as unknown as Dispatcher,
      clientId: account.client_id,
      clientSecret: account.client_secret,
      apiVersion: opts.apiVersion,
      timeoutMs: opts.timeoutMs,
      userAgent: opts.userAgent,
      log: opts.log,
    };
    let setupRequests = 0;
    const setup = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
      setupRequests++;
      const sent = await send(side, 'set-up', { method, path, body });
      if (sent.answer.status >= 300) throw new GatewayError(`pgw's sandbox could not be set up for the comparison: ${method} ${path} answered ${sent.answer.status}`, { code: 'COMPARE_SETUP' });
      return sent.body;
    };
    if (opts.actsForMerchant) {
      // The seeded PSP has one APPROVED sub-merchant (docs/sandbox.md, "Accounts and data").
      const list = await setup('GET', '/partners/merchants/?page=1&page_size=50');
      const results = (list as { data?: { results?: { id: string; kyc_status: string }[] } }).data?.results ?? [];
      side.merchantId = results.find((m) => m.kyc_status === 'APPROVED')?.id;
    }
    const vars: Vars = {};
    const seeded = await setup('POST', '/sandbox/seed/', {});
    // The seed's third payment is captured, unrefunded and not settled (store/admin.ts seedData).
    vars.payment_id = capturedFrom(seeded, [['data', 'payments', '2']]);
    if (opts.needs.has('subscription')) {
      vars.subscription_id = capturedFrom(await setup('POST', '/sandbox/subscriptions/', { amount: '10.00' }), [['data', 'uid']]);
    }
    return { side, vars, secrets: sandbox.accounts.flatMap((a) => [a.client_secret, a.encryption_key]), setupRequests, close };
  } catch (err) {
    await close();
    throw err;
  }
}
