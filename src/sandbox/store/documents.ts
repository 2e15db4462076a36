// Order documents (vendor 11.1): the invoice and air waybills uploaded to an order, kept in the
// database (they survive a restart and travel in snapshots), and the short-lived sandbox-local
// addresses order details gives for them (vendor 11.10 P7). Rules (docs/sandbox.md, "Order
// documents"): a second invoice replaces the first; each AWB upload adds one, up to 20 an order.
import { nodeCrypto } from '../../lazy-builtins.js';
import { CONTENT_TYPES, type DocumentFields, type DocumentKind } from '../../api/schemas/documents.js';
import { SandboxError, orderNotFound } from '../errors.js';
import { newDocumentId, newHex } from '../ids.js';
import { nowStamp, type Core, type Scope } from './core.js';
import { orderById } from './orders.js';

/** A served address stays valid this long on the sandbox clock of the order's account (P7: "a short time"). */
export const DOCUMENT_URL_SECONDS = 15 * 60;
/** At most this many air waybills an order: each upload adds one (docs/sandbox.md). */
export const MAX_AIR_WAYBILLS = 20;

export interface DocumentRow {
  id: string;
  merchant_id: string;
  order_id: string;
  document_type: 'invoice' | 'awb';
  identifier: string;
  filename: string;
  content_type: string;
  size: number;
  url_key: string;
  created_at: string;
}

export interface UploadedFile {
  filename: string;
  kind: DocumentKind;
  content: Buffer;
}

/** vendor 11.1: stores one upload; 404 ERR_ORDER_001 for an order the caller cannot see. */
export function uploadOrderDocument(core: Core, scope: Scope, orderId: string, fields: DocumentFields, file: UploadedFile): void {
  core.db.write(() => {
    const order = orderById(core, orderId, scope);
    if (!order) throw orderNotFound(orderId);
    const now = nowStamp(core, order.merchant_id);
    if (fields.document_type === 'invoice') {
      // One invoice an order: the newest replaces the one before (vendor 11.9 leaves it open).
      core.db.run("DELETE FROM order_documents WHERE order_id = ? AND document_type = 'invoice'", orderId);
    } else {
      const { n } = core.db.get<{ n: number }>("SELECT count(*) AS n FROM order_documents WHERE order_id = ? AND document_type = 'awb'", orderId)!;
      if (n >= MAX_AIR_WAYBILLS) {
        throw new SandboxError(400, 'ERR_ORDER_002', 'Validation error', { document_type: `order ${orderId} already holds ${MAX_AIR_WAYBILLS} air waybills, the sandbox's limit` });
      }
    }
    core.db.run(
      `INSERT INTO order_documents (id, merchant_id, order_id, document_type, identifier, filename, content_type, size, content, url_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      newDocumentId(core.db),
      order.merchant_id,
      orderId,
      fields.document_type,
      fields.identifier,
      file.filename,
      CONTENT_TYPES[file.kind],
      file.content.length,
      file.content,
      newHex(16),
      now,
    );
    core.db.run('UPDATE orders SET updated_at = ? WHERE order_id = ?', now, orderId);
  });
}

function signature(key: string, id: string, expires: number): string {
  return nodeCrypto().createHmac('sha256', key).update(`${id}:${expires}`).digest('hex').slice(0, 32);
}

/** The address a document is served at until `DOCUMENT_URL_SECONDS` from now on its account's clock. */
function documentUrl(core: Core, doc: DocumentRow, base: string): string {
  const expires = Math.floor(core.micros(doc.merchant_id) / 1_000_000) + DOCUMENT_URL_SECONDS;
  return `${base}/documents/${doc.id}/?expires=${expires}&signature=${signature(doc.url_key, doc.id, expires)}`;
}

/** vendor 4.1 invoice.file and air_waybills[] of an order (oldest AWB first), given where files are served. */
export function orderDocumentViews(core: Core, orderId: string, base: string | undefined): { invoiceFile: string | null; airWaybills: { number: string; file: string | null }[] } {
  const docs = core.db.all<DocumentRow>(
    'SELECT id, merchant_id, order_id, document_type, identifier, filename, content_type, size, url_key, created_at FROM order_documents WHERE order_id = ? ORDER BY created_at, rowid',
    orderId,
  );
  const url = (d: DocumentRow) => (base === undefined ? null : documentUrl(core, d, base));
  const invoice = docs.find((d) => d.document_type === 'invoice');
  return {
    invoiceFile: invoice ? url(invoice) : null,
    airWaybills: docs.filter((d) => d.document_type === 'awb').map((d) => ({ number: d.identifier, file: url(d) })),
  };
}

export type ServedDocument = { ok: true; contentType: string; filename: string; content: Buffer } | { ok: false; status: 403 | 404; reason: string };

/**
 * GET /documents/{id}/?expires&signature: the file, when the signature is the one order details
 * gave and its time has not passed on the account's sandbox clock. No credentials: the signed
 * address is the authority, as a storage service's pre-signed URL is.
 */
export function serveDocument(core: Core, id: string, expires: string | null, given: string | null): ServedDocument {
  return core.db.read(() => {
    const doc = core.db.get<DocumentRow & { content: Uint8Array }>('SELECT * FROM order_documents WHERE id = ?', id);
    const until = expires !== null && /^[0-9]{1,12}$/.test(expires) ? Number(expires) : undefined;
    if (!doc || until === undefined || given === null || !sameText(signature(doc.url_key, doc.id, until), given)) {
      return { ok: false, status: 404, reason: 'no document at this address (the address must be one order details gave)' };
    }
    if (Math.floor(core.micros(doc.merchant_id) / 1_000_000) > until) {
      return { ok: false, status: 403, reason: 'this address has expired: read the order again (pgw order get) for a new one' };
    }
    const content = Buffer.from(doc.content.buffer, doc.content.byteOffset, doc.content.byteLength);
    return { ok: true, contentType: doc.content_type, filename: doc.filename, content };
  });
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && nodeCrypto().timingSafeEqual(x, y);
}
