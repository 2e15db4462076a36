// PAN verify and LRS quote (vendor 11.6) with the sandbox's test values (vendor 11.10 P3) and the
// TCS rule. Every figure is Money (decimal.js), never a float. Decisions in docs/sandbox.md, "PAN
// and LRS".
import { LRS_PURPOSE_CODES } from '../../api/schemas/lrs-codes.js';
import type { LrsQuote, PanVerify } from '../../api/schemas/lrs.js';
import { Money, formatAmount, type MoneyValue } from '../../money.js';
import { stamp } from '../db.js';
import { SandboxError } from '../errors.js';
import { newPanId } from '../ids.js';
import { nowStamp, type Core, type Scope } from './core.js';

/** vendor 11.6: TCS is nil up to Rs 10,00,000 of LRS in a financial year. */
export const TCS_THRESHOLD = new Money('1000000');
/** vendor 11.6: 2% on the part above the threshold. */
export const TCS_RATE = new Money('0.02');
/**
 * The fee the worked example implies (12,00,000 → total 12,11,080 = amount + 6,000 fee + 1,080 GST
 * + 4,000 TCS): 0.5% of the amount, GST 18% of the fee. Not itemised in the answer (vendor 11.6).
 */
export const LRS_FEE_RATE = new Money('0.005');
export const GST_RATE = new Money('0.18');
/** The vendor's test PAN (P3): verified as an individual's though its 4th letter is D. */
export const TEST_PAN = 'ABCDE1234F';
/** P3 test values. */
export const MISMATCH_NAME = 'MISMATCH';
export const MISMATCH_DOB = '1900-01-01';

/** IST, where the Indian financial year (1 April-31 March) turns. */
const IST_OFFSET_MICROS = (5 * 60 + 30) * 60 * 1_000_000;

export interface PanOutcome {
  pan_id: string;
  verified: boolean;
  pan_status: 'VALID' | 'INVALID' | 'INOPERATIVE' | null;
  entity_type: 'INDIVIDUAL' | 'COMPANY' | 'OTHER' | null;
  reason: 'INVALID_PAN' | 'NON_INDIVIDUAL_PAN' | 'INOPERATIVE_PAN' | 'NAME_MISMATCH' | 'DOB_MISMATCH' | null;
}

/** The 4th letter of a PAN says whose it is: P a person, C a company, anything else another kind. */
function entityOf(pan: string): PanOutcome['entity_type'] {
  if (pan === TEST_PAN || pan[3] === 'P') return 'INDIVIDUAL';
  return pan[3] === 'C' ? 'COMPANY' : 'OTHER';
}

/** P3, in this order: a non-individual PAN, then the name, then the date of birth. */
function outcomeOf(body: PanVerify): Omit<PanOutcome, 'pan_id'> {
  const entity = entityOf(body.pan);
  if (entity !== 'INDIVIDUAL') return { verified: false, pan_status: 'VALID', entity_type: entity, reason: 'NON_INDIVIDUAL_PAN' };
  if (body.name.trim().toUpperCase() === MISMATCH_NAME) return { verified: false, pan_status: 'VALID', entity_type: entity, reason: 'NAME_MISMATCH' };
  if (body.dob === MISMATCH_DOB) return { verified: false, pan_status: 'VALID', entity_type: entity, reason: 'DOB_MISMATCH' };
  return { verified: true, pan_status: 'VALID', entity_type: entity, reason: null };
}

/**
 * vendor 11.6 POST /pg/pan/verify/: the outcome, kept as the account's last word on that PAN (a
 * later failed check withdraws an earlier success). pan_id stays the same for one account and PAN.
 */
export function verifyPan(core: Core, merchantId: string, body: PanVerify): PanOutcome {
  return core.db.write(() => {
    const outcome = outcomeOf(body);
    const known = core.db.get<{ pan_id: string }>('SELECT pan_id FROM pan_verifications WHERE merchant_id = ? AND pan = ?', merchantId, body.pan);
    const pan_id = known?.pan_id ?? newPanId(core.db);
    core.db.run(
      `INSERT INTO pan_verifications (merchant_id, pan, pan_id, name, dob, verified, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (merchant_id, pan) DO UPDATE SET name = excluded.name, dob = excluded.dob, verified = excluded.verified, reason = excluded.reason, created_at = excluded.created_at`,
      merchantId,
      body.pan,
      pan_id,
      body.name,
      body.dob,
      outcome.verified ? 1 : 0,
      outcome.reason,
      nowStamp(core, merchantId),
    );
    return { pan_id, ...outcome };
  });
}

/** The financial year (1 April-31 March, IST) holding `micros`: its name `2026-27` and its bounds in epoch micros. */
export function financialYear(micros: number): { name: string; from: number; to: number } {
  const ist = new Date(Math.floor((micros + IST_OFFSET_MICROS) / 1000));
  const start = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  const from = Date.UTC(start, 3, 1) * 1000 - IST_OFFSET_MICROS;
  const to = Date.UTC(start + 1, 3, 1) * 1000 - IST_OFFSET_MICROS;
  return { name: `${start}-${String((start + 1) % 100).padStart(2, '0')}`, from, to };
}

/** Why a quote is refused: 400 ERR_LRS_001 (vendor 9.2 names the code for LRS; its details are the sandbox's). */
const lrsRefusal = (field: string, detail: string) => new SandboxError(400, 'ERR_LRS_001', 'Invalid LRS request', { [field]: detail });

/**
 * LRS already committed by this PAN in the year: the captured INR payments of orders whose buyer
 * PAN it is, completed inside the year, in the caller's accounts (docs/sandbox.md). Quotes add
 * nothing to it.
 */
function committed(core: Core, scope: Scope, pan: string, fy: { from: number; to: number }): MoneyValue {
  const rows = core.db.all<{ amount: string }>(
    `SELECT p.amount FROM payments p JOIN orders o ON o.order_id = p.order_id
     WHERE p.status = 'captured' AND o.currency = 'INR' AND upper(json_extract(o.buyer, '$.pan_number')) = ?
       AND p.completed_at >= ? AND p.completed_at < ? AND o.merchant_id IN (SELECT value FROM json_each(?))`,
    pan,
    stamp(fy.from),
    stamp(fy.to),
    JSON.stringify(scope),
  );
  return rows.reduce((sum, r) => sum.plus(r.amount), new Money(0));
}

export interface QuoteView {
  pan: string;
  financial_year: string;
  committed_inr: string;
  remittance_inr: string;
  taxable_inr: string;
  tcs_rate: string;
  tcs_inr: string;
  total_payable_inr: string;
  tcs_threshold_breached_before: boolean;
  tcs_threshold_breached_after: boolean;
  tcs_reason: 'nil_below_threshold' | 'partial_above_threshold' | 'full_amount_taxable';
  refusal_reason: null;
}

/**
 * The TCS rule of vendor 11.6 on one remittance, given what the PAN already committed this year.
 * The threshold is breached once it is reached: the vendor's quote page flips the flags at exactly
 * Rs 10,00,000 (nothing is taxable there yet; from then on every rupee is).
 */
export function tcsFigures(committedInr: MoneyValue, amount: MoneyValue) {
  const after = committedInr.plus(amount);
  const taxable = committedInr.gte(TCS_THRESHOLD) ? amount : Money.max(0, after.minus(TCS_THRESHOLD));
  const tcs = taxable.times(TCS_RATE).toDecimalPlaces(2, Money.ROUND_HALF_UP);
  const fee = amount.times(LRS_FEE_RATE).toDecimalPlaces(2, Money.ROUND_HALF_UP);
  const gst = fee.times(GST_RATE).toDecimalPlaces(2, Money.ROUND_HALF_UP);
  const reason: QuoteView['tcs_reason'] = taxable.isZero() ? 'nil_below_threshold' : taxable.eq(amount) ? 'full_amount_taxable' : 'partial_above_threshold';
  return { taxable, tcs, total: amount.plus(fee).plus(gst).plus(tcs), reason, before: committedInr.gte(TCS_THRESHOLD), after: after.gte(TCS_THRESHOLD) };
}

/** vendor 11.6 POST /pg/lrs/quote/: reserves nothing. */
export function quote(core: Core, merchantId: string, scope: Scope, body: LrsQuote): QuoteView {
  return core.db.read(() => {
    const row = core.db.get<{ verified: number }>('SELECT verified FROM pan_verifications WHERE merchant_id = ? AND pan = ?', merchantId, body.pan);
    if (row?.verified !== 1) {
      throw lrsRefusal('pan', `${body.pan} is not verified for this account: verify it first (POST /pg/pan/verify/, pgw pan verify)`);
    }
    if (!(LRS_PURPOSE_CODES as readonly string[]).includes(body.purpose_code)) {
      throw lrsRefusal('purpose_code', `${body.purpose_code} is not enabled for LRS on this account (the sandbox enables ${LRS_PURPOSE_CODES.join(', ')})`);
    }
    const fy = financialYear(core.micros(merchantId));
    const already = committed(core, scope, body.pan, fy);
    const amount = new Money(body.amount);
    const f = tcsFigures(already, amount);
    return {
      pan: body.pan.toUpperCase(),
      financial_year: fy.name,
      committed_inr: formatAmount(already),
      remittance_inr: formatAmount(amount),
      taxable_inr: formatAmount(f.taxable),
      tcs_rate: '2%',
      tcs_inr: formatAmount(f.tcs),
      total_payable_inr: formatAmount(f.total),
      tcs_threshold_breached_before: f.before,
      tcs_threshold_breached_after: f.after,
      tcs_reason: f.reason,
      refusal_reason: null,
    };
  });
}
