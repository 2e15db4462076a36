// Fitting a table to the terminal's width, after GitHub CLI's tableprinter: a row never wraps.
// Columns keep their natural width when they fit; otherwise the least important columns are
// truncated (cli-table3 draws the `…`), and when even that is not enough they are dropped.
//
// Importance, unless the caller gives hints: the first column (the row's ID) matters most, then
// IDs, money and status (never truncated: a cut ID or amount is worse than none), then the rest
// from left to right.

export type Align = 'left' | 'right';

export interface ColumnHint {
  /** Higher is kept longer; default from the column's kind and position. */
  priority?: number;
  /** Right-aligned, never truncated (a cut amount misleads). Detected from the cells when absent. */
  money?: boolean;
  align?: Align;
  /** Never truncated (IDs); still dropped when nothing else fits. */
  keep?: boolean;
  /**
   * How a cell too long for its column is shortened (issue 22 item 4): `end` (the default, "abc…"),
   * `middle` for references, whose both ends identify them (`demo-m…r3v-1`), `start` for a masked
   * account, whose last digits are the point (`…1234`), or `wrap`: never cut, folded inside its
   * cell on several lines (an error message). Detected from the header when absent.
   */
  cut?: Cut;
}

export type Cut = 'end' | 'middle' | 'start' | 'wrap';

export interface FitPlan {
  /** Indexes of the columns shown, in their order. */
  shown: number[];
  /** Content width of each shown column (without cli-table3's padding). */
  widths: number[];
  aligns: Align[];
  /** How each shown column is shortened when its width is below its natural width. */
  cuts: Cut[];
}

/** Columns whose name says how they are best shortened. */
const REFERENCE_HEAD = /(^|_)reference(_id)?$|^ref$/i;
const ACCOUNT_HEAD = /(^|_)account(_number)?$/i;
const ERROR_HEAD = /error/i;
/** A wrapped column keeps at least this many characters a line. */
const MIN_WRAPPED = 16;

function cutOf(head: string, hint: ColumnHint): Cut {
  if (hint.cut) return hint.cut;
  if (ERROR_HEAD.test(head)) return 'wrap';
  if (REFERENCE_HEAD.test(head)) return 'middle';
  if (ACCOUNT_HEAD.test(head)) return 'start';
  return 'end';
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

const MONEY_CELL = /^-?\d[\d,]*\.\d{1,4}( [A-Z]{3})?$/;
const MONEY_HEAD = /(^|[ _])(amount|fee|gst|tax|net|total)([ _(]|$)/i;
const ID_CELL = /^(OD|PR|ST|RF|CB|SU|LN|PL)[A-Za-z0-9]{4,}$|^[0-9a-f]{8}-[0-9a-f]{4}-/;
const ID_HEAD = /(^|_)id$|^id$|^uid$/i;
const STATUS_HEAD = /status$/i;
/** A cut time reads as a different time: times are dropped whole, never truncated. */
const TIME_CELL = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/;
/** A truncated column keeps at least this many characters (with the `…`). */
const MIN_TRUNCATED = 6;
/** cli-table3: one space of padding on each side, and a border between and around columns. */
const PADDING = 2;

function isMoneyColumn(head: string, cells: string[]): boolean {
  const filled = cells.filter((c) => c !== '' && c !== '-');
  if (filled.length > 0 && filled.every((c) => MONEY_CELL.test(c))) return true;
  return MONEY_HEAD.test(head) && filled.every((c) => /^-?[\d,.]+( [A-Z]{3})?$/.test(c));
}

function isIdColumn(head: string, cells: string[]): boolean {
  const filled = cells.filter((c) => c !== '' && c !== '-' && c !== 'total');
  return ID_HEAD.test(head) || (filled.length > 0 && filled.every((c) => ID_CELL.test(c)));
}

/** Total drawn width of columns of these content widths. */
export function drawnWidth(widths: number[]): number {
  return widths.reduce((sum, w) => sum + w + PADDING + 1, 1);
}

export function planFit(head: string[], rows: string[][], maxWidth: number | undefined, hints: (ColumnHint | undefined)[] = []): FitPlan {
  const plain = rows.map((r) => r.map((c) => c.replace(ANSI, '')));
  const columns = head.map((h, i) => {
    const cells = plain.map((r) => r[i] ?? '');
    const hint = hints[i] ?? {};
    const money = hint.money ?? isMoneyColumn(h.replace(ANSI, ''), cells);
    const id = isIdColumn(h.replace(ANSI, ''), cells);
    const status = STATUS_HEAD.test(h);
    const natural = Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? '')), 1);
    const filled = cells.filter((c) => c !== '' && c !== '-');
    const time = filled.length > 0 && filled.every((c) => TIME_CELL.test(c));
    const cut = cutOf(h.replace(ANSI, ''), hint);
    // A masked account (`••••1234`) is short and only its end means anything: kept whole too.
    const keep = hint.keep ?? (money || id || status || time || i === 0 || cut === 'start');
    // First column, then the columns that must stay whole, then the rest from left to right.
    // A time column is the first to go: the row is still identified without it.
    // A wrapped column loses nothing by narrowing, so it narrows first, but goes late (its text
    // is why the row is there: a failure's reason).
    const priority = hint.priority ?? (i === 0 ? 1000 : cut === 'wrap' ? 900 - i : time ? 50 - i : keep ? 500 - i : 100 - i);
    const align: Align = hint.align ?? (money ? 'right' : 'left');
    return { index: i, natural, keep: keep && cut !== 'wrap', priority, align, cut };
  });
  let shown = columns;
  if (maxWidth !== undefined) {
    for (;;) {
      const widths = fitWidths(shown, maxWidth);
      if (widths || shown.length <= 1) {
        const final = widths ?? shown.map((c) => c.natural);
        return { shown: shown.map((c) => c.index), widths: final, aligns: shown.map((c) => c.align), cuts: shown.map((c) => c.cut) };
      }
      // Drop the least important column and try again.
      const least = shown.reduce((a, b) => (b.priority < a.priority ? b : a));
      shown = shown.filter((c) => c !== least);
    }
  }
  return { shown: shown.map((c) => c.index), widths: shown.map((c) => c.natural), aligns: shown.map((c) => c.align), cuts: shown.map((c) => c.cut) };
}

/** Widths that fit by truncating the least important truncatable columns first; undefined if none do. */
function fitWidths(columns: { natural: number; keep: boolean; priority: number; cut: Cut }[], maxWidth: number): number[] | undefined {
  const widths = columns.map((c) => c.natural);
  let over = drawnWidth(widths) - maxWidth;
  if (over <= 0) return widths;
  const rank = (c: { cut: Cut; priority: number }) => (c.cut === 'wrap' ? -1 : c.priority);
  const order = columns.map((c, i) => ({ ...c, i })).filter((c) => !c.keep).sort((a, b) => rank(a) - rank(b));
  for (const c of order) {
    const room = widths[c.i]! - Math.min(c.cut === 'wrap' ? MIN_WRAPPED : MIN_TRUNCATED, c.natural);
    const cut = Math.min(room, over);
    widths[c.i]! -= cut;
    over -= cut;
    if (over <= 0) return widths;
  }
  return undefined;
}

/** A cell shortened to `width` visible characters as its column's cut says; `wrap` gives lines. */
export function shorten(text: string, width: number, cut: Cut): string {
  const chars = [...text];
  // A coloured cell is left to cli-table3, which knows its escape codes.
  if (chars.length <= width || text.includes('\u001b')) return text;
  switch (cut) {
    case 'middle': {
      const head = Math.ceil((width - 1) / 2);
      return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (width - 1 - head)).join('')}`;
    }
    case 'start':
      return `…${chars.slice(chars.length - (width - 1)).join('')}`;
    case 'wrap':
      return wrapLines(text, width).join('\n');
    default:
      return text; // cli-table3 cuts the end
  }
}

/** Words folded into lines of at most `width`; a word longer than a line is split. */
function wrapLines(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while ([...word].length > width) {
      if (line) lines.push(line);
      line = '';
      lines.push([...word].slice(0, width).join(''));
      word = [...word].slice(width).join('');
    }
    if (!line) line = word;
    else if ([...line].length + 1 + [...word].length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
