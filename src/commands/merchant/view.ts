// Human views of sub-merchants: the list table, a created merchant, the body summary shown before
// sending, and the bulk summary. JSON output never comes through here (it is the data unchanged).
import { renderDetail, renderTable } from '../../output/render.js';
import { createTheme } from '../../output/theme.js';
import { formatTime } from '../../output/time.js';
import { FIELDS, type Section } from './fields.js';

/** spec 2.10 list item. */
export interface MerchantListItem {
  id: string;
  brand_name?: string;
  kyc_status?: string;
  created_date?: string;
}

export function listTable(items: MerchantListItem[], color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderTable(
    ['id', 'brand', 'kyc_status', 'created'],
    items.map((m) => [m.id, m.brand_name, theme.status(m.kyc_status), formatTime(m.created_date, local)]),
    color,
  );
}

/** spec 2.10 create response (the fields this view reads). */
export interface CreatedMerchant {
  id: string;
  company_details?: { brand_name?: string; legal_name?: string; website?: string; email?: string; phone_number?: string };
  settlement_details?: { settlement_currency?: string; bank_name?: string };
  created_at?: string;
}

export function createdDetail(m: CreatedMerchant, color: boolean, local: boolean): string {
  const theme = createTheme(color);
  return renderDetail([
    {
      title: theme.bold(`Sub-merchant ${m.id}`),
      rows: [
        ['brand', m.company_details?.brand_name],
        ['legal name', m.company_details?.legal_name],
        ['website', m.company_details?.website],
        // vendor 7.1: the contact, only when sent (most bodies, the vendor client's too, have none).
        ...(m.company_details?.email ? [['email', m.company_details.email] as [string, string]] : []),
        ...(m.company_details?.phone_number ? [['phone', m.company_details.phone_number] as [string, string]] : []),
        ['bank', m.settlement_details?.bank_name],
        ['settlement currency', m.settlement_details?.settlement_currency],
        ['created', formatTime(m.created_at, local)],
      ],
    },
  ]);
}

export const SECTION_TITLES: Record<Section, string> = {
  company: 'Company',
  registered: 'Registered address',
  communication: 'Communication address',
  business: 'Business details',
  bank: 'Settlement bank',
};

function shown(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** Every field that has a value, by section, with its label: what the person checks before sending. */
export function bodySummary(body: Record<string, Record<string, unknown> | undefined>): string {
  const sections = (Object.keys(SECTION_TITLES) as Section[]).map((section) => ({
    title: SECTION_TITLES[section],
    rows: FIELDS.filter((f) => f.section === section)
      .map((f): [string, string | undefined] => [f.key, shown(body[f.object]?.[f.key])])
      .filter(([, v]) => v !== undefined),
  }));
  return renderDetail(sections.filter((s) => s.rows.length > 0));
}

export type BatchStatus = 'created' | 'already_created' | 'failed' | 'invalid' | 'uncertain' | 'not_attempted';

/** One input merchant's outcome in a bulk run (JSON output prints these). */
export interface BatchResult {
  line: number;
  status: BatchStatus;
  brand_name?: string;
  id?: string;
  error?: { code: string | null; message: string; details: Record<string, unknown> | null; status: number | null };
  uncertain?: true;
}

export function batchTable(results: BatchResult[], unit: string, color: boolean): string {
  const theme = createTheme(color);
  const paint: Record<BatchStatus, (s: string) => string> = {
    created: theme.chalk.green,
    already_created: theme.chalk.dim,
    failed: theme.chalk.red,
    invalid: theme.chalk.red,
    uncertain: theme.chalk.yellow,
    not_attempted: theme.chalk.yellow,
  };
  return renderTable(
    [unit, 'brand', 'status', 'id / error'],
    results.map((r) => [r.line, r.brand_name, paint[r.status](r.status.replace('_', ' ')), r.id ?? r.error?.message]),
    color,
  );
}
