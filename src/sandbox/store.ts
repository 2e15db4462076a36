// The sandbox's state: one object over one SQLite connection (db.ts). Every method is synchronous
// (both engines are), each write is one IMMEDIATE transaction. An event is written to the outbox
// inside the write that causes it (store/outbox.ts), so it exists exactly when the change does;
// `onEvent` and `onCommit` hear of it only after the commit (webhooks.ts then delivers).
import { closeSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MarkSettled, MerchantCreate, MerchantUpdate, OrderCreate, OrderUpdate, SandboxPay, SimulatePayment } from '../api/schemas/index.js';
import { Db, stamp, systemMicros, type MicroClock } from './db.js';
import { GroupCommit } from './group-commit.js';
import { paymentNotFound, validationError } from './errors.js';
import { ReadCache } from './read-cache.js';
import { createPrivateFile } from '../files/private-file.js';
import type { Core, SandboxEvent, Scope } from './store/core.js';
import * as accounts from './store/accounts.js';
import * as orders from './store/orders.js';
import * as payments from './store/payments.js';
import * as links from './store/links.js';
import * as settlements from './store/settlements.js';
import * as subscriptions from './store/subscriptions.js';
import * as admin from './store/admin.js';
import * as refunds from './store/refunds.js';
import * as orderDetails from './store/order-details.js';
import * as paymentList from './store/payment-list.js';
import * as outbox from './store/outbox.js';
import * as forwarding from './store/forwarding.js';
import * as clock from './store/clock.js';
import * as clockEffects from './store/clock-effects.js';
import * as dataScope from './store/data-scope.js';
import * as faults from './store/faults.js';
import * as vba from './store/vba.js';
import * as vbaCredits from './store/vba-credits.js';
import * as verification from './store/verification.js';
import * as verificationSubmit from './store/verification-submit.js';
import * as verificationDocuments from './store/verification-documents.js';
import * as verificationReview from './store/verification-review.js';
import * as verificationLegacy from './store/verification-legacy.js';
import { ENABLED_PURPOSE_CODES } from './store/checklists.js';
import * as settlementDocuments from './store/settlement-documents.js';
import type { VbaCreate, VbaEdit, VbaTransfer } from '../api/schemas/vba.js';
import * as documents from './store/documents.js';
import * as lrs from './store/lrs.js';
import type { LinkCreate, RefundCreate } from '../api/schemas/index.js';
import type { SandboxFault } from '../api/schemas/sandbox.js';
import type { RefundSimulate } from '../api/schemas/refunds.js';
import type { DocumentFields } from '../api/schemas/documents.js';
import type { LrsQuote, PanVerify } from '../api/schemas/lrs.js';

export type { SandboxEvent, Scope } from './store/core.js';
export type { MerchantRow, SeededAccount } from './store/accounts.js';
export type { OrderRow } from './store/orders.js';
export type { LinkRow } from './store/links.js';

export interface StoreOptions {
  /** The machine's clock in epoch microseconds (tests pass a controllable one); the sandbox clock adds its offset. */
  micros?: MicroClock;
  onEvent?: (event: SandboxEvent) => void;
}

/**
 * The file holds the demo accounts' secrets: create it owner-only (an empty file is an empty
 * database), before SQLite makes its -wal and -shm files with the same mode. An existing database
 * is SQLite's to open, through a link too; a link to nothing is refused (issue 31 item 8): SQLite
 * would create the file, with its umask's mode, wherever someone pointed the link.
 */
function createPrivately(dbPath: string): void {
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  try {
    closeSync(createPrivateFile(dbPath));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || (code === 'ELOOP' && existsSync(dbPath))) return;
    if (code !== 'ELOOP') throw err;
    throw Object.assign(new Error(`${dbPath} is a symbolic link to a file that does not exist: pgw creates a database under its own name, never through a link`), { code });
  }
}

export interface PageOrder {
  order_id: string;
  reference_id: string;
  amount: string;
  currency: string;
  merchant_name?: string;
  buyer_name?: string;
  product_name?: string;
  mop_type: string | null;
  /** created, payment_failed (still payable) or payment_successful. */
  status: string;
  return_url: string | null;
  card_last4: string | null;
}

export class Store {
  readonly db: Db;
  onEvent?: (event: SandboxEvent) => void;
  /** After a write that recorded events has committed: deliveries are due (webhooks.ts). */
  onCommit?: () => void;
  /**
   * Make every delivery due now and wait for them, and for those due in `clock`'s tree (null:
   * any) that another process sharing the file is making (set by the process that delivers: open.ts).
   */
  deliverDue: (clock?: string | null) => Promise<void> = async () => undefined;
  /** Why webhooks may not go to an address (issue 21 item 8: a server bound beyond loopback); set by serve.ts. */
  refuseWebhookTarget?: (url: string) => string | undefined;
  private readonly core: Core;
  private readonly baseMicros: MicroClock;
  private pending: SandboxEvent[] | null = null;
  private muted = false;
  /** Writes that arrive together share a transaction (group-commit.ts); events of a failed one are dropped. */
  private readonly group: GroupCommit;
  // Per-connection caches of what every GET reads (read-cache.ts: exact across processes).
  private readonly accountsByClientId: ReadCache<accounts.MerchantRow | null>;
  private readonly subsByPsp: ReadCache<readonly string[]>;
  private readonly paymentsById: ReadCache<{ merchantId: string; json: string }>;
  private readonly faultsByAccount: ReadCache<readonly faults.ArmedFault[]>;

  /** The database file (snapshots live beside it). */
  readonly path: string;

  constructor(dbPath: string, opts: StoreOptions = {}) {
    this.path = dbPath;
    if (dbPath !== ':memory:' && dbPath !== '') createPrivately(dbPath);
    this.db = new Db(dbPath);
    this.onEvent = opts.onEvent;
    const db = this.db;
    const self = this;
    this.baseMicros = opts.micros ?? systemMicros;
    this.core = {
      db,
      micros: clock.sandboxClocks(db, this.baseMicros),
      emit(event) {
        if (self.muted) return;
        outbox.recordEvent(self.core, event);
        (self.pending ??= []).push(event);
      },
    };
    this.accountsByClientId = new ReadCache(db, ['merchants']);
    this.subsByPsp = new ReadCache(db, ['merchants']);
    this.paymentsById = new ReadCache(db);
    this.faultsByAccount = new ReadCache(db, ['faults']);
    accounts.ensureSeedAccounts(this.core);
    this.group = new GroupCommit(db, {
      around: (batch) => this.op(batch),
      mark: () => this.pending?.length ?? 0,
      rewind: (mark) => {
        if (this.pending) this.pending.length = mark as number;
      },
    });
  }

  /** Run one store operation; deliver the events it queued once its transaction has committed. */
  private op<T>(fn: (core: Core) => T): T {
    if (this.db.inTransaction) return fn(this.core);
    this.pending = null;
    try {
      const result = fn(this.core);
      const events = this.pending ?? [];
      for (const e of events) this.onEvent?.(e);
      if (events.length > 0) this.onCommit?.();
      return result;
    } finally {
      this.pending = null;
    }
  }

  // accounts (spec part 5, 2.10)
  accounts = () => accounts.seededAccounts(this.core);
  authenticate = (clientId: string, secret: string): accounts.MerchantRow | undefined => {
    const lookUp = () => this.accountsByClientId.get(clientId, () => Object.freeze(accounts.accountByClientId(this.core, clientId)) ?? null);
    // Outside a transaction (the fault check, faults.ts; a write's authentication in production,
    // pipeline.ts) as a read of its own, so the cache answers: a read costs no query when it hits.
    const row = this.db.inTransaction ? lookUp() : this.db.read(lookUp);
    return row && accounts.secretMatches(row, secret) ? row : undefined;
  };
  merchant = (id: string) => accounts.merchantById(this.core, id);
  subMerchantIds = (pspId: string): readonly string[] => this.subsByPsp.get(pspId, () => Object.freeze(accounts.subMerchantIds(this.core, pspId)));
  listSubMerchants = (pspId: string, page: number, pageSize: number, opts?: accounts.SubMerchantListOptions) => accounts.listSubMerchants(this.core, pspId, page, pageSize, opts);
  /** The sandbox's kyc control (vendor 7.4; docs/sandbox.md). */
  setKycStatus = (pspId: string, merchantId: string, status: string) => this.op((c) => accounts.setKycStatus(c, pspId, merchantId, status));
  subMerchant = (pspId: string, id: string) => accounts.subMerchantDetails(this.core, pspId, id);
  createSubMerchant = (pspId: string, body: MerchantCreate) => this.op((c) => accounts.createSubMerchant(c, pspId, body));
  updateSubMerchant = (pspId: string, id: string, body: MerchantUpdate, check: accounts.MergedMerchantCheck) =>
    this.op((c) => accounts.updateSubMerchant(c, pspId, id, body, check));

  // orders (spec 4.1, 4.2)
  createOrder = (merchantId: string, input: OrderCreate, apiVersion: string) => this.op((c) => orders.createOrder(c, merchantId, input, apiVersion));
  /** The same, committed with the creates that arrive with it (group-commit.ts): settles after the COMMIT. */
  createOrderGrouped = (merchantId: string, input: OrderCreate, apiVersion: string): Promise<orders.OrderRow> =>
    this.group.submit(() => orders.createOrder(this.core, merchantId, input, apiVersion));
  updateOrder = (scope: Scope, orderId: string, patch: OrderUpdate) => this.op((c) => orders.updateOrder(c, scope, orderId, patch));
  order = (orderId: string, scope?: Scope) => orders.orderById(this.core, orderId, scope);
  orderDetails = (scope: Scope, orderId: string, documentsBase?: string) => orderDetails.orderDetails(this.core, scope, orderId, documentsBase);
  /** vendor 11.1: one invoice or air waybill stored on an order (store/documents.ts). */
  uploadOrderDocument = (scope: Scope, orderId: string, fields: DocumentFields, file: documents.UploadedFile) =>
    this.op((c) => documents.uploadOrderDocument(c, scope, orderId, fields, file));
  /** A document's bytes at its signed address, or why not (no credentials: the signature is the authority). */
  serveDocument = (id: string, expires: string | null, signature: string | null) => documents.serveDocument(this.core, id, expires, signature);
  // PAN verify and LRS quote (vendor 11.6; store/lrs.ts)
  verifyPan = (merchantId: string, body: PanVerify) => this.op((c) => lrs.verifyPan(c, merchantId, body));
  lrsQuote = (merchantId: string, scope: Scope, body: LrsQuote) => lrs.quote(this.core, merchantId, scope, body);
  orderStatus = (scope: Scope, orderId: string) => orderDetails.orderStatus(this.core, scope, orderId);
  orderBySession = (sessionId: string) => orders.orderBySession(this.core, sessionId);
  orderByAcsToken = (token: string) => orders.orderByAcsToken(this.core, token);

  /** What a buyer page shows of an order (src/sandbox/pages). Never card data beyond the last 4 digits. */
  pageOrder(order: orders.OrderRow): PageOrder {
    const buyer = JSON.parse(order.buyer) as { name?: string };
    const product = JSON.parse(order.product) as { name?: string };
    const card = order.card ? (JSON.parse(order.card) as orders.StoredCard) : null;
    return {
      order_id: order.order_id,
      reference_id: order.reference_id,
      amount: order.amount,
      currency: order.currency,
      merchant_name: this.merchant(order.merchant_id)?.brand_name,
      buyer_name: buyer.name,
      product_name: product.name,
      mop_type: order.mop_type,
      status: order.status,
      return_url: order.return_url,
      card_last4: card?.last4 ?? null,
    };
  }

  /** spec 3.1 state of a link now: paid, expired (incl. deactivated), failed (its order paid some other way) or active. */
  linkStatus = (link: links.LinkRow) => links.linkStateNow(this.core, link, stamp(this.core.micros(link.merchant_id))).status;

  /** One try at paying an order (pay helper, buyer pages, links); returns the payment as Get Payment shows it. */
  completeOrderPayment(attempt: orders.PaymentAttempt): Record<string, unknown> {
    const id = this.op((c) => orders.completeOrderPayment(c, attempt));
    return payments.paymentView(this.core, payments.paymentById(this.core, id)!);
  }

  pay(scope: Scope, orderId: string, body: SandboxPay): Record<string, unknown> {
    return this.completeOrderPayment({ orderId, scope, outcome: body.outcome, mopType: body.mop_type, vpa: body.vpa, gateway: body.gateway });
  }

  // payments, refunds, chargebacks (spec 2.7, 4.3)
  payment = (scope: Scope, paymentId: string) => payments.getPayment(this.core, scope, paymentId);
  /** GET /pg/payments/ (vendor 3.1). */
  listPayments = (scope: Scope, filter: paymentList.PaymentFilter, page: number, pageSize: number) => paymentList.listPayments(this.core, scope, filter, page, pageSize);
  /** Get Payment's data as JSON text (what a GET serves), from the cache while nothing has changed. */
  paymentJson(scope: Scope, paymentId: string): string {
    const found = this.paymentsById.get(paymentId, () => {
      const p = payments.paymentById(this.core, paymentId);
      if (!p) throw paymentNotFound(paymentId);
      return { merchantId: p.merchant_id, json: JSON.stringify(payments.paymentView(this.core, p)) };
    });
    if (!scope.includes(found.merchantId)) throw paymentNotFound(paymentId);
    return found.json;
  }
  /** POST /pg/refunds/ (beyond 2.1), and the /sandbox/ refund helper that now calls the same. */
  createRefund = (scope: Scope, body: RefundCreate) => this.op((c) => refunds.createRefund(c, scope, body));
  refund = (scope: Scope, refundId: string) => refunds.getRefund(this.core, scope, refundId);
  listRefunds = (scope: Scope, filter: refunds.RefundFilter, page: number, pageSize: number) => refunds.listRefunds(this.core, scope, filter, page, pageSize);
  /** vendor 2.4: the sandbox's refund status setter. */
  simulateRefundStatus = (scope: Scope, refundId: string, body: RefundSimulate) => this.op((c) => refunds.simulateRefundStatus(c, scope, refundId, body));
  refundSettlement = (scope: Scope, refundId: string) => refunds.refundSettlement(this.core, scope, refundId);
  paymentSettlement = (scope: Scope, paymentId: string) => refunds.paymentSettlement(this.core, scope, paymentId);
  addChargeback = (scope: Scope, paymentId: string, amount: string) => this.op((c) => payments.addDebit(c, 'chargeback', scope, paymentId, amount));

  // links (spec 2.8, 3.1, 4.4)
  link = (scope: Scope, linkId: string, baseUrl: string) => links.getLink(this.core, scope, linkId, baseUrl);
  linkByToken = (token: string) => links.linkByToken(this.core, token);
  linkView = (link: links.LinkRow, baseUrl: string) => links.linkView(this.core, link, baseUrl);
  createLink = (scope: Scope, orderId: string, expiresInSeconds: number, baseUrl: string) =>
    links.linkView(this.core, this.op((c) => links.createLink(c, scope, orderId, expiresInSeconds)), baseUrl);
  createPaymentLink = (merchantId: string, body: LinkCreate, expiresAtMicros: number, apiVersion: string, baseUrl: string) =>
    links.linkView(this.core, this.op((c) => links.createPaymentLink(c, merchantId, body, expiresAtMicros, apiVersion)), baseUrl);
  listLinks = (scope: Scope, page: number, pageSize: number, baseUrl: string) => links.listLinks(this.core, scope, page, pageSize, baseUrl);
  extendLink = (scope: Scope, linkId: string, expiresAtMicros: number, baseUrl: string) =>
    links.linkView(this.core, this.op((c) => links.extendLink(c, scope, linkId, expiresAtMicros)), baseUrl);
  /** Sandbox time on `merchantId`'s clock (its account tree's; null: the default), in epoch microseconds. */
  nowMicros = (merchantId: string | null): number => this.core.micros(merchantId);
  private readonly clocks = new Map<string, () => Date>();
  /** `merchantId`'s sandbox clock as a Clock for the schemas' date rules: one per merchant, so what is built per clock is built once. */
  clockFor(merchantId: string): () => Date {
    let c = this.clocks.get(merchantId);
    if (!c) this.clocks.set(merchantId, (c = () => new Date(Math.floor(this.core.micros(merchantId) / 1000))));
    return c;
  }
  /** The machine's clock under the sandbox's (a restored snapshot sets the offset against it). */
  machineMicros = (): number => this.baseMicros();
  /** vendor 6 share: recorded, not sent. */
  shareLink = (scope: Scope, linkId: string, to: { email: string[]; phone: string[] }, baseUrl: string) =>
    links.linkView(this.core, this.op((c) => links.shareLink(c, scope, linkId, to)), baseUrl);
  deactivateLink = (scope: Scope, linkId: string, baseUrl: string) =>
    links.linkView(this.core, this.op((c) => links.deactivateLink(c, scope, linkId)), baseUrl);

  // settlements (spec 2.9, 4.5, 4.6)
  markSettled = (scope: Scope, body: MarkSettled) => this.op((c) => settlements.markSettled(c, scope, body));
  settlement = (scope: Scope, id: string) => settlements.getSettlement(this.core, scope, id);
  /** vendor 5.2 */
  recon = (reach: Scope, rows: Scope, id: string, page: number, pageSize: number) => settlements.recon(this.core, reach, rows, id, page, pageSize);
  listSettlements = (scope: Scope, filter: settlements.SettlementFilter, page: number, pageSize: number) =>
    settlements.listSettlements(this.core, scope, filter, page, pageSize);

  // virtual bank accounts (vendor 11.7); what a write answers is the account as GET shows it
  createVba = (merchantId: string, body: VbaCreate) => vba.vbaView(this.op((c) => vba.createVba(c, merchantId, body)));
  listVbas = (scope: Scope, status: string | undefined, page: number, pageSize: number) => vba.listVbas(this.core, scope, status, page, pageSize);
  vba = (scope: Scope, virtualAccountId: string) => vba.vbaView(this.db.read(() => vba.vbaById(this.core, scope, virtualAccountId)));
  editVba = (scope: Scope, virtualAccountId: string, body: VbaEdit) => vba.vbaView(this.op((c) => vba.editVba(c, scope, virtualAccountId, body)));
  setVbaStatus = (scope: Scope, virtualAccountId: string, status: string) => vba.vbaView(this.op((c) => vba.setVbaStatus(c, scope, virtualAccountId, status)));
  vbaPayments = (scope: Scope, virtualAccountId: string, filter: vbaCredits.VbaPaymentFilter, page: number, pageSize: number) =>
    vbaCredits.vbaPayments(this.core, scope, virtualAccountId, filter, page, pageSize);
  vbaPaymentByUtr = (scope: Scope, virtualAccountId: string, utr: string) => vbaCredits.vbaPaymentByUtr(this.core, scope, virtualAccountId, utr);
  /** vendor 11.7.6 (sandbox only): a credit on the account's clock, captured or failed, with its event. */
  simulateVbaTransfer = (scope: Scope, body: VbaTransfer, apiVersion: string) => this.op((c) => vbaCredits.simulateTransfer(c, scope, body, apiVersion));

  // payment verification (vendor 11.2, 11.3; 11.10 P2)
  verification = (scope: Scope, paymentId: string) => verification.requirements(this.core, scope, paymentId);
  submitVerification = (scope: Scope, paymentId: string, body: verificationSubmit.SubmitBody) => this.op((c) => verificationSubmit.submit(c, scope, paymentId, body));
  uploadVerificationDocument = (scope: Scope, paymentId: string, upload: Parameters<typeof verificationDocuments.uploadDocument>[3]) =>
    this.op((c) => verificationDocuments.uploadDocument(c, scope, paymentId, upload));
  /** 11.10 P4: the account's purpose codes. */
  purposeCodes = (merchantId: string) => {
    const enabled = verification.purposeCodesOf(this.core, merchantId);
    return { merchant_id: merchantId, enabled, disabled: ENABLED_PURPOSE_CODES.filter((c) => !enabled.includes(c)) };
  };
  setDisabledPurposeCodes = (merchantId: string, disabled: string[]) => this.op((c) => verification.setDisabledPurposeCodes(c, merchantId, disabled));
  /** vendor 11.5: B2B services post-settlement documents. */
  settlementDocuments = (scope: Scope, paymentId: string) => settlementDocuments.settlementDocuments(this.core, scope, paymentId);
  submitSettlementDocuments = (scope: Scope, paymentId: string, body: unknown) => this.op((c) => settlementDocuments.submitSettlementDocuments(c, scope, paymentId, body));
  /** vendor 11.2.5 (deprecated), 11.10 P8. */
  uploadVerificationDetails = (scope: Scope, paymentId: string, body: Record<string, unknown>) => this.op((c) => verificationLegacy.uploadVerificationDetails(c, scope, paymentId, body));
  /** 11.10 P8: the account's compatibility flag for the retired PAYMENT_DETAILS_MISSING. */
  setDetailsMissingEvents = (merchantId: string, on: boolean) => this.op((c) => verification.setDetailsMissingEvents(c, merchantId, on));
  simulateVerification = (scope: Scope, paymentId: string, body: verificationReview.SimulateVerification) => this.op((c) => verificationReview.simulateVerification(c, scope, paymentId, body));

  // subscriptions (spec 4.7)
  createSubscription = (merchantId: string, amount: string) => this.op((c) => subscriptions.createSubscription(c, merchantId, amount));
  simulatePayment = (scope: Scope, uid: string, body: SimulatePayment) => this.op((c) => subscriptions.simulateSubscriptionPayment(c, scope, uid, body));

  // faults on demand (issue 24)
  addFault = (merchantId: string, spec: SandboxFault) => this.op((c) => faults.addFault(c, merchantId, spec));
  listFaults = (merchantId: string) => faults.listFaults(this.core, merchantId);
  clearFaults = (merchantId: string, id?: string) => this.op((c) => faults.clearFaults(c, merchantId, id));
  /** The faults that can still fire for an account: cached per read while nothing changed (every request asks). */
  armedFaults = (merchantId: string): readonly faults.ArmedFault[] => this.faultsByAccount.get(merchantId, () => Object.freeze(faults.armedFaults(this.core, merchantId)));
  triggerFault = (id: string) => this.op((c) => faults.triggerFault(c, id));

  // sandbox administration
  addWebhook = (merchantId: string, url: string, listener = false, opts: admin.ListenerOptions = {}) => {
    const refusal = this.refuseWebhookTarget?.(url);
    if (refusal !== undefined) throw validationError([{ path: 'url', message: refusal }]);
    return this.op((c) => admin.addWebhook(c, merchantId, url, listener, opts));
  };
  /** Issue 45: the forwarding rule for a listener's registration, as the registrations stand now. */
  forwardPlan = (listenerId: string) => this.db.read(() => forwarding.forwardPlan(this.core, listenerId));
  listWebhooks = (scope: Scope) => admin.listWebhooks(this.core, scope);
  deleteWebhook = (scope: Scope, id: string) => this.op((c) => admin.deleteWebhook(c, scope, id));
  /** Empty `scope`'s data (a PSP's includes its sub-merchants); no scope: every account's (reset --all). */
  reset = (scope?: Scope, caller?: string) => this.op((c) => admin.resetData(c, scope, caller));
  resetPreview = (scope?: Scope, caller?: string) => dataScope.previewReset(this.core, scope, caller);
  /** The caller and, for a PSP, its sub-merchants: what reset and snapshots over HTTP cover. */
  accountScope = (merchantId: string) => dataScope.accountScope(this.core, merchantId);

  /** The Encryption Key that signs events about `merchantId` (its own, or its PSP's for a sub-merchant). */
  encryptionKeyFor = (merchantId: string): string | null => outbox.encryptionKeyFor(this.core, merchantId);

  // the delivery log and the outbox (issue 19; webhooks.ts makes the attempts)
  listEvents = (scope: Scope, filter: outbox.EventFilter) => this.db.read(() => outbox.listEvents(this.core, scope, filter));
  event = (scope: Scope, id: string) => this.db.read(() => outbox.getEvent(this.core, scope, id));
  resendEvent = (scope: Scope, id: string, url?: string) => outbox.resendEvent(this.core, scope, id, url);
  claimDue = (leaseMicros: number, limit?: number) => outbox.claimDue(this.core, leaseMicros, limit);
  recordAttempt = (deliveryId: number, result: outbox.AttemptResult) => outbox.recordAttempt(this.core, deliveryId, result);
  releaseLease = (deliveryId: number) => outbox.releaseLease(this.core, deliveryId);
  nextDue = () => outbox.nextDue(this.core);
  /** Time-based events that fell due on the sandbox clock (links that expired unpaid, N13; verifications past their deadline, 11.10 P9). */
  announceDue = (): number => this.op((c) => links.announceExpiredLinks(c) + verificationReview.expireDue(c));

  // the sandbox clocks (issue 19): one per account tree since issue 31 (store/clock.ts)
  /** `merchantId`'s clock (its tree's); null: the database's default. */
  clock = (merchantId: string | null) => clock.clockView(this.db, this.baseMicros, merchantId);
  /** The default clock and every tree's own, for `pgw sandbox clock --all`. */
  allClocks = () => clock.allClockViews(this.db, this.baseMicros);
  advanceClock = (target: clock.ClockTarget, seconds: number) => clock.moveClock(this.db, this.baseMicros, target, { by: seconds * 1_000_000 });
  /** Sandbox time becomes `micros` (epoch microseconds) and runs on from there. */
  setClock = (target: clock.ClockTarget, micros: number) => clock.moveClock(this.db, this.baseMicros, target, { to: micros });
  resetClock = (target: clock.ClockTarget) => clock.moveClock(this.db, this.baseMicros, target, { reset: true });
  /** The account tree `merchantId` belongs to: its root (whose clock it reads) and every merchant in it. */
  clockTree = (merchantId: string): { root: string; scope: string[] } => {
    const root = clock.clockRoot(this.db, merchantId);
    return { root, scope: dataScope.accountScope(this.core, root) };
  };
  /** Before a clock move: what its report is measured from (scope null: every account, `--all`). */
  markClock = (scope: Scope | null) => clockEffects.markClock(this.core, scope, this.baseMicros());
  /** After a clock move and its due work: what it caused (issue 42 item 5). */
  clockCaused = (mark: clockEffects.ClockMark) => clockEffects.causedSince(this.core, mark, this.baseMicros());
  /** An attempt due in `clock`'s tree (null: any) that another process is making now. */
  dueInFlight = (clock: string | null) => this.db.read(() => clockEffects.dueInFlight(this.core, clock));

  /** Demo data; seeded payments send no webhooks. */
  seed(merchantId: string, count?: number): admin.SeedResult {
    this.muted = true;
    try {
      return this.op((c) => admin.seedData(c, merchantId, count));
    } finally {
      this.muted = false;
    }
  }

  close(): void {
    // Writes still queued for a group commit are committed (and answered) before the connection goes.
    this.group.flush();
    this.db.close();
  }
}

export function openStore(dbPath: string, opts?: StoreOptions): Store {
  return new Store(dbPath, opts);
}
