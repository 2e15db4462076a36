// Create Refund (beyond 2.1, vendor 2.1) and the sandbox's refund status setter (vendor 2.4): the
// bodies shared by `pgw refund create|simulate` and the sandbox, so both refuse the same ones.
import * as z from 'zod';
import { httpUrl, positiveAmount } from './common.js';

export const refundCreateSchema = z.object({
  payment_id: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
  /** Rupees, a decimal string; omitted: the whole amount still refundable (docs/sandbox.md). */
  refund_amount: positiveAmount.optional(),
  callback_url: httpUrl.optional(),
});
export type RefundCreate = z.output<typeof refundCreateSchema>;

/** vendor 2.5: the seven refund statuses, lowercase on the API (C5), uppercase into simulate-status. */
export const REFUND_STATUSES = ['initiated', 'processing', 'refunded', 'failed', 'reversed', 'on_hold', 'bank_rejected_refund'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];
export const REFUND_SIMULATE_STATUSES = REFUND_STATUSES.map((s) => s.toUpperCase()) as readonly string[];

export interface RefundSimulate {
  status: string;
  status_message: string | null;
  bank_ref_num: string | null | undefined;
}

/**
 * vendor 2.4 body: status required, uppercase only (rule 1: `refunded` is not a valid choice);
 * status_message and bank_ref_num a string or null. Problems carry the gateway's own wording
 * (`"x" is not a valid choice.`, `This field is required.`), which the sandbox answers with.
 * Written without zod: the wording is the documented one, not a schema library's.
 */
export function checkRefundSimulate(body: unknown): { ok: true; data: RefundSimulate } | { ok: false; problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, problems: [{ path: 'status', message: 'This field is required.' }] };
  }
  const b = body as Record<string, unknown>;
  const status = b.status;
  if (status === undefined || status === null || status === '') problems.push({ path: 'status', message: 'This field is required.' });
  else if (typeof status !== 'string' || !REFUND_SIMULATE_STATUSES.includes(status)) {
    problems.push({ path: 'status', message: `"${typeof status === 'string' ? status : JSON.stringify(status)}" is not a valid choice.` });
  }
  for (const key of ['status_message', 'bank_ref_num'] as const) {
    const v = b[key];
    if (v !== undefined && v !== null && typeof v !== 'string') problems.push({ path: key, message: 'Not a valid string.' });
    else if (typeof v === 'string' && v.length > 255) problems.push({ path: key, message: 'Ensure this field has no more than 255 characters.' });
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    data: {
      status: status as string,
      status_message: typeof b.status_message === 'string' && b.status_message !== '' ? b.status_message : null,
      bank_ref_num: b.bank_ref_num === undefined ? undefined : (b.bank_ref_num as string | null),
    },
  };
}
