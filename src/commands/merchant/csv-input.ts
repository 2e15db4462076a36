// `merchant create --file merchants.csv` (issue 33 item 2): a spreadsheet's export. The header row
// names each column by its dotted field path, as `merchant create --print-template --csv` prints
// them (csv-template.ts); each following row is one merchant. RFC 4180: fields separated by
// commas, a field in double quotes may hold commas, line breaks and doubled quotes. An empty cell
// is a field left out; a cell is typed as its field needs (fields.ts parseFieldText: booleans take
// true/false/yes/no, hs_codes a comma list or a JSON array; everything else stays text, numbers
// included, as spec 2.10's numeric strings are strings). A row is named by the line it starts on.
import { UsageError } from '../../errors.js';
import { CONTACT_KEYS, FIELDS, fieldAt, isContactPath, parseFieldText, suggestField } from './fields.js';
import type { Entry } from './input.js';

interface CsvRow {
  /** 1-based line of the file the row starts on. */
  line: number;
  cells: string[];
}

/** RFC 4180 records, CRLF or LF; a quote inside an unquoted field is kept as it is. */
export function parseCsvRows(text: string, name: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a spreadsheet's UTF-8 byte order mark
  let atFieldStart = true;
  const endRow = () => {
    cells.push(cell);
    // A blank line is no row.
    if (!(cells.length === 1 && cells[0]!.trim() === '')) rows.push({ line: start, cells });
    cells = [];
    cell = '';
    atFieldStart = true;
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
      atFieldStart = true;
    } else if (c === '\r' && text[i + 1] === '\n') {
      // the \n ends the row
    } else if (c === '\n') {
      endRow();
      line++;
      start = line;
    } else {
      cell += c;
      atFieldStart = false;
    }
  }
  if (quoted) throw new UsageError(`--file: ${name}: the quoted field opened on line ${start} is never closed`);
  if (cell !== '' || cells.length > 0) endRow();
  return rows;
}

/** The header: every column a known field, none twice; else one line naming the column (exit 2). */
function headerPaths(row: CsvRow, name: string): string[] {
  const seen = new Set<string>();
  return row.cells.map((raw, i) => {
    const path = raw.trim();
    const column = `column ${i + 1}`;
    if (path === '') throw new UsageError(`--file: ${name}: ${column} of the header has no field name`);
    if (!fieldAt(path) && !isContactPath(path)) {
      const [object = '', key = ''] = path.includes('.') ? path.split('.', 2) : ['', path];
      const near = suggestField(object, key);
      const bare = FIELDS.find((f) => f.key === path)?.path ?? (CONTACT_KEYS.includes(path) ? `company_details.${path}` : undefined);
      const hint = near ? `${object}.${near}` : bare;
      throw new UsageError(`--file: ${name}: ${column} "${path}" is not a sub-merchant field${hint ? ` (did you mean ${hint}?)` : ''}`, {
        suggestion: 'the header names fields as pgw merchant create --print-template --csv prints them',
      });
    }
    if (seen.has(path)) throw new UsageError(`--file: ${name}: ${column} "${path}" appears twice in the header`);
    seen.add(path);
    return path;
  });
}

/** A cell as its field's value: booleans and lists parsed; a value that does not parse is left for the schema to name. */
function cellValue(path: string, cell: string): unknown {
  // pgw's own -o csv puts a ' before text a spreadsheet would run as a formula (output/csv.ts): read back without it.
  const raw = /^'[=+\-@]/.test(cell) ? cell.slice(1) : cell;
  const field = fieldAt(path);
  if (!field || field.kind === 'text') return raw;
  const parsed = parseFieldText(field, raw);
  return 'value' in parsed ? parsed.value : raw;
}

/** The merchants of a CSV file, each with the line its row starts on. */
export function parseCsvMerchants(name: string, text: string): Entry[] {
  const rows = parseCsvRows(text, name);
  if (rows.length === 0) throw new UsageError(`--file: ${name} is empty`);
  const paths = headerPaths(rows[0]!, name);
  if (rows.length === 1) throw new UsageError(`--file: ${name} has a header and no merchants`);
  return rows.slice(1).map((row): Entry => {
    if (row.cells.length > paths.length) {
      return { n: row.line, parseError: `has ${row.cells.length} cells, the header ${paths.length}` };
    }
    const value: Record<string, Record<string, unknown>> = {};
    row.cells.forEach((raw, i) => {
      if (raw === '') return; // an empty cell is a field left out
      const path = paths[i]!;
      const [object, key] = path.split('.', 2) as [string, string];
      (value[object] ??= {})[key] = cellValue(path, raw);
    });
    return { n: row.line, value };
  });
}

/** A file named .csv, or one whose first line is a header of dotted field names. */
export function looksLikeCsv(name: string, text: string): boolean {
  if (/\.csv$/i.test(name)) return true;
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]!.trim();
  return /^"?(company_details|settlement_details)\.[a-z_]+"?\s*(,|$)/.test(first);
}
