// Versioned schema: PRAGMA user_version counts the migrations applied. A migration is appended,
// never edited, once it has shipped. Applied inside BEGIN IMMEDIATE, so two processes opening a
// new file at once apply it exactly once.
import type { SqlConnection } from './sqlite/connection.js';

export const MIGRATIONS: readonly string[] = [
  // 1: the whole sandbox. Amounts are 2-decimal TEXT (never REAL); timestamps are ISO strings with
  // microseconds, which sort as text.
  `
  CREATE TABLE ids (id TEXT PRIMARY KEY) WITHOUT ROWID;

  CREATE TABLE merchants (
    merchant_id TEXT PRIMARY KEY,
    brand_name TEXT NOT NULL,
    kyc_status TEXT NOT NULL,
    is_psp INTEGER NOT NULL DEFAULT 0,
    parent_id TEXT REFERENCES merchants(merchant_id),
    client_id TEXT UNIQUE,
    client_secret TEXT,
    seed_role TEXT UNIQUE,
    settlement_details TEXT,
    company_details TEXT,
    settlement_currency TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX merchants_parent ON merchants(parent_id, created_at);

  CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    reference_id TEXT NOT NULL,
    open INTEGER NOT NULL DEFAULT 1,
    amount TEXT NOT NULL,
    currency TEXT NOT NULL,
    collection_mode TEXT NOT NULL,
    mop_type TEXT,
    upi_flow_type TEXT,
    vpa TEXT,
    upi_app_name TEXT,
    return_url TEXT,
    buyer TEXT NOT NULL,
    product TEXT NOT NULL,
    invoice TEXT,
    invoice_date_set TEXT,
    card TEXT,
    session_id TEXT UNIQUE,
    acs_token TEXT UNIQUE,
    status TEXT NOT NULL,
    status_message TEXT,
    api_version TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  -- spec 2.1: reference_id is unique per merchant while the order is active (open).
  CREATE UNIQUE INDEX orders_open_reference ON orders(merchant_id, reference_id) WHERE open = 1;

  CREATE TABLE settlements (
    id TEXT PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    utr_number TEXT NOT NULL,
    settlement_amount TEXT NOT NULL,
    settlement_charges TEXT NOT NULL,
    settlement_gst TEXT NOT NULL,
    forex_rate TEXT NOT NULL,
    settlement_currency TEXT NOT NULL,
    number_of_transactions INTEGER NOT NULL,
    completed_at TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE links (
    link_id TEXT PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    order_id TEXT NOT NULL REFERENCES orders(order_id),
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    deactivated_at TEXT,
    paid_payment_id TEXT,
    mop_type TEXT
  );
  CREATE INDEX links_order ON links(order_id);

  CREATE TABLE subscriptions (
    uid TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    amount TEXT NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE payments (
    payment_id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(order_id),
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    link_id TEXT REFERENCES links(link_id),
    subscription_uid TEXT REFERENCES subscriptions(uid),
    amount TEXT NOT NULL,
    currency TEXT NOT NULL,
    mop_type TEXT,
    mop_detail TEXT,
    gateway TEXT NOT NULL,
    status TEXT NOT NULL,
    status_message TEXT,
    bank_ref_num TEXT,
    created_at TEXT NOT NULL,
    completed_at TEXT,
    settlement_id TEXT REFERENCES settlements(id),
    fee TEXT,
    gst TEXT,
    net TEXT
  );
  CREATE INDEX payments_order ON payments(order_id);
  CREATE INDEX payments_link ON payments(link_id, created_at);
  CREATE INDEX payments_subscription ON payments(subscription_uid, created_at);
  CREATE INDEX payments_settlement ON payments(settlement_id);

  CREATE TABLE refunds (
    refund_id TEXT PRIMARY KEY,
    payment_id TEXT NOT NULL REFERENCES payments(payment_id),
    merchant_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    settlement_id TEXT REFERENCES settlements(id)
  );
  CREATE INDEX refunds_payment ON refunds(payment_id);
  CREATE INDEX refunds_settlement ON refunds(settlement_id);

  CREATE TABLE chargebacks (
    chargeback_id TEXT PRIMARY KEY,
    payment_id TEXT NOT NULL REFERENCES payments(payment_id),
    merchant_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    settlement_id TEXT REFERENCES settlements(id)
  );
  CREATE INDEX chargebacks_payment ON chargebacks(payment_id);
  CREATE INDEX chargebacks_settlement ON chargebacks(settlement_id);

  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    url TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX webhooks_merchant ON webhooks(merchant_id);
  `,
  // 2 (issue 16): a registration made by `pgw listen` is a loopback receiver that lives as long as
  // that process; delivery drops it once it is found gone (webhooks.ts), instead of retrying.
  `
  ALTER TABLE webhooks ADD COLUMN listener INTEGER NOT NULL DEFAULT 0;
  `,
  // 3 (issue 14): refunds made with POST /pg/refunds/ (beyond 2.1) keep their callback address and
  // a bank reference; settlements are listed by completion date (beyond 4.1), links by creation.
  `
  ALTER TABLE refunds ADD COLUMN callback_url TEXT;
  ALTER TABLE refunds ADD COLUMN bank_ref_num TEXT;
  CREATE INDEX settlements_merchant_completed ON settlements(merchant_id, completed_at);
  CREATE INDEX links_merchant_created ON links(merchant_id, created_at);
  `,
  // 4 (issue 20): refunds walk the seven statuses of vendor 2.5 with a status note and the moment
  // they were done (vendor 2.4 rule 4); payments and refunds are listed per merchant by creation.
  `
  ALTER TABLE refunds ADD COLUMN message TEXT;
  ALTER TABLE refunds ADD COLUMN refunded_at TEXT;
  CREATE INDEX refunds_merchant_created ON refunds(merchant_id, created_at);
  CREATE INDEX payments_merchant_created ON payments(merchant_id, created_at);
  `,
  // 5 (issue 19): the sandbox clock (one per database: an offset from the machine's time), each
  // account's webhook Encryption Key, and the durable outbox: an event is written in the same
  // transaction as the change it announces, with one delivery per address and every attempt made.
  `
  CREATE TABLE sandbox_clock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    offset_micros INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO sandbox_clock (id, offset_micros) VALUES (1, 0);

  ALTER TABLE merchants ADD COLUMN encryption_key TEXT;
  UPDATE merchants SET encryption_key = 'sbx_ek_' || lower(hex(randomblob(24))) WHERE client_id IS NOT NULL;

  CREATE TABLE events (
    id TEXT PRIMARY KEY,
    sequence_number TEXT NOT NULL UNIQUE,
    event_type TEXT NOT NULL,
    merchant_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX events_merchant_created ON events(merchant_id, created_at);

  -- One per event and address. next_attempt_at: sandbox-clock microseconds of the next try, NULL
  -- when none is due any more. lease_until: sandbox-clock microseconds until which a process is
  -- making the attempt (so two processes sharing the file never both make it); clock moves shift it.
  CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    listener INTEGER NOT NULL DEFAULT 0,
    signer_id TEXT NOT NULL,
    max_attempts INTEGER NOT NULL,
    first_at INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_status TEXT,
    next_attempt_at INTEGER,
    lease_until INTEGER
  );
  CREATE INDEX deliveries_event ON deliveries(event_id);
  CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE next_attempt_at IS NOT NULL;

  CREATE TABLE attempts (
    id INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    at TEXT NOT NULL,
    status INTEGER,
    error TEXT,
    ms INTEGER NOT NULL
  );
  CREATE INDEX attempts_delivery ON attempts(delivery_id, n);
  `,
  // 6 (issue 24): faults on demand, armed per account and kept in the database so every process
  // using it (sandbox serve, the embedded profile) applies them; times_left and the generator's
  // state move in the write that fires one, so two processes never both spend the last one.
  `
  CREATE TABLE faults (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    kind TEXT NOT NULL,
    status INTEGER,
    delay_ms INTEGER,
    times_left INTEGER,
    rate REAL,
    seed INTEGER,
    rng_state INTEGER,
    seen INTEGER NOT NULL DEFAULT 0,
    fired INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
  );
  CREATE INDEX faults_merchant ON faults(merchant_id, created_at);
  `,
  // 7 (issue 20): order statuses as vendor 4.3 names them (payment_pending, failed; C8 forbids
  // payment_failed), and when an order last changed (GET /pg/orders/{id}/status/, vendor 4.2).
  `
  ALTER TABLE orders ADD COLUMN updated_at TEXT;
  UPDATE orders SET status = 'payment_pending' WHERE status = 'created';
  UPDATE orders SET status = 'failed' WHERE status = 'payment_failed';
  UPDATE orders SET updated_at = coalesce(
    (SELECT max(coalesce(p.completed_at, p.created_at)) FROM payments p WHERE p.order_id = orders.order_id), created_at);
  `,
  // 8 (issue 20): payment link share requests (vendor 6), recorded on the link; nothing is sent.
  `
  ALTER TABLE links ADD COLUMN shares TEXT;
  `,
  // 9 (issue 31, I3): deliveries and attempts are numbered by AUTOINCREMENT, so a number is never
  // handed out twice, even after a reset emptied the table: a scoped snapshot's rows can never
  // meet a row an unrelated account got since, and an attempt still on the wire when a reset or
  // restore removed its delivery can never be recorded on another one. SQLite's way to change a
  // key: rename (attempts' reference follows), create anew, copy, drop the old, index again.
  `
  ALTER TABLE deliveries RENAME TO deliveries_before_9;
  ALTER TABLE attempts RENAME TO attempts_before_9;
  CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    listener INTEGER NOT NULL DEFAULT 0,
    signer_id TEXT NOT NULL,
    max_attempts INTEGER NOT NULL,
    first_at INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_status TEXT,
    next_attempt_at INTEGER,
    lease_until INTEGER
  );
  CREATE TABLE attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id INTEGER NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    at TEXT NOT NULL,
    status INTEGER,
    error TEXT,
    ms INTEGER NOT NULL
  );
  INSERT INTO deliveries SELECT * FROM deliveries_before_9;
  INSERT INTO attempts SELECT * FROM attempts_before_9;
  DROP TABLE attempts_before_9;
  DROP TABLE deliveries_before_9;
  CREATE INDEX deliveries_event ON deliveries(event_id);
  CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE next_attempt_at IS NOT NULL;
  CREATE INDEX attempts_delivery ON attempts(delivery_id, n);
  `,
  // 10 (issue 31, I2): a clock per account tree (a merchant; a PSP with its sub-merchants), as
  // Stripe's test clocks scope time. A tree without a row reads the default clock (sandbox_clock),
  // so a database from before this change keeps the time it had. No merchant_id column: a clock
  // is not data a reset empties (store/data-scope.ts). Each delivery names the clock its due
  // times and lease are on (its event's tree), so the outbox compares each with its own time.
  `
  CREATE TABLE account_clocks (
    account_id TEXT PRIMARY KEY,
    offset_micros INTEGER NOT NULL
  ) WITHOUT ROWID;
  ALTER TABLE deliveries ADD COLUMN clock_id TEXT;
  UPDATE deliveries SET clock_id = (
    SELECT coalesce(m.parent_id, e.merchant_id) FROM events e LEFT JOIN merchants m ON m.merchant_id = e.merchant_id WHERE e.id = deliveries.event_id);
  `,
  // 11 (issue 33 item 9): each attempt keeps the X-Webhook-Signature and -V2 values it sent
  // (HMACs, not the key), so `pgw events get` shows what a receiver had to check and `pgw webhook
  // verify` can be tried without the receiver's log. NULL: not sent (refused before any request,
  // an account without a key, or an attempt made before this column existed).
  `
  ALTER TABLE attempts ADD COLUMN signature TEXT;
  ALTER TABLE attempts ADD COLUMN signature_v2 TEXT;
  `,
  // 12 (issue 36, vendor 11.7): virtual bank accounts and the credits they received. A credit is a
  // payment (with its order) plus a vba_credits row keeping the transfer's own facts (utr, the
  // remitter). payments.settlement_status is vendor 11.3's state, NULL for every payment made
  // before and for card/UPI payments (they behave as they did); a VBA credit starts it at
  // ACTION_REQUIRED (captured) or NOT_APPLICABLE (failed), for the verification work to move on.
  // orders.business_model / purpose_code: NULL (unclassified) on a VBA credit's order (11.10 P1).
  `
  CREATE TABLE vbas (
    uid TEXT PRIMARY KEY,
    virtual_account_id TEXT NOT NULL UNIQUE,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    account_name TEXT NOT NULL,
    account_number TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    remitter_lock TEXT,
    amount_lock TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX vbas_merchant_created ON vbas(merchant_id, created_at);

  CREATE TABLE vba_credits (
    payment_id TEXT PRIMARY KEY REFERENCES payments(payment_id),
    virtual_account_id TEXT NOT NULL REFERENCES vbas(virtual_account_id),
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    utr TEXT NOT NULL,
    remitter_name TEXT NOT NULL,
    remitter_account TEXT NOT NULL,
    remitter_ifsc TEXT NOT NULL,
    phone TEXT,
    remarks TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  -- A UTR is used once per account (docs/sandbox.md: the vendor says across all simulations).
  CREATE UNIQUE INDEX vba_credits_merchant_utr ON vba_credits(merchant_id, utr);
  CREATE INDEX vba_credits_vba_created ON vba_credits(virtual_account_id, created_at);

  ALTER TABLE payments ADD COLUMN settlement_status TEXT;
  ALTER TABLE orders ADD COLUMN business_model TEXT;
  ALTER TABLE orders ADD COLUMN purpose_code TEXT;
  `,
  // 13 (issue 36: order documents, PAN verify): the files uploaded to an order (vendor 11.1), kept
  // in the database itself so they survive a restart and travel in snapshots; url_key signs the
  // short-lived addresses order details hands out (store/documents.ts). The PANs each account has
  // checked through POST /pg/pan/verify/ (vendor 11.6), the last outcome per PAN: an LRS quote
  // needs a verified one.
  `
  CREATE TABLE order_documents (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    order_id TEXT NOT NULL REFERENCES orders(order_id),
    document_type TEXT NOT NULL,
    identifier TEXT NOT NULL,
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    content BLOB NOT NULL,
    url_key TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX order_documents_order ON order_documents(order_id, document_type, created_at);
  CREATE TABLE pan_verifications (
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    pan TEXT NOT NULL,
    pan_id TEXT NOT NULL,
    name TEXT NOT NULL,
    dob TEXT NOT NULL,
    verified INTEGER NOT NULL,
    reason TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (merchant_id, pan)
  );
  `,
  // 14 (issue 36, vendor 11.2-11.4): payment verification. One row per payment whose verification
  // is open: what was sent (fields by code, documents by code: a ref or a waiver), when it was
  // filed (staging closed) and its gateway deadline (11.10 P9; NULL on VBA credits and LRS). The
  // documents uploaded for verification (11.2.3) are kept whole, per merchant. A payment without
  // a row has never been asked for anything (docs/sandbox.md "Payment verification").
  // merchants.details_missing_events: the compatibility flag of 11.10 P8. settlement_refs and
  // settlement_submitted_at: the B2B services post-settlement set (11.5), NULL while FRESH.
  `
  CREATE TABLE verifications (
    payment_id TEXT PRIMARY KEY REFERENCES payments(payment_id),
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    fields TEXT NOT NULL DEFAULT '{}',
    documents TEXT NOT NULL DEFAULT '{}',
    filed_at TEXT,
    expires_at TEXT,
    expired_at TEXT,
    settlement_refs TEXT,
    settlement_submitted_at TEXT,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX verifications_expiry ON verifications(expires_at) WHERE expires_at IS NOT NULL AND expired_at IS NULL;
  CREATE TABLE verification_documents (
    ref TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(merchant_id),
    payment_id TEXT NOT NULL REFERENCES payments(payment_id),
    type TEXT NOT NULL,
    file_name TEXT NOT NULL,
    size INTEGER NOT NULL,
    content BLOB NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX verification_documents_payment ON verification_documents(payment_id);
  -- 11.10 P8: the retired PAYMENT_DETAILS_MISSING is sent only to an account that turned this on.
  ALTER TABLE merchants ADD COLUMN details_missing_events INTEGER NOT NULL DEFAULT 0;
  -- 11.10 P4: the purpose codes an account has had disabled (a JSON array; NULL: none).
  ALTER TABLE merchants ADD COLUMN disabled_purpose_codes TEXT;
  `,
  // 15 (issue 45): the forwarding rule of `pgw listen`. A listener's registration names the address
  // it forwards to and the events it shows (NULL: every one); each delivery to a listener records
  // whether that listener forwards the event ('yes') or who brings it to that address instead
  // ('address WH…': a registration the sandbox posts to itself; 'listener WH…': another listener).
  `
  ALTER TABLE webhooks ADD COLUMN forward_to TEXT;
  ALTER TABLE webhooks ADD COLUMN events TEXT;
  ALTER TABLE deliveries ADD COLUMN forward TEXT;
  `,
];

export function schemaVersion(db: SqlConnection): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

export function migrate(db: SqlConnection): void {
  if (schemaVersion(db) === MIGRATIONS.length) return;
  // Statements, not exec(): an engine that cannot report its transaction state follows these.
  db.prepare('BEGIN IMMEDIATE').run();
  try {
    const current = schemaVersion(db);
    if (current > MIGRATIONS.length) {
      throw new Error(`the sandbox database has schema version ${current}, newer than this pgw understands (${MIGRATIONS.length}); upgrade pgw or use another --db`);
    }
    for (let v = current; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
    db.prepare('COMMIT').run();
  } catch (err) {
    if (db.inTransaction) db.prepare('ROLLBACK').run();
    throw err;
  }
}
