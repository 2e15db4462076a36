// Fitting a table to the terminal's width, after GitHub CLI's tableprinter: a row never wraps.
// Columns keep their natural width when they fit; otherwise (contract, "Output rules": "Tables
// never wrap: they fit the terminal's width by dropping the least important columns first and
// saying how many are hidden; IDs, references and URLs are never cut"):
// 1. text that may be cut (a name, a brand, a method) gives up at most 40 % of its width, to `…`;
// 2. when that is not enough, the least important column is dropped, then the next, until the
//    rest fit (render.ts says on stderr which were hidden; `--wide` turns fitting off);
// 3. what is left narrows, the least important text first, to the widths of step 1.
// IDs, references, URLs, money, status and times are never cut: a cut one reads as another, or
// cannot be pasted. They are dropped whole when something must go.
//
// Importance, unless the caller gives hints: the first column (the row's ID) matters most, then
// the columns never cut, then the rest from left to right; a time column goes first of all.

import { ANSI, visibleWidth } from './fold.js';

export type Align = 'left' | 'right';

export interface ColumnHint {
  /** Higher is kept longer; default from the column's kind and position. */
  priority?: number;
  /** Right-aligned, never truncated (a cut amount misleads). Detected from the cells when absent. */
  money?: boolean;
  align?: Align;
  /** Never truncated (IDs); still dropped when nothing else fits. References and URLs always are. */
  keep?: boolean;
  /**
   * How a cell too long for its column is shortened (issue 22 item 4): `end` (the default, "abc…"),
   * `middle` (both ends kept: `demo-m…r3v-1`), `start` for a masked account, whose last digits are
   * the point (`…1234`), or `wrap`: never cut, folded inside its cell on several lines (an error
   * message). Detected from the header when absent. A reference or URL column is never shortened
   * whatever its hint says (issue 33 item 14): it is dropped whole instead.
   */
  cut?: Cut;
}

export type Cut = 'end' | 'middle' | 'start' | 'wrap';

export interface FitPlan {
  /** Indexes of the columns shown, in their order. */
  shown: number[];
  /** Indexes of the columns dropped to fit, in their order. */
  hidden: number[];
  /** Content width of each shown column (without cli-table3's padding). */
  widths: number[];
  aligns: Align[];
  /** How each shown column is shortened when its width is below its natural width. */
  cuts: Cut[];
}

/** A reference someone searches by (the merchant's reference_id, a bank's UTR): never cut. */
const REFERENCE_HEAD = /(^|[_ ])(reference(_id)?|ref|utr(_number)?|invoice(_number)?)$/i;
/** A URL: never cut, so it can be opened or pasted. By the header, or by every cell. */
const URL_HEAD = /(^|[_ ])url$/i;
const URL_CELL = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
const ACCOUNT_HEAD = /(^|_)account(_number)?$/i;
const ERROR_HEAD = /error/i;
/** A wrapped column keeps at least this many characters a line. */
const MIN_WRAPPED = 16;

function cutOf(head: string, hint: ColumnHint): Cut {
  if (hint.cut) return hint.cut;
  if (ERROR_HEAD.test(head)) return 'wrap';
  if (ACCOUNT_HEAD.test(head)) return 'start';
  return 'end';
}

export { visibleWidth };

const MONEY_CELL = /^-?\d[\d,]*\.\d{1,4}( [A-Z]{3})?$/;
const MONEY_HEAD = /(^|[ _])(amount|fee|gst|tax|net|total)([ _(]|$)/i;
const ID_CELL = /^(OD|PR|ST|RF|CB|SU|LN|PL)[A-Za-z0-9]{4,}$|^[0-9a-f]{8}-[0-9a-f]{4}-/;
const ID_HEAD = /(^|_)id$|^id$|^uid$/i;
const STATUS_HEAD = /status$/i;
/** A cut time reads as a different time: times are dropped whole, never truncated. */
const TIME_CELL = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/;
/** A truncated column keeps at least this many characters (with the `…`)... */
const MIN_TRUNCATED = 10;
/** ...and at least this share of its natural width: a name cut shorter is no longer read as one. */
const KEPT_SHARE = 0.6;
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

function isWholeColumn(head: string, cells: string[]): boolean {
  if (REFERENCE_HEAD.test(head) || URL_HEAD.test(head)) return true;
  const filled = cells.filter((c) => c !== '' && c !== '-');
  return filled.length > 0 && filled.every((c) => URL_CELL.test(c));
}

/** Total drawn width of columns of these content widths. */
export function drawnWidth(widths: number[]): number {
  return widths.reduce((sum, w) => sum + w + PADDING + 1, 1);
}

interface Column {
  index: number;
  natural: number;
  /** The narrowest it may be drawn: its natural width when it is never cut. */
  floor: number;
  priority: number;
  /** Every cell a time: dropped before any other column, whatever the priorities (see planFit). */
  time: boolean;
  align: Align;
  cut: Cut;
}

export function planFit(head: string[], rows: string[][], maxWidth: number | undefined, hints: (ColumnHint | undefined)[] = []): FitPlan {
  const plain = rows.map((r) => r.map((c) => c.replace(ANSI, '')));
  const columns: Column[] = head.map((h, i) => {
    const name = h.replace(ANSI, '');
    const cells = plain.map((r) => r[i] ?? '');
    const hint = hints[i] ?? {};
    const money = hint.money ?? isMoneyColumn(name, cells);
    const id = isIdColumn(name, cells);
    const whole = isWholeColumn(name, cells);
    const status = STATUS_HEAD.test(name);
    const natural = Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? '')), 1);
    const filled = cells.filter((c) => c !== '' && c !== '-');
    const time = filled.length > 0 && filled.every((c) => TIME_CELL.test(c));
    const cut = whole ? 'end' : cutOf(name, hint);
    // A masked account (`••••1234`) is short and only its end means anything: kept whole too.
    const keep = whole || (hint.keep ?? (money || id || status || time || i === 0 || cut === 'start'));
    // First column, then the columns that must stay whole, then the rest from left to right.
    // A time column is the first to go: the row is still identified without it.
    // A wrapped column loses nothing by narrowing, so it narrows first, but goes late (its text
    // is why the row is there: a failure's reason).
    const priority = hint.priority ?? (i === 0 ? 1000 : cut === 'wrap' ? 900 - i : time ? 50 - i : keep ? 500 - i : 100 - i);
    const align: Align = hint.align ?? (money ? 'right' : 'left');
    const floor =
      cut === 'wrap' ? Math.min(natural, MIN_WRAPPED) : keep ? natural : Math.min(natural, Math.max(MIN_TRUNCATED, Math.ceil(natural * KEPT_SHARE)));
    return { index: i, natural, floor, priority, time, align, cut };
  });
  let shown = columns;
  if (maxWidth !== undefined) {
    // Drop the least important column until the rest fit at their narrowest. A time goes first,
    // even where a command ranked it above a reference: the row is found again without its time,
    // not without its reference (issue 33 item 14: a support desk searches by the reference).
    const below = (a: Column, b: Column) => (a.time !== b.time ? a.time : a.priority < b.priority);
    while (shown.length > 1 && drawnWidth(shown.map((c) => c.floor)) > maxWidth) {
      const least = shown.reduce((a, b) => (below(b, a) ? b : a));
      shown = shown.filter((c) => c !== least);
    }
  }
  const kept = new Set(shown.map((c) => c.index));
  return {
    shown: shown.map((c) => c.index),
    hidden: columns.filter((c) => !kept.has(c.index)).map((c) => c.index),
    widths: maxWidth === undefined ? shown.map((c) => c.natural) : narrowed(shown, maxWidth),
    aligns: shown.map((c) => c.align),
    cuts: shown.map((c) => c.cut),
  };
}

/**
 * Widths that fit: from natural, the least important columns narrowing first, each no further than
 * its floor (a wrapped column narrows before any other, losing nothing). Columns that still do not
 * fit (one column wider than the terminal) keep their floor: never cut below it.
 */
function narrowed(columns: Column[], maxWidth: number): number[] {
  const widths = columns.map((c) => c.natural);
  let over = drawnWidth(widths) - maxWidth;
  const rank = (c: Column) => (c.cut === 'wrap' ? -Infinity : c.priority);
  const order = columns.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c));
  for (const { c, i } of order) {
    if (over <= 0) break;
    const cut = Math.min(widths[i]! - c.floor, over);
    widths[i]! -= cut;
    over -= cut;
  }
  return widths;
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
