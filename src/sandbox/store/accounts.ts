// Accounts: the seeded demo merchant, PSP and sub-merchants, authentication, and the partner
// operations on sub-merchants (spec 2.10, 4.8-4.10).
import type { MerchantContact, MerchantCreate, MerchantUpdate, Problem } from '../../api/schemas/index.js';
import { MERCHANT_VALIDATION, subMerchantNotFound, validationError } from '../errors.js';
import { newHex, newMerchantId, newToken } from '../ids.js';
import { nowStamp, parseJson, type Core } from './core.js';

export interface MerchantRow {
  merchant_id: string;
  brand_name: string;
  kyc_status: string;
  is_psp: number;
  parent_id: string | null;
  client_id: string | null;
  client_secret: string | null;
  seed_role: string | null;
  settlement_details: string | null;
  company_details: string | null;
  settlement_currency: string | null;
  /** The webhook Encryption Key (vendor 1.2) of an account with credentials; null for sub-merchants. */
  encryption_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface SeededAccount {
  name: string;
  client_id: string;
  client_secret: string;
  merchant_id: string;
  psp: boolean;
  /** Signs every webhook delivery to this account's addresses (vendor 1.2). */
  encryption_key: string;
}

/** A new Encryption Key: created with the account, like its client secret. */
export const newEncryptionKey = (): string => `sbx_ek_${newHex(24)}`;

/** What a seed is about: its contact and what it sells, which the docs require (vendor 7.1). */
interface SeedProfile {
  brand: string;
  email: string;
  phone: string;
  sells: string;
}

/** A seed's create body, with every company_details field the docs require (vendor 7.1). */
function demoDetails(seed: SeedProfile, legal: string): MerchantCreate & { company_details: MerchantContact } {
  const brand = seed.brand;
  return {
    settlement_details: {
      bank_account_number: '000123456789',
      bank_account_name: legal,
      bank_swift_code: 'SIMUINBBXXX',
      bank_name: 'Simulator Bank',
      bank_branch_name: 'Main Branch',
      bank_address: '1 Bank Street',
      bank_city: 'Mumbai',
      bank_state: 'Maharashtra',
      bank_country: 'India',
      bank_pincode: '400001',
      routing_number: '000000000',
    },
    company_details: {
      legal_name: legal,
      brand_name: brand,
      registration_number: 'U72900MH2020PTC000001',
      international_org_type: 'PRIVATE_LIMITED',
      tax_id: 'ABCDE1234F',
      website: 'https://example.com',
      monthly_avg_transaction_value: '250000.00',
      monthly_avg_transaction_volume: '1200',
      same_as_registered_address: true,
      registered_address: '1 Demo Road',
      registered_city: 'Mumbai',
      registered_state: 'Maharashtra',
      registered_country: 'India',
      registered_pincode: '400001',
      business_category: 'TECHNOLOGY',
      business_mode: 'B2B',
      payment_terms: 'NET_30',
      hs_codes: ['85176290'],
      purpose_code: 'P0802',
      description_of_products_and_services: seed.sells,
      email: seed.email,
      phone_number: seed.phone,
    },
  };
}

const SEEDS = [
  { role: 'merchant', brand: 'Demo Merchant', psp: false, kyc: 'APPROVED', sub: false, email: 'accounts@demo-merchant.example', phone: '+912240000001', sells: 'Networking equipment and accessories' },
  { role: 'psp', brand: 'Demo PSP', psp: true, kyc: 'APPROVED', sub: false, email: 'partners@demo-psp.example', phone: '+912240000002', sells: 'Payment services for online sellers' },
  { role: 'sub_approved', brand: 'Demo Sub-merchant One', psp: false, kyc: 'APPROVED', sub: true, email: 'accounts@demo-sub-one.example', phone: '+912240000003', sells: 'Routers and network switches' },
  { role: 'sub_pending', brand: 'Demo Sub-merchant Two', psp: false, kyc: 'PENDING', sub: true, email: 'accounts@demo-sub-two.example', phone: '+912240000004', sells: 'Wireless access points' },
] as const;

/** Seed the demo accounts on first use; idempotent, and safe when processes race to do it. */
export function ensureSeedAccounts(core: Core): void {
  const { db } = core;
  if (db.get('SELECT 1 FROM merchants WHERE seed_role = ?', 'merchant')) return;
  db.write(() => {
    if (db.get('SELECT 1 FROM merchants WHERE seed_role = ?', 'merchant')) return;
    const ids: Record<string, string> = {};
    for (const s of SEEDS) {
      const id = newMerchantId(db);
      ids[s.role] = id;
      const at = nowStamp(core, null);
      const details = demoDetails(s, `${s.brand} Private Limited`);
      db.run(
        `INSERT INTO merchants (merchant_id, brand_name, kyc_status, is_psp, parent_id, client_id, client_secret, seed_role,
           settlement_details, company_details, settlement_currency, encryption_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id,
        s.brand,
        s.kyc,
        s.psp ? 1 : 0,
        s.sub ? ids.psp : null,
        s.sub ? null : `sbx_ci_${newHex(10)}`,
        s.sub ? null : `sbx_cs_${newToken(24)}`,
        s.role,
        JSON.stringify(details.settlement_details),
        JSON.stringify(details.company_details),
        'INR',
        s.sub ? null : newEncryptionKey(),
        at,
        at,
      );
    }
  });
}

export function seededAccounts(core: Core): SeededAccount[] {
  return core.db
    .all<MerchantRow>(`SELECT * FROM merchants WHERE seed_role IN ('merchant', 'psp') ORDER BY seed_role`)
    .map((m) => ({
      name: m.brand_name,
      client_id: m.client_id!,
      client_secret: m.client_secret!,
      merchant_id: m.merchant_id,
      psp: m.is_psp === 1,
      encryption_key: m.encryption_key!,
    }));
}

/**
 * Compares every character whatever the first difference, so the time taken says nothing of how
 * much of a guessed secret was right. In plain JavaScript rather than crypto.timingSafeEqual: every
 * request authenticates, and node:crypto would be loaded for it alone (~5 ms a run; issue 23).
 */
export function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function authenticate(core: Core, clientId: string, secret: string): MerchantRow | undefined {
  const row = accountByClientId(core, clientId);
  return row && secretMatches(row, secret) ? row : undefined;
}

export function accountByClientId(core: Core, clientId: string): MerchantRow | undefined {
  return core.db.get<MerchantRow>('SELECT * FROM merchants WHERE client_id = ?', clientId);
}

export const secretMatches = (row: MerchantRow, secret: string): boolean => row.client_secret !== null && sameSecret(row.client_secret, secret);

export function merchantById(core: Core, id: string): MerchantRow | undefined {
  return core.db.get<MerchantRow>('SELECT * FROM merchants WHERE merchant_id = ?', id);
}

export function subMerchantIds(core: Core, pspId: string): string[] {
  return core.db.all<{ merchant_id: string }>('SELECT merchant_id FROM merchants WHERE parent_id = ?', pspId).map((r) => r.merchant_id);
}

export interface SubMerchantListItem {
  id: string;
  brand_name: string;
  kyc_status: string;
  created_date: string;
  /** vendor 0.3: the list page says created_at; both names. */
  created_at: string;
}

export interface SubMerchantListOptions {
  /** vendor 7.2: part of the brand or legal name, any case. */
  search?: string;
  /** created_at, last_updated_at, `-` first for descending; default oldest first (as before). */
  ordering?: string;
}

export function listSubMerchants(core: Core, pspId: string, page: number, pageSize: number, opts: SubMerchantListOptions = {}): { count: number; results: SubMerchantListItem[] } {
  return core.db.read(() => {
    const where = ['parent_id = ?'];
    const args: unknown[] = [pspId];
    if (opts.search) {
      const like = `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(brand_name LIKE ? ESCAPE '\\' OR json_extract(company_details, '$.legal_name') LIKE ? ESCAPE '\\')`);
      args.push(like, like);
    }
    const desc = opts.ordering?.startsWith('-') === true;
    const column = opts.ordering?.replace(/^-/, '') === 'last_updated_at' ? 'updated_at' : 'created_at';
    const dir = desc ? 'DESC' : 'ASC';
    const clause = where.join(' AND ');
    const count = core.db.get<{ n: number }>(`SELECT count(*) AS n FROM merchants WHERE ${clause}`, ...args)!.n;
    const rows = core.db.all<MerchantRow>(
      `SELECT * FROM merchants WHERE ${clause} ORDER BY ${column} ${dir}, rowid ${dir} LIMIT ? OFFSET ?`,
      ...args,
      pageSize,
      (page - 1) * pageSize,
    );
    return {
      count,
      results: rows.map((m) => ({ id: m.merchant_id, brand_name: m.brand_name, kyc_status: m.kyc_status, created_date: m.created_at, created_at: m.created_at })),
    };
  });
}

/** Cross-border sub-merchants settle in USD unless their bank is in India (spec 2.10 create response). */
function settlementCurrency(bankCountry: unknown): string {
  return typeof bankCountry === 'string' && /^(in|ind|india)$/i.test(bankCountry.trim()) ? 'INR' : 'USD';
}

/**
 * company_details as answered. The docs require email, phone_number and
 * description_of_products_and_services (vendor 7.1), which a create may leave out (C14: the
 * vendor's client never sends the contact, and sends the description even when empty). The
 * sandbox's rule (docs/sandbox.md): a missing contact is the PSP's own, the one the gateway
 * reaches about a sub-merchant it created; a missing description is "" (what that client sends
 * for none). Nothing is stored: an update that gives them replaces the stand-ins.
 */
function answeredCompany(m: MerchantRow, parent: MerchantRow | undefined): Record<string, unknown> | null {
  const company = parseJson<Record<string, unknown>>(m.company_details);
  if (!company) return null;
  const psp = parseJson<MerchantContact>(parent?.company_details ?? null) ?? {};
  const email = company.email ?? psp.email;
  const phone = company.phone_number ?? psp.phone_number;
  return {
    ...company,
    description_of_products_and_services: company.description_of_products_and_services ?? '',
    // A database seeded by an older pgw has a PSP without a contact: then the keys stay out.
    ...(email === undefined ? {} : { email }),
    ...(phone === undefined ? {} : { phone_number: phone }),
  };
}

export function merchantView(m: MerchantRow, parent?: MerchantRow): Record<string, unknown> {
  return {
    id: m.merchant_id,
    settlement_details: { ...parseJson<object>(m.settlement_details), settlement_currency: m.settlement_currency },
    company_details: answeredCompany(m, parent),
    // vendor 7.1: kyc_status and last_updated_at (beside spec 2.10's updated_at, 0.3).
    kyc_status: m.kyc_status,
    created_at: m.created_at,
    updated_at: m.updated_at,
    last_updated_at: m.updated_at,
    invoice_file: null,
  };
}

/** The last 4 characters, the rest starred (docs/sandbox.md: details never show a whole account number). */
export function maskAccountNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= 4) return value;
  return `${'*'.repeat(value.length - 4)}${value.slice(-4)}`;
}

/** A stored value as the browser client's keys carry it: absent or empty reads as null. */
const orNull = (value: unknown): unknown => (value === undefined || value === '' ? null : value);

/**
 * vendor C13 / beyond 5.1: the keys the vendor's browser client reads on Get sub-merchant, filled
 * from the same stored data as company_details and settlement_details (which stay as they are):
 * `company` (address is the registered address with its city, state and pincode on one line;
 * company_type is international_org_type), `contact`, `bank` (the account number masked as in
 * settlement_details), `business`, and the document lists, empty: the sandbox keeps no documents.
 */
function browserClientKeys(company: Record<string, unknown>, bank: Record<string, unknown>): Record<string, unknown> {
  const address = ['registered_address', 'registered_city', 'registered_state', 'registered_pincode']
    .map((k) => company[k])
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .join(', ');
  return {
    company: {
      legal_name: orNull(company.legal_name),
      company_type: orNull(company.international_org_type),
      registration_number: orNull(company.registration_number),
      tax_id: orNull(company.tax_id),
      address: orNull(address),
      country: orNull(company.registered_country),
    },
    contact: { email: orNull(company.email), phone_number: orNull(company.phone_number) },
    bank: { bank_account_number: orNull(bank.bank_account_number), bank_name: orNull(bank.bank_name), bank_address: orNull(bank.bank_address) },
    business: {
      business_category: orNull(company.business_category),
      purpose_code: orNull(company.purpose_code),
      commodity: orNull(company.commodity),
      payment_terms: orNull(company.payment_terms),
      website: orNull(company.website),
    },
    registration_documents: [],
    business_licenses: [],
    other_documents: [],
  };
}

/**
 * GET /partners/merchants/{id}/ (beyond 5.1, vendor 7.3): one sub-merchant of this PSP as created,
 * with its kyc_status; anyone else's reads as nonexistent. Beside the docs' shape, the browser
 * client's keys (vendor C13), so a client written to either finds what it reads.
 */
export function subMerchantDetails(core: Core, pspId: string, merchantId: string): Record<string, unknown> {
  const m = merchantById(core, merchantId);
  if (!m || m.parent_id !== pspId) throw subMerchantNotFound(merchantId);
  const view = merchantView(m, merchantById(core, pspId));
  const company = (view.company_details ?? {}) as Record<string, unknown>;
  const settlement = view.settlement_details as Record<string, unknown>;
  const masked = { ...settlement, bank_account_number: maskAccountNumber(settlement.bank_account_number) };
  return {
    id: m.merchant_id,
    kyc_status: m.kyc_status,
    company_details: view.company_details,
    settlement_details: masked,
    created_at: m.created_at,
    updated_at: m.updated_at,
    last_updated_at: m.updated_at,
    ...browserClientKeys(company, masked),
  };
}

/** spec 4.9: new sub-merchants start with kyc_status PENDING. */
export function createSubMerchant(core: Core, pspId: string, body: MerchantCreate): Record<string, unknown> {
  const { db } = core;
  return db.write(() => {
    const id = newMerchantId(db);
    const at = nowStamp(core, pspId);
    db.run(
      `INSERT INTO merchants (merchant_id, brand_name, kyc_status, is_psp, parent_id, settlement_details, company_details,
         settlement_currency, created_at, updated_at) VALUES (?, ?, 'PENDING', 0, ?, ?, ?, ?, ?, ?)`,
      id,
      body.company_details.brand_name,
      pspId,
      JSON.stringify(body.settlement_details),
      JSON.stringify(body.company_details),
      body.settlement_details.settlement_currency ?? settlementCurrency(body.settlement_details.bank_country),
      at,
      at,
    );
    return merchantView(merchantById(core, id)!, merchantById(core, pspId));
  });
}

/** The create rules applied to a merged merchant (the shared schemas, passed in by the handler). */
export type MergedMerchantCheck = (merged: { settlement_details: object; company_details: object }) => Problem[];

/**
 * spec 4.10: merge the sent fields; the merged merchant must still satisfy the create rules.
 * `check` comes from the handler, so the store itself never loads zod (a GET does not need it).
 */
export function updateSubMerchant(
  core: Core,
  pspId: string,
  merchantId: string,
  body: MerchantUpdate,
  check: MergedMerchantCheck,
): { merchant_id: string; updated_fields: string[] } {
  const { db } = core;
  return db.write(() => {
    const m = merchantById(core, merchantId);
    if (!m || m.parent_id !== pspId) throw subMerchantNotFound(merchantId);
    // vendor 7.4: only a sub-merchant awaiting approval or asked for changes may be updated.
    if (!UPDATABLE_KYC.includes(m.kyc_status)) {
      throw validationError(
        [{ path: 'kyc_status', message: `${merchantId} is ${m.kyc_status}: a sub-merchant can be updated only while ${UPDATABLE_KYC.join(' or ')}` }],
        MERCHANT_VALIDATION,
      );
    }
    const settlement = { ...parseJson<object>(m.settlement_details), ...body.settlement_details };
    const company = { ...parseJson<object>(m.company_details), ...body.company_details };
    const problems = check({ settlement_details: settlement, company_details: company });
    if (problems.length > 0) throw validationError(problems, MERCHANT_VALIDATION);
    const updated = (['company_details', 'settlement_details'] as const).filter((k) => Object.keys(body[k] ?? {}).length > 0);
    db.run(
      `UPDATE merchants SET settlement_details = ?, company_details = ?, brand_name = ?, settlement_currency = ?, updated_at = ?
       WHERE merchant_id = ?`,
      JSON.stringify(settlement),
      JSON.stringify(company),
      (company as { brand_name?: string }).brand_name ?? m.brand_name,
      (settlement as { settlement_currency?: string }).settlement_currency ?? settlementCurrency((settlement as { bank_country?: string }).bank_country),
      nowStamp(core, merchantId),
      merchantId,
    );
    return { merchant_id: merchantId, updated_fields: updated };
  });
}

/** vendor 7.4: the five kyc statuses, and those in which an update is accepted. */
export const KYC_STATUSES = ['PENDING', 'IN_REVIEW', 'CHANGES_REQUESTED', 'APPROVED', 'REJECTED'] as const;
export const UPDATABLE_KYC: readonly string[] = ['PENDING', 'CHANGES_REQUESTED'];

/**
 * POST /sandbox/merchants/{id}/kyc/ (docs/sandbox.md): the sandbox's stand-in for the gateway's
 * review. Moves a sub-merchant of the caller (a PSP) to any status; reaching APPROVED from another
 * status sends MERCHANT_APPROVED (vendor 1.6) to the PSP. The same status again changes nothing.
 */
export function setKycStatus(core: Core, pspId: string, merchantId: string, status: string): Record<string, unknown> {
  return core.db.write(() => {
    const m = merchantById(core, merchantId);
    if (!m || m.parent_id !== pspId) throw subMerchantNotFound(merchantId);
    const at = nowStamp(core, merchantId);
    if (m.kyc_status !== status) {
      core.db.run('UPDATE merchants SET kyc_status = ?, updated_at = ? WHERE merchant_id = ?', status, at, merchantId);
      if (status === 'APPROVED') {
        const company = parseJson<{ legal_name?: string; brand_name?: string }>(m.company_details) ?? {};
        core.emit({
          type: 'MERCHANT_APPROVED',
          merchant_id: merchantId,
          created_at: at,
          data: { approved_at: at, merchant_id: merchantId, legal_name: company.legal_name ?? m.brand_name, trade_name: company.brand_name ?? m.brand_name },
        });
      }
    }
    const now = merchantById(core, merchantId)!;
    return { merchant_id: merchantId, kyc_status: now.kyc_status, previous_kyc_status: m.kyc_status, last_updated_at: now.updated_at };
  });
}
