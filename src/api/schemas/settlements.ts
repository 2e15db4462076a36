// Mark-settled (spec 4.6) and Simulate Payment (spec 4.7) request bodies.
import * as z from 'zod';
import { msg } from './common.js';

const uid = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

/** spec 4.6: payment_uids at least 1; refund_uids and chargeback_uids default []. */
export const markSettledSchema = z.object({
  payment_uids: z.array(uid, { error: msg('must be an array of payment IDs') }).min(1, 'must contain at least 1 payment ID'),
  refund_uids: z.array(uid, { error: msg('must be an array of refund IDs') }).default([]),
  chargeback_uids: z.array(uid, { error: msg('must be an array of chargeback IDs') }).default([]),
});
export type MarkSettled = z.output<typeof markSettledSchema>;

export const PAYMENT_STATUSES = ['SUCCESS', 'FAILED'] as const;

/** spec 4.7: payment_status SUCCESS or FAILED; payment_id optional. */
export const simulatePaymentSchema = z.object({
  payment_status: z.enum(PAYMENT_STATUSES, { error: msg('must be one of SUCCESS, FAILED') }),
  payment_id: uid.optional(),
});
export type SimulatePayment = z.output<typeof simulatePaymentSchema>;
