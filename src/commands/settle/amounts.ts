// Settlement amounts as the gateway sends them (JSON numbers in Get Settlement, spec 4.5; numbers
// or strings in the list, beyond 4.1) shown as exact 2-decimal money with their currency.
import { formatAmount, parseAmount, type MoneyValue } from '../../money.js';

/** The gateway's amount as exact money; undefined when absent or not a plain amount. */
export function money(value: number | string | undefined | null): MoneyValue | undefined {
  if (value === undefined || value === null || (typeof value === 'number' && !Number.isFinite(value))) return undefined;
  try {
    return parseAmount(value);
  } catch {
    return undefined; // exponent notation (1e-7) or text: not an amount the gateway sends
  }
}

/** As a 2-decimal string for display; undefined ("-") when absent. */
export function amount(value: number | string | undefined | null): string | undefined {
  const m = money(value);
  return m === undefined ? undefined : formatAmount(m);
}

export function withCurrency(value: string | undefined, currency: string | undefined): string | undefined {
  return value === undefined ? undefined : `${value} ${currency ?? ''}`.trim();
}
