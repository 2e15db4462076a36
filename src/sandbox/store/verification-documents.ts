// Payment verification's documents (vendor 11.2.3): an upload is checked, stored immutable and
// scoped to the merchant; a send (verification-submit.ts) names it by its ref.
import { VERIFICATION_DOCUMENT_TYPES, verificationFileProblem } from '../../api/schemas/verification.js';
import { newDocumentRef } from '../ids.js';
import { checklistFor } from './checklists.js';
import { nowStamp, type Core, type Scope } from './core.js';
import { orderById } from './orders.js';
import { paymentById } from './payments.js';
import { invalid, notFound } from './verification.js';

/** POST /pg/payments/{id}/documents/ (vendor 11.2.3): 201 {ref, type}; uploads are immutable and scoped to the merchant. */
export function uploadDocument(core: Core, scope: Scope, paymentId: string, upload: { type: unknown; fileName: string | undefined; bytes: Buffer | undefined }): { ref: string; type: string } {
  return core.db.write(() => {
    const p = paymentById(core, paymentId, scope);
    if (!p) throw notFound(paymentId);
    const order = orderById(core, p.order_id)!;
    const flow = checklistFor(order.business_model ?? null, order.purpose_code ?? null)?.flow ?? 'unclassified';
    const type = typeof upload.type === 'string' ? upload.type.trim().toLowerCase() : '';
    if (!(VERIFICATION_DOCUMENT_TYPES as readonly string[]).includes(type)) throw invalid(flow, { type: 'Unknown document type.' });
    if (!upload.bytes || upload.fileName === undefined) throw invalid(flow, { file: 'This field is required.' });
    const why = verificationFileProblem({ filename: upload.fileName, size: upload.bytes.length, content: upload.bytes });
    // vendor 11.2.3: a bad file is 40359 with details.type `Unknown document type.`; details.file says why.
    if (why !== undefined) throw invalid(flow, { type: 'Unknown document type.', file: why });
    const ref = newDocumentRef(core.db);
    core.db.run(
      'INSERT INTO verification_documents (ref, merchant_id, payment_id, type, file_name, size, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ref,
      p.merchant_id,
      paymentId,
      type,
      upload.fileName,
      upload.bytes.length,
      upload.bytes,
      nowStamp(core, p.merchant_id),
    );
    return { ref, type };
  });
}
