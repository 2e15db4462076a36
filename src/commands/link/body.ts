// The body of `pgw link create` (beyond 3.1): --file, then flags on top (flags win), the amount
// normalised to 2 decimals, the expiry as UTC ISO with milliseconds (what the vendor's client
// sends), and a reference_id generated when none is given. No zod here: validation is create.ts's.
import { randomInt } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { normaliseAmount, setPath } from '../order/body.js';
import type { JsonObject } from '../order/read-json.js';
import { durationOption } from '../parse.js';

export { LINK_FIELD_FLAGS } from './flags.js';

/** Like the vendor's client: lowercase letters and digits, 13 characters. */
export function generateReferenceId(): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: 13 }, () => chars[randomInt(chars.length)]).join('');
}

/** The last moment an ISO 8601 time with a 4-digit year can name. */
const LATEST_ISO_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** --expires-at <ISO time> or --expires-in <duration> → UTC ISO with milliseconds; undefined for neither. */
export function expiryFrom(opts: { expiresAt?: string; expiresIn?: string }, now: Date, parseIso: (v: string) => number | undefined): string | undefined {
  if (opts.expiresAt !== undefined && opts.expiresIn !== undefined) throw new UsageError('--expires-at and --expires-in: give one of them');
  if (opts.expiresIn !== undefined) {
    const ms = now.getTime() + durationOption('--expires-in', opts.expiresIn) * 1000;
    // 100000000d is a duration, but no time: past year 9999 an ISO time has no 4-digit year.
    if (!(ms <= LATEST_ISO_MS)) throw new UsageError(`--expires-in: "${opts.expiresIn}" is too far ahead (the expiry would be after the year 9999)`);
    return new Date(ms).toISOString();
  }
  if (opts.expiresAt === undefined) return undefined;
  const ms = parseIso(opts.expiresAt.trim());
  if (ms === undefined) throw new UsageError(`--expires-at: "${opts.expiresAt}" is not an ISO 8601 time that exists, with a zone, e.g. 2026-12-31T18:30:00Z`);
  if (ms <= now.getTime()) throw new UsageError(`--expires-at: ${opts.expiresAt} is in the past`);
  return new Date(ms).toISOString();
}

/** The file body with the flags applied at their paths (flags win). */
export function buildLinkBody(file: JsonObject | undefined, fields: Record<string, string>): JsonObject {
  const body = structuredClone(file ?? {});
  for (const [path, value] of Object.entries(fields)) setPath(body, path, path === 'product.type_of_goods' ? value.trim().toLowerCase() : value.trim());
  if (body.amount !== undefined) body.amount = normaliseAmount(body.amount);
  return body;
}

export function linkTemplate(now: Date): JsonObject {
  return {
    amount: '1499.00',
    reference_id: generateReferenceId(),
    buyer: {
      name: 'Asha Verma',
      email: 'asha@example.com',
      phone: '+919876543210',
      address: { line_1: '12 MG Road', city: 'Bengaluru', state: 'Karnataka', postal_code: '560001' },
    },
    product: { name: 'Annual plan', description: 'Annual subscription to the Pro plan', type_of_goods: 'service' },
    invoice: { number: `INV${now.getUTCFullYear()}001` },
    expiry_date: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
  };
}
