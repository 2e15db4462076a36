// The KYC gate (issue 45 item 4): vendor 7.4 says an APPROVED sub-merchant "can take payments" and
// "a PSP cannot collect for a sub-merchant until it is active". So a sub-merchant whose kyc_status
// is anything else (PENDING, IN_REVIEW, CHANGES_REQUESTED, REJECTED) gets no order, payment link,
// subscription or virtual account, and no payment: every store operation that makes one asks here,
// inside its write transaction. Merchants and PSPs (no parent) are always active in the sandbox.
// The answer is vendor 9.2's closest: 403 ERR_MERCHANT_ACCOUNT_002 "Merchant account is not
// active" (its details key is `authentication`), naming the kyc_status (docs/sandbox.md).
import { SandboxError } from '../errors.js';
import type { Core } from './core.js';

export const COLLECTING_KYC = 'APPROVED';

/** Why `merchantId` may not collect money now, or null when it may. */
export function collectionRefusal(core: Core, merchantId: string): { kycStatus: string; text: string } | null {
  const m = core.db.get<{ kyc_status: string; parent_id: string | null }>('SELECT kyc_status, parent_id FROM merchants WHERE merchant_id = ?', merchantId);
  if (!m || m.parent_id === null || m.kyc_status === COLLECTING_KYC) return null;
  return {
    kycStatus: m.kyc_status,
    text: `sub-merchant ${merchantId} is not active: its kyc_status is ${m.kyc_status}, and only an ${COLLECTING_KYC} sub-merchant takes payments (vendor 7.4)`,
  };
}

/** Throws the gate's refusal when `merchantId` may not collect money now. */
export function assertMayCollect(core: Core, merchantId: string): void {
  const refusal = collectionRefusal(core, merchantId);
  if (refusal) throw merchantNotActive(refusal);
}

export function merchantNotActive(refusal: { kycStatus: string; text: string }): SandboxError {
  return new SandboxError(403, 'ERR_MERCHANT_ACCOUNT_002', 'Merchant account is not active', { authentication: refusal.text, kyc_status: refusal.kycStatus });
}
