// Status colours, one table for every command. Colour only when io says the stream is a terminal.
//
// chalk is loaded only when some stream will be coloured (program.ts calls loadColor() before an
// action runs): most runs print JSON to a pipe and pay nothing for it.
import type { ChalkInstance } from 'chalk';

export interface Theme {
  chalk: ChalkInstance;
  status(value: string | null | undefined): string;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
}

const GOOD = new Set(['captured', 'paid', 'payment_successful', 'approved', 'settled', 'success', 'active', 'completed', 'refunded']);
const BAD = new Set(['failed', 'invalid', 'declined', 'rejected', 'expired', 'cancelled', 'reversed', 'bank_rejected_refund', 'payment_failed']);
const WAIT = new Set(['pending', 'created', 'authorized', 'processing', 'not_applicable', 'not settled', 'initiated', 'on_hold', 'payment_pending', 'in_review', 'changes_requested']);

let colored: ChalkInstance | undefined;

/** Load chalk at level 1 (basic ANSI): pgw decides colour itself (io.ts), so no detection. */
export async function loadColor(): Promise<void> {
  if (colored) return;
  const { Chalk } = await import('chalk');
  colored = new Chalk({ level: 1 });
}

/** Chainable like chalk (`plain.bold.red(text)`), and returns the text unchanged. */
const plain: ChalkInstance = new Proxy(((text: unknown) => String(text)) as unknown as ChalkInstance, {
  get: (_target, prop) => (prop === 'level' ? 0 : plain),
});

/** Without loadColor() first, colour falls back to none: never a failure over colour. */
export function createTheme(color: boolean): Theme {
  const chalk = color && colored ? colored : plain;
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
