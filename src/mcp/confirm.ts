// Two-step writes on production (issue: "the rails, for agents"): the first call of a write gets a
// preview and a token; only a second call with that token, for exactly the same request, within
// five minutes, sends it. A token is good once. What binds it is a digest of the tool and its
// arguments, kept in this process only: a restarted server knows no token, and nothing is written.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { RefusedError } from '../errors.js';

export const TOKEN_LIFETIME_MS = 5 * 60_000;

interface Issued {
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

export class ConfirmationTokens {
  private readonly issued = new Map<string, Issued>();
  /** Tokens redeemed or refused: a second use is told it was used, not that it is unknown. */
  private readonly spent = new Set<string>();

  constructor(private readonly now: () => number) {}

  issue(tool: string, args: unknown): { token: string; expiresAt: Date } {
    this.sweep();
    const token = `pgwc_${randomBytes(18).toString('base64url')}`;
    const expiresAt = this.now() + TOKEN_LIFETIME_MS;
    this.issued.set(token, { digest: digestOf(tool, args), tool, expiresAt });
    return { token, expiresAt: new Date(expiresAt) };
  }

  /**
   * Throws unless `token` was issued for this tool and these arguments, is unused and unexpired.
   * Any attempt spends it, refused or not: a token tried on another request must not stay usable.
   */
  redeem(token: string, tool: string, args: unknown): void {
    const issued = this.issued.get(token);
    if (issued === undefined) {
      const used = this.spent.has(token);
      throw new RefusedError(used ? 'confirmation_token was already used: nothing was sent' : 'confirmation_token is not one this server issued: nothing was sent', {
        code: used ? 'CONFIRMATION_USED' : 'CONFIRMATION_UNKNOWN',
        suggestion: `call ${tool} without confirmation_token for a new preview and token`,
      });
    }
    this.issued.delete(token);
    this.spent.add(token);
    if (this.now() > issued.expiresAt) {
      throw new RefusedError('confirmation_token has expired (a token is valid for 5 minutes): nothing was sent', {
        code: 'CONFIRMATION_EXPIRED',
        suggestion: `call ${tool} without confirmation_token for a new preview and token`,
      });
    }
    const digest = digestOf(tool, args);
    if (issued.tool !== tool || !timingSafeEqual(issued.digest, digest)) {
      throw new RefusedError(`confirmation_token was issued for a different request${issued.tool !== tool ? ` (${issued.tool})` : ''}: nothing was sent, and the token is spent`, {
        code: 'CONFIRMATION_MISMATCH',
        suggestion: `call ${tool} without confirmation_token, with the arguments to send, for a new preview and token`,
      });
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, issued] of this.issued) {
      if (now > issued.expiresAt) {
        this.issued.delete(token);
        this.spent.add(token);
      }
    }
  }
}
