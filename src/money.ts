// Money is a Decimal from the moment it enters: never a JS float. Rounded on purpose, half-up,
// to 2 decimals (sandbox.md: rounding decisions; spec 2.1 amounts are decimal strings).
import { Decimal } from 'decimal.js';

/** A Decimal constructor whose rounding is half-up, independent of the global one. */
export const Money = Decimal.clone({ rounding: Decimal.ROUND_HALF_UP, precision: 40 });
export type MoneyValue = InstanceType<typeof Money>;

/** spec 2.1: digits, optionally a point and one or two decimals. */
export const AMOUNT_PATTERN = /^[0-9]+(\.[0-9]{1,2})?$/;

export function isAmountString(value: string): boolean {
  return AMOUNT_PATTERN.test(value);
}

/** Parse a user or gateway amount ("1500", "1500.5", "1500.50", or a JSON number) exactly. */
export function parseAmount(value: string | number): MoneyValue {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(text)) throw new RangeError(`not an amount: "${text}"`);
  return new Money(text);
}

/** Round half-up to 2 decimals. */
export function round2(value: MoneyValue): MoneyValue {
  return value.toDecimalPlaces(2, Money.ROUND_HALF_UP);
}

/** "1500" → "1500.00": the 2-decimal string the gateway expects and prints. */
export function formatAmount(value: MoneyValue | string | number): string {
  return round2(toMoney(value)).toFixed(2);
}

/** The JSON number form (Get Settlement, spec 2.9) of an exact 2-decimal amount. */
export function amountAsJsonValue(value: MoneyValue | string): number {
  return round2(toMoney(value)).toNumber();
}

function toMoney(value: MoneyValue | string | number): MoneyValue {
  return Money.isDecimal(value) ? new Money(value) : parseAmount(value);
}

/** Link payment entries (spec 2.8): whole rupees without decimals, paise when present. */
export function formatLinkAmount(value: MoneyValue | string): string {
  const d = round2(toMoney(value));
  return d.isInteger() ? d.toFixed(0) : d.toFixed(2);
}

/**
 * A gateway's amount as every table, detail view and CSV file shows it (contract, "Output rules":
 * money in one form everywhere, 2 decimals, the currency in its own column): `2499` and `2499.5`
 * become `2499.00` and `2499.50`. JSON never comes through here (it keeps the gateway's values).
 * A value that is not a plain amount is shown as it came rather than hidden; absent is undefined.
 */
export function displayAmount(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'number' && typeof value !== 'string') return String(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    return formatAmount(value);
  } catch {
    return String(value); // exponent notation or text: not an amount the gateway sends, shown as is
  }
}

/** A detail view's one-line money ("2499.00 INR"); a table gives the currency its own column instead. */
export function displayMoney(value: unknown, currency: unknown): string | undefined {
  const amount = displayAmount(value);
  if (amount === undefined) return undefined;
  return typeof currency === 'string' && currency !== '' ? `${amount} ${currency}` : amount;
}
