// Identifiers (spec 2.6-2.9): OD + digits, PR/ST/RF/CB + 10 digits, merchant ids as digit
// strings. Claimed in the `ids` table inside the caller's IMMEDIATE transaction, so no two
// processes ever hand out the same one, and one handed out is never handed out again, even after
// reset or a snapshot restore (the table is never emptied). Link ids share the PR namespace with
// payment ids (spec 2.8), which one table gives for free. node:crypto is loaded on the first draw
// (lazy-builtins.ts): a look-up draws none.
//
// Most are drawn at random. Order ids and session ids follow the sandbox clock instead (issue
// 23; docs/sandbox.md): each is the key of an index (ids, orders.order_id, orders.session_id),
// and a random key lands on a random page of it, which a create then writes whole into the WAL at
// COMMIT: three random pages per order were a quarter of a create's time in `sandbox serve`. A
// key that follows the clock lands on the page the last one did.
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

/** Digits after an order id's `OD`: 10 of the sandbox clock's second, 4 of a count within it. */
const ORDER_DIGITS = 14;
const PER_SECOND = 10_000;
const ORDER_ID_LIMIT = 10 ** ORDER_DIGITS;
/** How far past a taken order id one look in `ids` may jump (see newOrderId). */
const JUMP = 1_000_000;

/** Per connection: the last order id (its number) this process handed out on it. */
const lastOrderNumber = new WeakMap<Db, number>();

const orderIdOf = (n: number) => `OD${String(n).padStart(ORDER_DIGITS, '0')}`;

/**
 * An order id `OD` + 14 digits: the sandbox clock's second (epoch seconds, 10 digits until the
 * year 2286) and a count within it, so ids of one database increase with its clock and index
 * inserts append. More than 10,000 creates in a second run ahead of the clock, still increasing.
 * Claimed like every id: one taken (by another process sharing the file, before the clock was
 * moved back or a snapshot restored, or a random id of an older pgw) is skipped, never reused.
 * Not a secret: every look-up by order id needs the merchant's credentials (spec part 5).
 */
export function newOrderId(db: Db, micros: number): string {
  let n = Math.max((lastOrderNumber.get(db) ?? 0) + 1, Math.floor(micros / 1_000_000) * PER_SECOND);
  for (;;) {
    // A clock set beyond 2286 (or a count run that far): the random form, claimed the same way.
    if (n >= ORDER_ID_LIMIT) return claimId(db, () => `OD${digits(ORDER_DIGITS)}`);
    const id = orderIdOf(n);
    if (db.run('INSERT OR IGNORE INTO ids(id) VALUES (?)', id).changes === 1) {
      lastOrderNumber.set(db, n);
      return id;
    }
    // Taken. Another process creating at the same time has claimed a run of them: jump past the
    // highest claimed id close above rather than trying them one by one.
    const top = db.get<{ id: string | null }>('SELECT max(id) AS id FROM ids WHERE id > ? AND id < ?', id, orderIdOf(n + JUMP))?.id;
    const topNumber = top ? Number(top.slice(2)) : NaN;
    n = Number.isSafeInteger(topNumber) && topNumber > n ? topNumber + 1 : n + 1;
  }
}

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
/** Hex digits of the sandbox clock (epoch microseconds) that lead a session id. */
const SESSION_CLOCK_HEX = 16;

/**
 * A checkout session: 64 lowercase hex characters, as the vendor's newest v3 orders file gives
 * session_id (vendor N7; spec 2.6 says only "string"): 16 of the sandbox clock in microseconds,
 * so the index on it appends, then 48 from the CSPRNG. The 192 random bits are what makes the
 * buyer page's address (/checkout/<session_id>/) unguessable, more than a UUID's 122. Sessions made
 * before were `session_` + 32 hex or 64 random hex; they are looked up by exact value, so those
 * rows keep their pages.
 */
export const newSessionId = (micros: number): string =>
  Math.max(0, Math.floor(micros)).toString(16).padStart(SESSION_CLOCK_HEX, '0').slice(-SESSION_CLOCK_HEX) + newHex(24);
export const newUtr = (): string => `SIMUTR${digits(12)}`;
export const newBankRef = (): string => digits(12);

/**
 * Virtual bank accounts (vendor 11.10 P6): virtual_account_id 8 digits with no leading zero (an
 * account number is made from it), uid `VBA` + 10 digits; a credit's order reference `VBA-` + 12
 * digits (vendor 11.7.6). Claimed like every id, so none is handed out twice.
 */
export const newVirtualAccountId = (db: Db) => claimId(db, () => String(nodeCrypto().randomInt(10_000_000, 100_000_000)));
export const newVbaUid = (db: Db) => claimId(db, () => `VBA${digits(10)}`);
/** vendor 11.2.3: a document ref is a digit string in the newest examples (10 digits here, 11.10 P7). */
export const newDocumentRef = (db: Db) => claimId(db, () => digits(10));
export const newVbaReference = (db: Db) => claimId(db, () => `VBA-${digits(12)}`);

/** An order document (vendor 11.1; the docs show no ID: the sandbox's own, DOC + 10 digits). */
export const newDocumentId = (db: Db) => claimId(db, () => `DOC${digits(10)}`);
/** A verified PAN's pan_id (vendor 11.6; the docs show no format: PAN + 10 digits). */
export const newPanId = (db: Db) => claimId(db, () => `PAN${digits(10)}`);
