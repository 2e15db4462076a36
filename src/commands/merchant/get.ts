// pgw merchant get <merchant_id...>: GET /partners/merchants/{id}/ (gateway-api-beyond.md 5.1):
// the sub-merchant's company and settlement details and kyc_status. On a terminal the bank account
// number shows its last 4 characters only; JSON is the gateway's data unchanged.
import type { Context } from '../../context.js';
import { runLookup, type LookupOptions } from '../lookup.js';
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { merchantPath, partnerRequest } from './partner.js';
import { merchantCsv } from './csv-columns.js';

type Details = Record<string, unknown>;

/** The sandbox's shape (the sub-merchant as created); 5.1's older keys are read as a fallback. */
export interface MerchantDetails {
  id?: string;
  kyc_status?: string;
  company_details?: Details | null;
  settlement_details?: Details | null;
  company?: Details | null;
  bank?: Details | null;
  /** vendor C13: the browser client's copy of company_details.email / phone_number. */
  contact?: Details | null;
  created_at?: string;
  updated_at?: string;
}

/** Last 4 characters, the rest starred; already-masked values stay as they are. */
export function lastFour(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const text = String(value);
  return text.length <= 4 ? text : `${'*'.repeat(Math.min(8, text.length - 4))}${text.slice(-4)}`;
}

/** A table's short form of a bank account: `••••1234` (its column is cut from the start: the digits stay). */
export function maskedTail(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const text = String(value);
  // Already masked by the gateway (`********6789`) or not: its last four characters, as `merchant get` shows.
  return text.length <= 4 ? text : `••••${text.slice(-4)}`;
}

const text = (v: unknown): string | undefined => (v === null || v === undefined || v === '' ? undefined : Array.isArray(v) ? v.join(', ') : String(v));

export async function runMerchantGet(ctx: Context, opts: LookupOptions): Promise<void> {
  const api = await ctx.api();
  await runLookup(ctx, opts, 'merchant_id', (id) => partnerRequest<MerchantDetails>(api, { method: 'GET', path: merchantPath(id) }), {
    detail: (m) => merchantDetail(m, ctx.io.colorOut, ctx.io.stdoutIsTTY),
    table: (ms) => merchantTable(ms, ctx.io.colorOut, ctx.io.stdoutIsTTY),
    csv: (ms, options) => merchantCsv(ms, options),
  });
}

export function merchantDetail(m: MerchantDetails, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  const c = m.company_details ?? m.company ?? {};
  const s = m.settlement_details ?? m.bank ?? {};
  const address = (prefix: string) => ['address', 'city', 'state', 'pincode', 'country'].map((k) => text(c[`${prefix}_${k}`])).filter((v) => v).join(', ');
  const sections: Parameters<typeof renderDetail>[0] = [
    {
      title: theme.bold(`Sub-merchant ${m.id ?? ''}`.trim()),
      rows: [
        ['kyc_status', m.kyc_status === undefined ? undefined : theme.status(m.kyc_status)],
        ['created', formatTime(m.created_at, local)],
        ['updated', formatTime(m.updated_at, local)],
      ],
    },
    {
      title: 'Company',
      rows: [
        ['brand', text(c.brand_name)],
        ['legal name', text(c.legal_name)],
        ['organisation', text(c.international_org_type ?? c.company_type)],
        ['registration', text(c.registration_number)],
        ['tax id', text(c.tax_id)],
        ['website', text(c.website)],
        ['email', text(c.email ?? m.contact?.email)],
        ['phone', text(c.phone_number ?? m.contact?.phone_number)],
        ['registered', address('registered') || text(c.address)],
        ['communication', c.same_as_registered_address === true ? 'same as registered' : address('communication')],
        ['category', text(c.business_category)],
        ['mode', text(c.business_mode)],
        ['hs_codes', text(c.hs_codes)],
        ['purpose_code', text(c.purpose_code)],
      ],
    },
    {
      title: 'Settlement',
      rows: [
        ['account', lastFour(s.bank_account_number)],
        ['account name', text(s.bank_account_name)],
        ['bank', text(s.bank_name)],
        ['swift', text(s.bank_swift_code)],
        ['routing', text(s.routing_number)],
        ['country', text(s.bank_country)],
        ['currency', text(s.settlement_currency)],
      ],
    },
  ];
  return renderDetail(sections.map((x) => ({ ...x, rows: x.rows.filter(([, v]) => v !== undefined && v !== '') })).filter((x) => x.rows.length > 0));
}

export function merchantTable(ms: MerchantDetails[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['id', 'brand', 'kyc_status', 'country', 'account', 'created'],
    ms.map((m) => {
      const c = m.company_details ?? m.company ?? {};
      const s = m.settlement_details ?? m.bank ?? {};
      return [m.id, text(c.brand_name), theme.status(m.kyc_status), text(c.registered_country ?? c.country), maskedTail(s.bank_account_number), formatTime(m.created_at, local)];
    }),
    color,
  );
}
