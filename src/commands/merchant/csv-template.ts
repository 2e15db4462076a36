// `merchant create --print-template --csv` (issue 33 item 2): the header a spreadsheet for
// `merchant create --file merchants.csv` starts from (every field, by its dotted path, in the
// guided flow's order, the contact fields after the company's), and one example row, the JSON
// template's values. csv-input.ts reads exactly these names.
import { toCsv, type CsvColumn } from '../../output/csv.js';
import { CONTACT_KEYS, FIELDS } from './fields.js';
import { MERCHANT_TEMPLATE } from './template.js';

/** Every column a merchant CSV may have, in the order the template prints them. */
export function csvColumnPaths(): string[] {
  const company = FIELDS.filter((f) => f.object === 'company_details').map((f) => f.path);
  const settlement = FIELDS.filter((f) => f.object === 'settlement_details').map((f) => f.path);
  return [...company, ...CONTACT_KEYS.map((k) => `company_details.${k}`), ...settlement];
}

type Template = Record<string, Record<string, unknown>>;

function cell(value: unknown): unknown {
  if (Array.isArray(value)) return value.join(',');
  return value;
}

export function csvTemplate(): string {
  const columns: CsvColumn<Template>[] = csvColumnPaths().map((path) => {
    const [object, key] = path.split('.', 2) as [string, string];
    return { header: path, value: (t) => cell(t[object]?.[key]) };
  });
  // As written: the template's phone number starts with +, which a formula guard would change.
  return toCsv(columns, [MERCHANT_TEMPLATE as unknown as Template], { raw: true });
}
