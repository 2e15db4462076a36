// GET /documents/{id}/?expires&signature: a stored order document (vendor 11.1, 11.10 P7) at the
// signed, short-lived address order details gave. The file as uploaded, with its content type;
// a wrong or expired address is a JSON error envelope, as every other refusal.
import type { SandboxResponse } from './exchange.js';
import { sendError } from './envelope.js';
import { SandboxError } from './errors.js';
import type { Store } from './store.js';

export function serveDocument(store: Store, res: SandboxResponse, id: string, query: URLSearchParams): undefined {
  const found = store.serveDocument(id, query.get('expires'), query.get('signature'));
  if (!found.ok) {
    const code = found.status === 403 ? 'ERR_DOCUMENT_002' : 'ERR_DOCUMENT_001';
    sendError(res, new SandboxError(found.status, code, found.status === 403 ? 'Document address expired' : 'Document not found', { document: found.reason }));
    return undefined;
  }
  // The stored name, reduced to safe characters for the header (never a quote or a control).
  const name = found.filename.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  res.writeHead(200, {
    'content-type': found.contentType,
    'content-length': String(found.content.length),
    'content-disposition': `inline; filename="${name}"`,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(found.content);
  return undefined;
}
