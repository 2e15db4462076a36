// Order documents (vendor 11.1, limits of vendor 4.4): the multipart fields and the file rules,
// shared by `pgw order documents` (checked before anything is sent) and the sandbox (checked on
// receipt), so both refuse the same files with the same words. Written without zod: a file is
// bytes, not JSON, and the wording is the documented one (`This field is required.`).
import type { Problem } from './common.js';

/** vendor 11.1: `invoice` or `awb`; the newest VERIFICATION_NEEDED page sends `INVOICE` (accept both cases). */
export const DOCUMENT_TYPES = ['invoice', 'awb'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** vendor 4.4: at most 2 MB, read as 2 MiB (2,097,152 bytes; docs/sandbox.md). */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** vendor 4.4: pdf, jpg, jpeg. */
export const DOCUMENT_EXTENSIONS = ['pdf', 'jpg', 'jpeg'] as const;
export const MAX_IDENTIFIER_LENGTH = 255;

export type DocumentKind = 'pdf' | 'jpeg';

/** The content type a stored document is served with. */
export const CONTENT_TYPES: Record<DocumentKind, string> = { pdf: 'application/pdf', jpeg: 'image/jpeg' };

/** What the first bytes say the file is: `%PDF-` or a JPEG SOI marker (FF D8 FF); undefined otherwise. */
export function sniffDocument(head: Uint8Array): DocumentKind | undefined {
  if (head.length >= 5 && head[0] === 0x25 && head[1] === 0x50 && head[2] === 0x44 && head[3] === 0x46 && head[4] === 0x2d) return 'pdf';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  return undefined;
}

/** The kind a file name claims by its extension (pdf; jpg and jpeg are both JPEG), or undefined. */
export function kindByName(filename: string): DocumentKind | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (ext === 'pdf') return 'pdf';
  if (ext === 'jpg' || ext === 'jpeg') return 'jpeg';
  return undefined;
}

/**
 * vendor 4.4 on one file: named .pdf, .jpg or .jpeg, its content of that kind (a renamed file is
 * refused), not empty, at most 2 MB. `head` is at least the first 8 bytes (all of them if fewer).
 * The messages name the rule, never the content.
 */
export function checkDocumentFile(file: { filename: string; size: number; head: Uint8Array }): Problem[] {
  const byName = kindByName(file.filename);
  if (!byName) return [{ path: 'file', message: `must be a ${DOCUMENT_EXTENSIONS.join(', ')} file (by its name: ${printableName(file.filename)})` }];
  if (file.size === 0) return [{ path: 'file', message: 'The submitted file is empty.' }];
  if (file.size > MAX_DOCUMENT_BYTES) return [{ path: 'file', message: `must be at most 2 MB (${MAX_DOCUMENT_BYTES} bytes); this one is ${file.size} bytes` }];
  const byContent = sniffDocument(file.head);
  if (byContent !== byName) {
    const what = byContent ? `a ${byContent.toUpperCase()}` : 'neither a PDF nor a JPEG';
    return [{ path: 'file', message: `is named as a ${byName.toUpperCase()} but its content is ${what}` }];
  }
  return [];
}

/** A file name as a message may quote it: its last part, controls dropped, at most 80 characters. */
export function printableName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

export interface DocumentFields {
  identifier: string;
  document_type: DocumentType;
}

/**
 * vendor 11.1 text fields: identifier required (at most 255 characters), document_type `invoice`
 * or `awb` in either case (returned lowercase). Problems in the documented wording.
 */
export function checkDocumentFields(fields: { identifier?: string; document_type?: string }): { ok: true; data: DocumentFields } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  const identifier = fields.identifier?.trim() ?? '';
  if (identifier === '') problems.push({ path: 'identifier', message: 'This field is required.' });
  else if (identifier.length > MAX_IDENTIFIER_LENGTH) problems.push({ path: 'identifier', message: `Ensure this field has no more than ${MAX_IDENTIFIER_LENGTH} characters.` });
  const raw = fields.document_type?.trim() ?? '';
  const type = raw.toLowerCase();
  if (raw === '') problems.push({ path: 'document_type', message: 'This field is required.' });
  else if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) problems.push({ path: 'document_type', message: `"${printableName(raw)}" is not a valid choice.` });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, data: { identifier, document_type: type as DocumentType } };
}
