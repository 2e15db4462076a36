// POST /pg/orders/{order_id}/documents/ (vendor 11.1): multipart identifier, document_type and
// file, the limits of vendor 4.4; 200 with the order's details, whose invoice.file and
// air_waybills[].file then address the stored files (store/documents.ts).
import { checkDocumentFields, checkDocumentFile, kindByName, type Problem } from '../../api/schemas/index.js';
import { ORDER_VALIDATION, validationError } from '../errors.js';
import { parseMultipart, type FormPart } from '../multipart.js';
import type { Handler } from './types.js';

const textOf = (part: FormPart | undefined): string | undefined => (part && part.filename === undefined ? part.data.toString('utf8') : undefined);

export const uploadOrderDocument: Handler = (ctx) => {
  // A JSON or form-urlencoded body has no file: the fields are reported as missing, per field.
  const parts = ctx.isMultipart ? parseMultipart(ctx.rawBody, ctx.req.headers['content-type']) : [];
  const byName = (name: string) => parts.find((p) => p.name === name);
  const fields = checkDocumentFields({ identifier: textOf(byName('identifier')), document_type: textOf(byName('document_type')) });
  const problems: Problem[] = fields.ok ? [] : [...fields.problems];
  const file = byName('file');
  if (!file || file.filename === undefined || (file.filename === '' && file.data.length === 0)) {
    problems.push({ path: 'file', message: 'No file was submitted.' });
  } else {
    problems.push(...checkDocumentFile({ filename: file.filename, size: file.data.length, head: file.data.subarray(0, 8) }));
  }
  // vendor 11.1: 400 ERR_ORDER_002 with details per field; the order is looked up after (404).
  if (!fields.ok || problems.length > 0) throw validationError(problems, ORDER_VALIDATION);
  const orderId = ctx.params.order_id!;
  ctx.store.uploadOrderDocument(ctx.caller.scope, orderId, fields.data, {
    filename: file!.filename!,
    kind: kindByName(file!.filename!)!,
    content: Buffer.from(file!.data),
  });
  return { message: 'Documents uploaded successfully', data: ctx.store.orderDetails(ctx.caller.scope, orderId, ctx.publicBaseUrl) };
};
