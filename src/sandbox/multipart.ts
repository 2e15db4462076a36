// multipart/form-data (RFC 7578) as browsers' FormData and pgw's HTTP core send it: parts split
// on the boundary, each with its Content-Disposition name (and filename for a file). Enough for
// the one route that takes files (vendor 11.1); every malformed body is a 400, never a crash.
import { SandboxError } from './errors.js';

export interface FormPart {
  name: string;
  /** Present for a file part (possibly empty: a browser sends `filename=""` for no file chosen). */
  filename?: string;
  contentType?: string;
  data: Buffer;
}

const MAX_PARTS = 20;

/** The boundary of a multipart/form-data Content-Type, or undefined when it is not one. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : '';
}

export const isMultipart = (contentType: string | undefined): boolean => multipartBoundary(contentType) !== undefined;

const malformed = (why: string) => new SandboxError(400, 'ERR_REQUEST_003', 'Malformed multipart body', { body: why });

/** One header parameter (`name="file"`), quoted or not; RFC 7578 4.2 percent-encoding is left as sent. */
function param(header: string, key: string): string | undefined {
  const m = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(header);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

export function parseMultipart(body: Buffer, contentType: string | undefined): FormPart[] {
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw malformed('Content-Type multipart/form-data needs a boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw malformed('no part starts with the boundary');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString('latin1') === '--') return parts; // closing delimiter
    if (body.subarray(at, at + 2).toString('latin1') !== '\r\n') throw malformed('a boundary line must end with CRLF');
    at += 2;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) throw malformed('a part has no end to its headers');
    const headers = body.subarray(at, headerEnd).toString('utf8').split('\r\n');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw malformed('the body ends before its closing boundary');
    const disposition = headers.find((h) => /^content-disposition\s*:/i.test(h));
    const type = headers.find((h) => /^content-type\s*:/i.test(h));
    const name = disposition && /^content-disposition\s*:\s*form-data\b/i.test(disposition) ? param(disposition, 'name') : undefined;
    if (name === undefined) throw malformed('every part needs Content-Disposition: form-data; name="…"');
    if (parts.length >= MAX_PARTS) throw malformed(`at most ${MAX_PARTS} parts`);
    const filename = disposition ? param(disposition, 'filename') : undefined;
    parts.push({
      name,
      ...(filename !== undefined ? { filename } : {}),
      ...(type ? { contentType: type.slice(type.indexOf(':') + 1).trim() } : {}),
      data: body.subarray(headerEnd + 4, next),
    });
    at = next + 2;
  }
}
