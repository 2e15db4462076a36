// Virtual bank accounts (vendor 11.7): the create, edit, status and simulate-transfer bodies,
// shared by `pgw vba …`, `pgw sandbox vba transfer` and the sandbox, so both refuse the same ones.
// The vendor's amounts here are JSON numbers in rupees (11.7.1, 11.7.6), not decimal strings.
import * as z from 'zod';
import { isAmountString } from '../../money.js';
import { maxLen, msg, requiredText } from './common.js';
import { MAX_ORDER_AMOUNT, UTR_PATTERN } from './limits.js';

// In limits.ts (no zod): the store and `pgw vba payments --utr` read them without the schemas.
export { UTR_PATTERN, VBA_TRANSFER_CAP } from './limits.js';
/** vendor 11.7.7 */
export const VBA_STATUSES = ['ACTIVE', 'INACTIVE'] as const;

/** A rupee amount as a JSON number with at most 2 decimals (its decimal text is exact: no 1e21, no 0.30000000000000004). */
const rupees = z
  .number()
  .refine((v) => Number.isFinite(v) && isAmountString(String(Math.abs(v))), 'must be a number of rupees with at most 2 decimals, e.g. 1500.5');
const nonNegativeRupees = rupees.refine((v) => v >= 0, 'must not be negative');

/** vendor 11.7.1: 9–30 characters; the sandbox takes letters and digits only (docs/sandbox.md). */
export const VBA_ACCOUNT_NUMBER = /^[A-Za-z0-9]{9,30}$/;
const accountNumber = z.string().trim().regex(VBA_ACCOUNT_NUMBER, 'must be 9 to 30 letters or digits');
/** IFSC: 4 letters, a 0, 6 letters or digits (the sandbox checks the form; the vendor shows none). */
export const IFSC_PATTERN = /^[A-Za-z]{4}0[A-Za-z0-9]{6}$/;
const ifsc = z.string().trim().regex(IFSC_PATTERN, { error: msg('must be an IFSC: 4 letters, 0, then 6 letters or digits (e.g. HDFC0001234)') });

const MAX_REMITTERS = 100;

function remitterLock(ifscRequired: boolean) {
  return z.object({
    allowed_remitters: z
      .array(z.object({ account_number: accountNumber, ifsc: ifscRequired ? ifsc : ifsc.optional() }))
      .min(1, 'must list at least one remitter')
      .max(MAX_REMITTERS, `must list at most ${MAX_REMITTERS} remitters`),
  });
}

/** vendor 11.7.1: min and max each optional, non-negative, min ≤ max. */
const amountLock = z
  .object({ min_amount: nonNegativeRupees.nullable().optional(), max_amount: nonNegativeRupees.nullable().optional() })
  .refine((l) => l.min_amount == null || l.max_amount == null || l.min_amount <= l.max_amount, { message: 'must not be more than max_amount', path: ['min_amount'] });

/** POST /pg/vba/ (vendor 11.7.1): the body may be empty. */
export const vbaCreateSchema = z.object({
  remitter_lock_details: remitterLock(false).nullable().optional(),
  amount_lock_details: amountLock.nullable().optional(),
});
export type VbaCreate = z.output<typeof vbaCreateSchema>;

/** PUT /pg/vba/{id}/ (vendor 11.7.3, v2 file): only what is given changes; each entry's ifsc is required there. null clears the lock (docs/sandbox.md). */
export const vbaEditSchema = z
  .object({
    virtual_account_name: requiredText(100).optional(),
    remitter_lock_details: remitterLock(true).nullable().optional(),
  })
  .refine((b) => b.virtual_account_name !== undefined || b.remitter_lock_details !== undefined, {
    message: 'give virtual_account_name or remitter_lock_details',
    path: ['body'],
  });
export type VbaEdit = z.output<typeof vbaEditSchema>;

/** PATCH /pg/vba/{id}/ (vendor 11.7.3): ACTIVE or INACTIVE, 400 for anything else. */
export const vbaStatusSchema = z.object({
  status: z.enum(VBA_STATUSES, { error: msg('must be ACTIVE or INACTIVE') }),
});
export type VbaStatusChange = z.output<typeof vbaStatusSchema>;


/** POST /pg/vba/simulate-transfer/ (vendor 11.7.6). */
export const vbaTransferSchema = z.object({
  virtual_account_id: requiredText(64),
  vba_simulation: z.object({
    // A credit is recorded as an order (vendor 11.7.6), so it stays within an order's amount (spec
    // part 8); a larger JSON number is also past what a number holds exactly (123456789012345678
    // reads as ...680). Between the 25-lakh cap and this limit, a credit is recorded as failed.
    amount: rupees.refine((v) => v > 0, 'must be greater than 0').refine((v) => v <= Number(MAX_ORDER_AMOUNT), `must be at most ${MAX_ORDER_AMOUNT}: a credit is recorded as an order, whose amount stops there (spec part 8)`),
    utr: z.string().trim().regex(UTR_PATTERN, { error: msg('must be 1 to 64 letters, digits, - or _') }),
    remitter_name: requiredText(100),
    remitter_account: requiredText(34),
    remitter_ifsc: requiredText(20),
    phone: maxLen(20).optional(),
    /** DD/MM/YYYY; anything else is read as "now" (vendor 11.7.6), so it is not refused. */
    payment_date: maxLen(32).optional(),
    bank_txn_number: maxLen(64).optional(),
    remarks: maxLen(255).optional(),
    /** Deprecated alias of remarks, used only when remarks is absent (vendor 11.7.6). */
    sender_remark: maxLen(255).optional(),
  }),
});
export type VbaTransfer = z.output<typeof vbaTransferSchema>;
