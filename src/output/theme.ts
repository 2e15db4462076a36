// Status colours, one table for every command. Colour only when io says the stream is a terminal.
import { Chalk, type ChalkInstance } from 'chalk';

export interface Theme {
  chalk: ChalkInstance;
  status(value: string | null | undefined): string;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
}

const GOOD = new Set(['captured', 'paid', 'payment_successful', 'approved', 'settled', 'success', 'active']);
const BAD = new Set(['failed', 'invalid', 'declined', 'rejected', 'expired', 'cancelled']);
const WAIT = new Set(['pending', 'created', 'authorized', 'processing', 'not_applicable', 'not settled']);

export function createTheme(color: boolean): Theme {
  const chalk = new Chalk({ level: color ? 1 : 0 });
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
