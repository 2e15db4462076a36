// Two-step writes on production (issue: "the rails, for agents"; issue 43 item 3): the first call
// of a write gets a preview and a token; only a second call with that token, for the same
// request, within five minutes, sends it. The token holds the request as previewed (every value
// pgw generated or computed for it, and the digest of each file it uploads), so what is sent is
// what the person saw. It binds the arguments as read: "1500.00" and 1500 are one amount.
// A token is spent once a request went out with it; a refusal (another request, a changed file,
// a guard) leaves it as it was. Kept in this process only: a restarted server knows no token.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { RefusedError } from '../errors.js';

export const TOKEN_LIFETIME_MS = 5 * 60_000;

/** What a token sends: the arguments with their generated values, and each file's sha256. */
export interface Approved {
  input: unknown;
  digests: Record<string, string>;
}

interface Issued extends Approved {
  digest: Buffer;
  tool: string;
  expiresAt: number;
}

/** The same arguments in any key order give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function digestOf(tool: string, args: unknown): Buffer {
  return createHash('sha256').update(`${tool}\n${canonicalJson(args)}`).digest();
}

const again = (tool: string) => `call ${tool} without confirmation_token for a new preview and token`;

export class ConfirmationTokens {
  private readonly issued = new Map<string, Issued>();
  /** Tokens spent or expired: a second use is told it was used, not that it is unknown. */
  private readonly spent = new Set<string>();

  constructor(private readonly now: () => number) {}

  /** `args`: the arguments as read (what the second call must repeat); `approved`: what it sends. */
  issue(tool: string, args: unknown, approved: Approved): { token: string; expiresAt: Date } {
    this.sweep();
    const token = `pgwc_${randomBytes(18).toString('base64url')}`;
    const expiresAt = this.now() + TOKEN_LIFETIME_MS;
    this.issued.set(token, { ...approved, digest: digestOf(tool, args), tool, expiresAt });
    return { token, expiresAt: new Date(expiresAt) };
  }

  /**
   * What `token` sends, when it was issued for this tool and these arguments and is unused and
   * unexpired; otherwise a refusal, the token left as it was (an expired one is gone anyway).
   */
  check(token: string, tool: string, args: unknown): Approved {
    const issued = this.issued.get(token);
    if (issued === undefined) {
      const used = this.spent.has(token);
      throw new RefusedError(used ? 'confirmation_token was already used or has expired: nothing was sent' : 'confirmation_token is not one this server issued: nothing was sent', {
        code: used ? 'CONFIRMATION_USED' : 'CONFIRMATION_UNKNOWN',
        suggestion: again(tool),
      });
    }
    if (this.now() > issued.expiresAt) {
      this.spend(token);
      throw new RefusedError('confirmation_token has expired (a token is valid for 5 minutes): nothing was sent', { code: 'CONFIRMATION_EXPIRED', suggestion: again(tool) });
    }
    if (issued.tool !== tool || !timingSafeEqual(issued.digest, digestOf(tool, args))) {
      throw new RefusedError(`confirmation_token was issued for a different request${issued.tool !== tool ? ` (${issued.tool})` : ''}: nothing was sent, and the token still holds the request it was issued for`, {
        code: 'CONFIRMATION_MISMATCH',
        suggestion: `send the arguments of that preview with it, or ${again(tool)}`,
      });
    }
    return { input: issued.input, digests: issued.digests };
  }

  /** The request went out (or may have): the token is done. */
  spend(token: string): void {
    this.issued.delete(token);
    this.spent.add(token);
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, issued] of this.issued) if (now > issued.expiresAt) this.spend(token);
  }
}
