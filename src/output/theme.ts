// Status colours, one table for every command. Colour only when io says the stream is a terminal.
//
// The five styles pgw uses, written as chalk 5 writes them at level 1 (basic ANSI colours), nested
// and multi-line text included. Not chalk itself: importing chalk costs ~6 ms on every verb (it
// loads node:tty, node:os and node:process to detect a colour level pgw always sets explicitly),
// and most runs print JSON to a pipe, with no colour at all.

const STYLES = {
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  red: ['\u001b[31m', '\u001b[39m'],
  green: ['\u001b[32m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
} as const;

type StyleName = keyof typeof STYLES;

/** A style to apply, chainable like chalk's: `paint.bold.red('PRODUCTION')`. */
export type Paint = ((text: string) => string) & { readonly [K in StyleName]: Paint };

export interface Theme {
  /** The chainable styles (the subset of chalk's API pgw uses). */
  chalk: Paint;
  status(value: string | null | undefined): string;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
}

const GOOD = new Set(['captured', 'paid', 'payment_successful', 'approved', 'settled', 'success', 'active']);
const BAD = new Set(['failed', 'invalid', 'declined', 'rejected', 'expired', 'cancelled']);
const WAIT = new Set(['pending', 'created', 'authorized', 'processing', 'not_applicable', 'not settled']);

/**
 * chalk's applyStyle: a close code inside the text re-opens the style after it (so nested colour
 * does not end the outer one), and the styles are closed before each line break and re-opened after.
 */
function applyStyles(text: string, stack: readonly (readonly [string, string])[]): string {
  if (stack.length === 0 || text === '') return text;
  let out = text;
  if (out.includes('\u001b')) {
    for (let i = stack.length - 1; i >= 0; i--) {
      const [open, close] = stack[i]!;
      out = out.split(close).join(close + open);
    }
  }
  const openAll = stack.map(([open]) => open).join('');
  const closeAll = stack
    .map(([, close]) => close)
    .reverse()
    .join('');
  if (out.includes('\n')) out = out.replace(/\r?\n/g, (lf) => `${closeAll}${lf}${openAll}`);
  return `${openAll}${out}${closeAll}`;
}

function painter(color: boolean, stack: readonly (readonly [string, string])[]): Paint {
  const paint = ((text: string) => (color ? applyStyles(text, stack) : text)) as Paint;
  for (const name of Object.keys(STYLES) as StyleName[]) {
    Object.defineProperty(paint, name, { get: () => painter(color, [...stack, STYLES[name]]) });
  }
  return paint;
}

export function createTheme(color: boolean): Theme {
  const chalk = painter(color, []);
  return {
    chalk,
    status(value) {
      if (value === null || value === undefined || value === '') return chalk.dim('-');
      const key = value.toLowerCase();
      if (GOOD.has(key)) return chalk.green(value);
      if (BAD.has(key)) return chalk.red(value);
      if (WAIT.has(key)) return chalk.yellow(value);
      return value;
    },
    dim: (t) => chalk.dim(t),
    bold: (t) => chalk.bold(t),
    red: (t) => chalk.red(t),
  };
}
