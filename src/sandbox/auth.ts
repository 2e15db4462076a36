// Authentication (spec part 5) and who the caller may act for.
//
// A merchant reaches its own resources; a PSP reaches its own and its sub-merchants' (rule 3),
// narrowed to one merchant by X-Merchant-ID. Anything else answers as nonexistent: reads find
// nothing, and acting for a merchant outside that set is "merchant not found".
import type { IncomingHttpHeaders } from 'node:http';
import { SandboxError, merchantNotFound } from './errors.js';
import type { MerchantRow, Scope, Store } from './store.js';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === '' ? undefined : s.trim();
}

/** spec part 5 rule 2 (missing: ERR_AUTH_000) and sandbox.md (wrong: 401 ERR_AUTH_001). */
export function authenticate(store: Store, headers: IncomingHttpHeaders): MerchantRow {
  const clientId = header(headers, 'x-client-id');
  const secret = header(headers, 'x-client-secret');
  if (clientId === undefined || secret === undefined) {
    const missing = [clientId === undefined ? 'X-Client-ID' : null, secret === undefined ? 'X-Client-Secret' : null].filter(Boolean);
    throw new SandboxError(401, 'ERR_AUTH_000', 'Missing credentials', {
      authentication: `missing header${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}`,
    });
  }
  const account = store.authenticate(clientId, secret);
  if (!account) {
    throw new SandboxError(401, 'ERR_AUTH_001', 'Invalid credentials', {
      authentication: 'X-Client-ID and X-Client-Secret do not match an account',
    });
  }
  return account;
}

export class Caller {
  private readonly subs: readonly string[];
  private readonly headerMerchant?: string;
  /** The merchant named by X-Merchant-ID when the caller may act for it; null when it may not. */
  private readonly named?: string | null;

  constructor(
    readonly account: MerchantRow,
    store: Store,
    headers: IncomingHttpHeaders,
  ) {
    this.subs = account.is_psp === 1 ? store.subMerchantIds(account.merchant_id) : [];
    this.headerMerchant = header(headers, 'x-merchant-id');
    if (this.headerMerchant !== undefined) {
      const h = this.headerMerchant;
      this.named = h === account.merchant_id || this.subs.includes(h) ? h : null;
    }
  }

  get isPsp(): boolean {
    return this.account.is_psp === 1;
  }

  /** Everything the account may reach, whatever X-Merchant-ID narrows it to (vendor 5.2: a settlement is found, its rows narrowed). */
  get reach(): Scope {
    return [this.account.merchant_id, ...this.subs];
  }

  /** Merchant ids whose resources this request may read. */
  get scope(): Scope {
    if (this.named === null) return [];
    if (this.named !== undefined) return [this.named];
    return [this.account.merchant_id, ...this.subs];
  }

  /**
   * The merchant a create acts for. PSPs must name it on create order (spec 4.1, part 5);
   * elsewhere a PSP without X-Merchant-ID acts for itself.
   */
  acting(opts: { pspMustName?: boolean } = {}): string {
    if (this.named === null) throw merchantNotFound(this.headerMerchant!);
    if (this.named !== undefined) return this.named;
    if (this.isPsp && opts.pspMustName) {
      // vendor N4: a PSP that omits X-Merchant-ID on order or link create is 401 ERR_AUTH_000.
      throw new SandboxError(401, 'ERR_AUTH_000', 'Missing credentials', {
        authentication: 'missing header X-Merchant-ID: PSP accounts name the sub-merchant acted for',
      });
    }
    return this.account.merchant_id;
  }
}
