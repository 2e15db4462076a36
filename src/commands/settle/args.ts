// Flag values of `settle calc` and `settle mark`: amounts and `RF123=100.00` debits. Every bad value
// is collected so one run names them all (exit 2, nothing sent). No zod, undici or conf here:
// `settle calc` must stay offline and light.
import { ValidationError } from '../../errors.js';
import { Money, formatAmount, isAmountString } from '../../money.js';
import { idArgument } from '../parse.js';

export type Problem = { path: string; message: string };

/** spec 2.1 / part 8: an order amount is > 0 and <= 10,000,000.00, at most 2 decimals. */
export const MAX_PAYMENT_AMOUNT = '10000000.00';

/** Why `value` is not a usable amount, or undefined when it is. */
export function amountProblem(value: string, max?: string): string | undefined {
  const text = value.trim();
  if (!isAmountString(text)) return `"${value}" is not an amount (a positive number with at most 2 decimals, e.g. 100.00)`;
  const amount = new Money(text);
  if (amount.lte(0)) return `"${value}" must be greater than 0`;
  if (max !== undefined && amount.gt(max)) return `"${value}" is more than ${max}, the largest order amount`;
  return undefined;
}

/** The position of a repeated flag's value, so two bad values of one flag stay two problems. */
function at(flag: string, index: number, count: number): string {
  return count > 1 ? `${flag} #${index + 1}` : flag;
}

/** Repeatable amount flags (`settle calc --payment 1000 --payment 250.5`), normalised to "1000.00". */
export function parseAmounts(flag: string, values: string[], problems: Problem[], max?: string): string[] {
  const amounts: string[] = [];
  values.forEach((value, i) => {
    const problem = amountProblem(value, max);
    if (problem) problems.push({ path: at(flag, i, values.length), message: problem });
    else amounts.push(formatAmount(value.trim()));
  });
  return amounts;
}

export interface Debit {
  id: string;
  /** Only from `ID=amount`; the dry run needs it (the gateway has no refund or chargeback look-up). */
  amount?: string;
}

/**
 * `--refund RF123` or `--refund RF123=100.00`. The amount is optional for the real mark-settled (the
 * gateway uses its own record, so the same command line works with and without --dry-run) and
 * required for the dry run.
 */
export function parseDebits(flag: string, values: string[], needAmount: boolean, problems: Problem[]): Debit[] {
  const debits: Debit[] = [];
  values.forEach((value, i) => {
    const path = at(flag, i, values.length);
    const eq = value.indexOf('=');
    const rawId = eq === -1 ? value : value.slice(0, eq);
    let id: string;
    try {
      id = idArgument(flag, rawId);
    } catch {
      problems.push({ path, message: `"${rawId}" is not a valid identifier` });
      return;
    }
    if (eq === -1) {
      if (needAmount) {
        problems.push({ path, message: `${id} needs its amount for a dry run: ${flag} ${id}=<amount> (the gateway has no look-up for it)` });
      } else debits.push({ id });
      return;
    }
    const problem = amountProblem(value.slice(eq + 1));
    if (problem) problems.push({ path, message: `${id}: ${problem}` });
    else debits.push({ id, amount: formatAmount(value.slice(eq + 1).trim()) });
  });
  return debits;
}

export function throwProblems(problems: Problem[], heading: string): void {
  if (problems.length > 0) throw new ValidationError(problems, heading);
}
