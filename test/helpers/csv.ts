// An RFC 4180 reader for tests of `-o csv`: quoted fields, doubled quotes, CRLF line ends.
import { expect } from 'vitest';

/** RFC 4180 as a spreadsheet reads it (quoted fields with doubled quotes, CRLF rows). */
export function parseCsv(doc: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < doc.length; i++) {
    const c = doc[i]!;
    if (quoted) {
      if (c === '"' && doc[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && doc[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      (row = []), (field = ''), i++;
    } else field += c;
  }
  expect(field, 'the document ends with CRLF').toBe('');
  return rows;
}
