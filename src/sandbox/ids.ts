// Identifiers (spec 2.6-2.9): OD + digits, PR/ST/RF/CB + 10 digits, merchant ids as digit
// strings. Drawn at random and claimed in the `ids` table inside the caller's IMMEDIATE
// transaction, so no two processes ever hand out the same one. Link ids share the PR namespace
// with payment ids (spec 2.8), which one table gives for free. node:crypto is loaded on the first
// draw (lazy-builtins.ts): a look-up draws none.
import { nodeCrypto } from '../lazy-builtins.js';
import type { Db } from './db.js';

function digits(n: number): string {
  // randomInt's range is below 2**48, so draw in chunks of at most 12 digits.
  let out = '';
  while (out.length < n) {
    const take = Math.min(12, n - out.length);
    out += String(nodeCrypto().randomInt(0, 10 ** take)).padStart(take, '0');
  }
  return out;
}

/** Claim a fresh id; must run inside a write transaction. */
export function claimId(db: Db, make: () => string): string {
  for (;;) {
    const id = make();
    if (db.run('INSERT OR IGNORE INTO ids(id) VALUES (?)', id).changes === 1) return id;
  }
}

export const newOrderId = (db: Db) => claimId(db, () => `OD${digits(14)}`);
export const newPaymentId = (db: Db) => claimId(db, () => `PR${digits(10)}`);
export const newSettlementId = (db: Db) => claimId(db, () => `ST${digits(10)}`);
export const newRefundId = (db: Db) => claimId(db, () => `RF${digits(10)}`);
export const newChargebackId = (db: Db) => claimId(db, () => `CB${digits(10)}`);
/** Webhook events of the delivery log (pgw events): not a gateway ID, so a prefix of pgw's own. */
export const newEventId = (db: Db) => claimId(db, () => `EV${digits(14)}`);
export const newWebhookId = (db: Db) => claimId(db, () => `WH${digits(10)}`);
export const newFaultId = (db: Db) => claimId(db, () => `FT${digits(10)}`);
/** Merchant ids: 10 digits, no leading zero. */
export const newMerchantId = (db: Db) => claimId(db, () => String(nodeCrypto().randomInt(1_000_000_000, 10_000_000_000)));

export const newUuid = (): string => nodeCrypto().randomUUID();

/**
 * Random bytes from a 4 KiB pool refilled by the CSPRNG: one call into it per ~250 tokens rather
 * than one per token, which was ~3 % of a create order in `sandbox serve` (issue 23). The same
 * bytes randomBytes gives, each handed out once; Node pools randomInt and randomUUID the same way.
 */
const POOL_BYTES = 4096;
let pool: Buffer | undefined;
let poolOffset = POOL_BYTES;
function randomSlice(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return nodeCrypto().randomBytes(bytes);
  if (poolOffset + bytes > POOL_BYTES) {
    nodeCrypto().randomFillSync((pool ??= Buffer.alloc(POOL_BYTES)));
    poolOffset = 0;
  }
  const slice = pool!.subarray(poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return slice;
}

export const newToken = (bytes = 16): string => randomSlice(bytes).toString('base64url');
export const newHex = (bytes = 16): string => randomSlice(bytes).toString('hex');
/**
 * A checkout session: 64 lowercase hex characters, as the vendor's newest v3 orders file gives
 * session_id (vendor N7; spec 2.6 says only "string"). Sessions made before were `session_` + 32
 * hex; they are looked up by exact value, so those rows keep their pages.
 */
export const newSessionId = (): string => newHex(32);
export const newUtr = (): string => `SIMUTR${digits(12)}`;
export const newBankRef = (): string => digits(12);
