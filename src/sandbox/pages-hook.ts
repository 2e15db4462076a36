// The shape of the buyer pages (checkout, 3-D Secure, payment link), which live in
// src/sandbox/pages/ (tests may pass their own to startServer). The server routes GET /checkout/<session_id>/, GET|POST /3ds/<token>/ and
// GET|POST /p/<link_token>/ and GET /return/ (where the sandbox's own return_url lands) here; a page finds its order with store.orderBySession /
// orderByAcsToken / linkByToken and moves money with store.completeOrderPayment({ orderId,
// outcome, linkId? }) (no scope: the unguessable token is the buyer's authority).
import type { SandboxRequest, SandboxResponse } from './exchange.js';
import type { Store } from './store.js';
import type { PageKind } from './routes.js';

export interface PageRequest {
  kind: PageKind;
  token: string;
  method: string;
  req: SandboxRequest;
  res: SandboxResponse;
  /** The raw request body (form posts), at most 1 MiB. */
  body: Buffer;
  store: Store;
  publicBaseUrl: string;
}

export type PagesHandler = (page: PageRequest) => void | Promise<void>;
