// Payment verification over HTTP (vendor 11.2.1, 11.2.2; 11.10 P2). The rules are the store's
// (store/verification.ts); these only parse and answer.
import { SIMULATED_STATES, VERDICTS, type SimulatedState, type Verdict } from '../../api/schemas/verification.js';
import { validationError } from '../errors.js';
import type { SubmitBody } from '../store/verification-submit.js';
import type { Handler } from './types.js';
import { SandboxError } from '../errors.js';
import { parseMultipart, type FormPart } from '../multipart.js';

/** GET /pg/payments/{id}/verification/ (and the older /pg/lrs/ path). */
export const getVerification: Handler = (ctx) => ({
  message: 'Verification requirements',
  data: ctx.store.verification(ctx.caller.scope, ctx.params.payment_id!),
});

/** POST /pg/payments/{id}/verification/: JSON only (vendor 11.2.2); no body is an empty submit. */
export const submitVerification: Handler = (ctx) => ({
  message: 'Verification details received',
  data: ctx.store.submitVerification(ctx.caller.scope, ctx.params.payment_id!, (ctx.body ?? {}) as SubmitBody),
});

/**
 * POST /pg/payments/{id}/simulate-verification/ (11.10 P2): sandbox only; production answers 400
 * ERR_SERVICE_ERROR_000 with details.error, as mark-settled does.
 */
export const simulateVerification: Handler = (ctx) => {
  if (ctx.production) {
    throw new SandboxError(400, 'ERR_SERVICE_ERROR_000', 'Payment gateway error', { error: 'simulate-verification is not available in production' });
  }
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const problems: { path: string; message: string }[] = [];
  const status = typeof body.status === 'string' ? body.status.trim().toUpperCase() : undefined;
  if (status === undefined || !(SIMULATED_STATES as readonly string[]).includes(status)) problems.push({ path: 'status', message: `must be one of ${SIMULATED_STATES.join(', ')}` });
  if (body.message !== undefined && body.message !== null && typeof body.message !== 'string') problems.push({ path: 'message', message: 'must be a string' });
  const verdict = typeof body.verdict === 'string' ? body.verdict.trim().toUpperCase() : body.verdict;
  if (verdict !== undefined && verdict !== null && !(VERDICTS as readonly unknown[]).includes(verdict)) problems.push({ path: 'verdict', message: `must be one of ${VERDICTS.join(', ')}` });
  if (problems.length) throw validationError(problems);
  return {
    message: 'Verification status updated',
    data: ctx.store.simulateVerification(ctx.caller.scope, ctx.params.payment_id!, {
      status: status as SimulatedState,
      ...(typeof body.message === 'string' ? { message: body.message } : {}),
      ...(typeof verdict === 'string' ? { verdict: verdict as Verdict } : {}),
    }),
  };
};

const textOf = (part: FormPart | undefined): string | undefined => (part && part.filename === undefined ? part.data.toString('utf8') : undefined);

/** POST /pg/payments/{id}/documents/ (vendor 11.2.3): multipart `file` and `type`; 201 with the ref. */
export const uploadDocument: Handler = (ctx) => {
  const parts = ctx.isMultipart ? parseMultipart(ctx.rawBody, ctx.req.headers['content-type']) : [];
  const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
  const data = ctx.store.uploadVerificationDocument(ctx.caller.scope, ctx.params.payment_id!, {
    type: textOf(parts.find((p) => p.name === 'type')),
    fileName: file?.filename,
    bytes: file ? Buffer.from(file.data) : undefined,
  });
  return { status: 201, message: 'Document uploaded', data };
};

/**
 * POST /sandbox/compat/ {payment_details_missing: boolean} (11.10 P8): the calling account's
 * compatibility flag; on, the retired PAYMENT_DETAILS_MISSING is sent beside VERIFICATION_NEEDED.
 */
export const setCompat: Handler = (ctx) => {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  if (typeof body.payment_details_missing !== 'boolean') throw validationError([{ path: 'payment_details_missing', message: 'must be true or false' }]);
  return { message: 'compatibility settings updated', data: ctx.store.setDetailsMissingEvents(ctx.caller.acting(), body.payment_details_missing) };
};

/** POST /pg/payments/{id}/upload-verification-details/ (vendor 11.2.5, deprecated; 11.10 P8). */
export const uploadVerificationDetails: Handler = (ctx) => ({
  message: 'Payment verification details uploaded successfully; order updated.',
  data: ctx.store.uploadVerificationDetails(ctx.caller.scope, ctx.params.payment_id!, (ctx.body ?? {}) as Record<string, unknown>),
});

/** GET /pg/payments/{id}/settlement-documents/ (vendor 11.5). */
export const getSettlementDocuments: Handler = (ctx) => ({ message: 'Settlement documents', data: ctx.store.settlementDocuments(ctx.caller.scope, ctx.params.payment_id!) });

/** POST /pg/payments/{id}/settlement/submit/ (vendor 11.5): {refs}. */
export const submitSettlementDocuments: Handler = (ctx) => ({ message: 'Documents submitted', data: ctx.store.submitSettlementDocuments(ctx.caller.scope, ctx.params.payment_id!, ctx.body) });

/** GET /sandbox/purpose-codes/ (11.10 P4): the purpose codes the calling account may use. */
export const getPurposeCodes: Handler = (ctx) => ({ message: 'purpose codes', data: ctx.store.purposeCodes(ctx.caller.acting()) });

/**
 * POST /sandbox/purpose-codes/ {disabled: [codes]} (11.10 P4): the whole list of codes disabled for
 * the calling account (an empty list enables them all again); only the sandbox's codes may be named.
 */
export const setPurposeCodes: Handler = (ctx) => {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const list = body.disabled;
  if (!Array.isArray(list) || !list.every((c) => typeof c === 'string')) throw validationError([{ path: 'disabled', message: 'must be an array of purpose codes' }]);
  return { message: 'purpose codes updated', data: ctx.store.setDisabledPurposeCodes(ctx.caller.acting(), list as string[]) };
};
