// The amount flags' parser: apart from parse.ts, so that only the verbs taking an amount load
// decimal.js (money.ts).
import { UsageError } from '../errors.js';
import { formatAmount, isAmountString, parseAmount } from '../money.js';

/** A positive amount of at most 2 decimals, normalised to "1500.00" (spec 2.1); `max` when given. */
export function amountOption(flag: string, value: string, max?: string): string {
  const text = value.trim();
  if (!isAmountString(text) || parseAmount(text).lte(0)) {
    throw new UsageError(`${flag}: "${value}" is not an amount (a positive number with at most 2 decimals, e.g. 100.00)`);
  }
  if (max !== undefined && parseAmount(text).gt(max)) throw new UsageError(`${flag}: must be at most ${max} (spec part 8)`);
  return formatAmount(text);
}
