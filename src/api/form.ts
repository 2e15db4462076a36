// multipart/form-data bodies (RFC 7578) for the one operation that takes files (vendor 11.1, the
// order documents): built here once for the HTTP core (client.ts), as a browser's FormData builds
// them. What is printed of a form (--verbose, --dry-run) is describeForm: names, file names, types
// and sizes, never a file's bytes.
import { nodeCrypto } from '../lazy-builtins.js';
import type { FormField } from './types.js';

/** A boundary no file is likely to contain (RFC 2046 5.1.1: at most 70 characters). */
export const formBoundary = (): string => `----pgw-form-${nodeCrypto().randomBytes(12).toString('hex')}`;

/** A header parameter value: quotes, backslashes and line breaks escaped as browsers do (%22, %0A, %0D). */
function quoted(value: string): string {
  return `"${value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

export function encodeForm(fields: readonly FormField[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const f of fields) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(f.name)}`;
    if ('data' in f) head += `; filename=${quoted(f.filename)}\r\nContent-Type: ${f.contentType}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'));
    chunks.push('data' in f ? Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength) : Buffer.from(f.value, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** The form as pgw shows it: `{multipart: [{name, value} | {name, filename, content_type, bytes}]}`. */
export function describeForm(fields: readonly FormField[]): { multipart: Record<string, unknown>[] } {
  return {
    multipart: fields.map((f) => ('data' in f ? { name: f.name, filename: f.filename, content_type: f.contentType, bytes: f.data.byteLength } : { name: f.name, value: f.value })),
  };
}
