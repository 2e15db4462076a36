// `-o csv` (contract: RFC 4180 with a header row) for the list and recon commands, one renderer
// for all of them. Values are the gateway's, untouched: amounts as it gives them (a JSON number
// prints as JavaScript writes it, a decimal string as it is), null and absent as an empty field.
// Lines end CRLF (RFC 4180 2.1); a field with a comma, quote, CR or LF is quoted, quotes doubled.
// A field a spreadsheet would run as a formula (=, +, -, @ first) is left as it is: amounts such
// as -100.00 must stay numbers, and the gateway's data is what finance asked for.

// Which commands take it: CSV_COMMANDS in program.ts (any other refuses -o csv before sending).

export interface CsvColumn<T> {
  header: string;
  value: (item: T) => unknown;
}

function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole document: a header row, then one row per item, every line ending CRLF. */
export function toCsv<T>(columns: readonly CsvColumn<T>[], items: readonly T[]): string {
  const lines = [columns.map((c) => field(c.header)).join(',')];
  for (const item of items) lines.push(columns.map((c) => field(c.value(item))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Columns straight from keys: `a.b` reads a nested field. */
export function keyColumns<T>(keys: readonly string[]): CsvColumn<T>[] {
  return keys.map((key) => ({
    header: key,
    value: (item: T) => key.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), item),
  }));
}
