// --from / --to day flags of the list commands: checked before anything is sent (exit 2).
import { isRealDate } from '../api/schemas/dates.js';
import { UsageError } from '../errors.js';

export function dayOption(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isRealDate(value.trim())) throw new UsageError(`${flag}: "${value}" is not a date in the form YYYY-MM-DD`);
  return value.trim();
}

/** Both days, checked, and --to not before --from. */
export function dayRange(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  const f = dayOption('--from', from);
  const t = dayOption('--to', to);
  if (f && t && f > t) throw new UsageError(`--to ${t} is before --from ${f}`);
  return { from: f, to: t };
}
