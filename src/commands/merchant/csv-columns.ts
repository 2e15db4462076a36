// `merchant list -o csv` and `merchant get <id...> -o csv` (issue 33 item 3): the columns an
// operator filters a sheet of sub-merchants on. Named as the sandbox's sub-merchant details name
// them (store/accounts.ts merchantView, vendor 7.3): id, company_details.legal_name and
// brand_name, kyc_status, the registered country, the contact email (vendor 7.1), created_at and
// updated_at. The list item (spec 2.10) has only id, brand_name, kyc_status and created_date, so
// `list` reads each one's details for the rest (list.ts).
import { keyColumns, toCsv, type CsvColumn, type CsvOptions } from '../../output/csv.js';
import type { MerchantDetails } from './get.js';

/** A list item, its details, or both merged. */
export type MerchantRow = MerchantDetails & { brand_name?: string; created_date?: string; last_updated_at?: string };

const company = (m: MerchantRow): Record<string, unknown> => ({ ...(m.company ?? {}), ...(m.company_details ?? {}) });

const COLUMNS: CsvColumn<MerchantRow>[] = [
  ...keyColumns<MerchantRow>(['id']),
  { header: 'legal_name', value: (m) => company(m).legal_name },
  { header: 'brand_name', value: (m) => company(m).brand_name ?? m.brand_name },
  ...keyColumns<MerchantRow>(['kyc_status']),
  // The company's country (the registered one): what the browser client calls company.country (vendor C13).
  { header: 'country', value: (m) => company(m).registered_country ?? company(m).country },
  { header: 'email', value: (m) => company(m).email ?? m.contact?.email },
  { header: 'created_at', value: (m) => m.created_at ?? m.created_date },
  { header: 'updated_at', value: (m) => m.updated_at ?? m.last_updated_at },
];

export function merchantCsv(rows: readonly MerchantRow[], options: CsvOptions): string {
  return toCsv(COLUMNS, rows, options);
}
