// Issue 45 in the model-based test: only an APPROVED sub-merchant takes money (vendor 7.4). Every
// command of commands.ts that makes an order, a link, a subscription, a virtual account or a
// payment asks `heldBack` before it expects success; the PSP's sub-merchant create and kyc moves
// are in issue45.ts.
import { count, expectAnswer, expectThat, type Model, type Real } from './model.js';
import type { Account } from './ops.js';

export const KYC_STATUSES = ['PENDING', 'IN_REVIEW', 'CHANGES_REQUESTED', 'APPROVED', 'REJECTED'] as const;
/** The seeded sub-merchants start so (the sandbox seeds one APPROVED, one PENDING). */
export const SEEDED: Partial<Record<Account, string>> = { S1: 'APPROVED', S2: 'PENDING' };

/** The kyc_status that keeps `merchant` from collecting, or undefined when it may (merchants and the PSP always may). */
export function heldBack(m: Model, merchant: Account): string | undefined {
  const seeded = SEEDED[merchant];
  if (seeded === undefined) return undefined;
  const status = m.data.kyc.find((k) => k.merchant === merchant)?.status ?? seeded;
  return status === 'APPROVED' ? undefined : status;
}

/** The gate's refusal (store/kyc-gate.ts): 403 ERR_MERCHANT_ACCOUNT_002, naming the kyc_status. */
export function expectGate(r: Real, res: { status: number; body: any }, status: string, what: string): void {
  count(r, 'kyc gate refused');
  if (!expectAnswer(r, res, 403, 'ERR_MERCHANT_ACCOUNT_002', `${what}: its kyc_status is ${status}`)) return;
  expectThat(r, res.body.error?.details?.kyc_status === status, `${what}: the refusal names kyc_status ${res.body.error?.details?.kyc_status}, not ${status}`);
}

