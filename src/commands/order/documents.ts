// pgw order documents <order_id> --type invoice|awb --file <f>: POST /pg/orders/{order_id}/documents/
// (vendor 11.1), multipart identifier, document_type and file. The file is checked as the gateway
// checks it (vendor 4.4: pdf, jpg or jpeg by name and by content, at most 2 MB) before anything
// is sent: exit 2, nothing sent. Its bytes are never printed: --dry-run and -v show its name,
// type and size only (api/form.ts).
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Context } from '../../context.js';
import { CONTENT_TYPES, MAX_DOCUMENT_BYTES, checkDocumentFields, checkDocumentFile, kindByName } from '../../api/schemas/index.js';
import type { FormField } from '../../api/types.js';
import { UsageError, ValidationError } from '../../errors.js';
import type { FileDigests } from '../../files/digests.js';
import { confirmProduction } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail } from '../../output/render.js';
import { plainText } from '../../safety/terminal-text.js';
import { idArgument } from '../parse.js';

export interface OrderDocumentsOptions {
  orderId: string;
  type?: string;
  file?: string;
  identifier?: string;
  dryRun: boolean;
  /** pgw mcp: the file's bytes as previewed (recorded by the preview, checked by the send). */
  digests?: FileDigests;
}

interface DocumentsAnswer {
  order_id?: string;
  invoice?: { number?: string | null; file?: string | null } | null;
  air_waybills?: { number?: string | null; file?: string | null }[] | null;
}

/** The file, read only once its size and first bytes pass (a 2 GB file is never read). */
async function readDocument(path: string): Promise<{ filename: string; data: Buffer }> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new UsageError(`--file ${path}: not a regular file`);
    size = s.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--file ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const filename = basename(path);
  const handle = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`--file ${path}: cannot read it (${err.code ?? err.message})`);
  });
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    const problems = checkDocumentFile({ filename, size, head: head.subarray(0, bytesRead) });
    if (problems.length > 0) throw new ValidationError(problems.map((p) => ({ path: '--file', message: p.message })), 'invalid file');
    if (size > MAX_DOCUMENT_BYTES) throw new UsageError(`--file ${path}: larger than 2 MB`); // grew since stat
    const data = await handle.readFile();
    if (data.length > MAX_DOCUMENT_BYTES) throw new UsageError(`--file ${path}: larger than 2 MB`);
    return { filename, data };
  } finally {
    await handle.close();
  }
}

export async function runOrderDocuments(ctx: Context, opts: OrderDocumentsOptions): Promise<void> {
  const orderId = idArgument('order_id', opts.orderId);
  if (opts.type === undefined) throw new UsageError('--type is required: invoice or awb');
  if (opts.file === undefined) throw new UsageError('--file is required: the pdf, jpg or jpeg to upload (at most 2 MB)');
  // vendor 11.1: identifier is a label; its description suggests the order ID, the default here.
  const fields = checkDocumentFields({ identifier: opts.identifier ?? orderId, document_type: opts.type });
  if (!fields.ok) throw new ValidationError(fields.problems.map((p) => ({ path: p.path === 'identifier' ? '--identifier' : '--type', message: p.message })), 'invalid document');
  const file = await readDocument(opts.file);
  opts.digests?.check(opts.file, file.data);
  const form: FormField[] = [
    { name: 'identifier', value: fields.data.identifier },
    { name: 'document_type', value: fields.data.document_type },
    { name: 'file', filename: file.filename, contentType: CONTENT_TYPES[kindByName(file.filename)!], data: file.data },
  ];
  const profile = await ctx.profile();
  const api = await ctx.api();
  const req = { method: 'POST' as const, path: `/pg/orders/${orderId}/documents/`, form };
  if (opts.dryRun) return printDryRun(ctx.io, ctx.output, api.preview(req));
  await confirmProduction(ctx, profile, `upload ${fields.data.document_type === 'awb' ? 'an air waybill' : 'an invoice'} to order ${orderId}`);
  const order = await api.request<DocumentsAnswer>(req);
  await emit(ctx.io, ctx.output, order, () => {
    const text = (v: unknown) => (typeof v === 'string' ? plainText(v).replace(/[\n\t]/g, ' ') : undefined);
    const awbs = Array.isArray(order?.air_waybills) ? order.air_waybills : [];
    const rows: [string, string | undefined][] = [
      ['order_id', text(order?.order_id) ?? orderId],
      ['uploaded', `${fields.data.document_type} ${file.filename} (${file.data.length} bytes)`],
      ['invoice', text(order?.invoice?.file) ?? '-'],
    ];
    awbs.forEach((a, i) => rows.push([i === 0 ? 'air waybills' : '', `${text(a?.number) ?? '-'}  ${text(a?.file) ?? '-'}`]));
    if (awbs.length === 0) rows.push(['air waybills', '-']);
    ctx.io.out(renderDetail([{ rows }]));
  });
}
