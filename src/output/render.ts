// Table and detail view: data to stdout only. JSON skips the human path entirely (emit.ts).
import type TableClass from 'cli-table3';
import { planFit, shorten, type ColumnHint } from './fit.js';
import { ANSI, fold } from './fold.js';
import { getOutputWidth, getTableWidth } from './width.js';
import { noteHiddenColumns } from './hidden-columns.js';

// JSON and the format decision live in emit.ts (no table code); every command may still import them from here.
export { applyQuery, checkQuery, emit, printJson, wantsJson } from './emit.js';

let Table: typeof TableClass | undefined;

/**
 * cli-table3 is required on the first table drawn (it is CommonJS, so this stays synchronous): JSON
 * output, which is every run on a pipe, never pays for it (issue 7). A plain require() of a literal
 * name, which esbuild bundles as a call made here, on first use: the package carries it in dist/
 * and needs no node_modules at run time (issue 23). (createRequire() would be left to Node, and
 * vitest's module runner provides require() when tests run the sources.)
 */
function tableClass(): typeof TableClass {
  Table ??= require('cli-table3') as typeof TableClass;
  return Table;
}


export interface TableOptions {
  /** Per column (by position): priority, money, alignment. */
  columns?: (ColumnHint | undefined)[];
  /** Override the run's width (tests, or a table drawn on stderr); --wide does not apply to it. */
  width?: number;
}

/**
 * A table that never wraps: fitted to the terminal (fit.ts), money right-aligned. Cells may carry
 * colour; null and undefined are drawn as "-". Columns dropped to fit are noted for the run's
 * end (hidden-columns.ts); with --wide nothing is fitted.
 */
export function renderTable(
  head: string[],
  rows: (string | number | null | undefined)[][],
  color: boolean,
  options: TableOptions = {},
): string {
  const Table = tableClass();
  const cells = rows.map((row) => head.map((_, i) => (row[i] === null || row[i] === undefined ? '-' : String(row[i]))));
  const plan = planFit(head, cells, options.width ?? getTableWidth(), options.columns);
  // eslint-disable-next-line no-control-regex
  noteHiddenColumns(plan.hidden.map((i) => head[i]!.replace(ANSI, '')));
  const table = new Table({
    head: plan.shown.map((i) => head[i]!),
    colWidths: plan.widths.map((w) => w + 2),
    colAligns: plan.aligns,
    wordWrap: false,
    truncate: '…',
    style: color ? { head: ['bold'], border: ['grey'], compact: true } : { head: [], border: [], compact: true },
  });
  // Cells too long for their column are shortened as the column says (a reference in the middle,
  // an account from the start, an error wrapped); the rest are cut at the end by cli-table3.
  for (const row of cells) table.push(plan.shown.map((i, k) => shorten(row[i]!, plan.widths[k]!, plan.cuts[k]!)));
  return `${table.toString()}\n`;
}

/**
 * A two-column "label  value" view for one resource; sections separated by blank lines. A long
 * value is folded at spaces under its own column to fit the terminal; one long word (a URL) stays
 * whole so it can still be copied.
 */
export function renderDetail(sections: { title?: string; rows: [string, string | null | undefined][] }[]): string {
  const width = Math.max(0, ...sections.flatMap((s) => s.rows.map(([label]) => label.length)));
  const parts = sections.map((s) => {
    const indent = s.title ? 2 : 0;
    const outputWidth = getOutputWidth();
    const room = outputWidth === undefined ? undefined : outputWidth - indent - width - 2;
    const lines = s.rows.map(([label, value]) => `${label.padEnd(width)}  ${fold(value ?? '-', room, ' '.repeat(width + 2))}`);
    return s.title ? [s.title, ...lines.map((l) => `  ${l.replace(/\n/g, '\n  ')}`)].join('\n') : lines.join('\n');
  });
  return `${parts.join('\n\n')}\n`;
}
