// --from / --to day flags of the list commands: checked before anything is sent (exit 2).
import { isRealDate } from '../api/schemas/dates.js';
import { UsageError } from '../errors.js';

export function dayOption(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isRealDate(value.trim())) {
    // One form everywhere in pgw's flags (issue 42); a DD/MM/YYYY one is converted by pgw where the gateway wants it.
    const hint = /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(value.trim()) ? ": pgw takes dates as YYYY-MM-DD everywhere (it converts them where a gateway field wants DD/MM/YYYY)" : '';
    throw new UsageError(`${flag}: "${value}" is not a date in the form YYYY-MM-DD${hint}`);
  }
  return value.trim();
}

/** YYYY-MM-DD → DD/MM/YYYY, the form of vendor 11.7.6's payment_date. */
export function gatewayDay(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

/** Both days, checked, and --to not before --from. */
export function dayRange(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  const f = dayOption('--from', from);
  const t = dayOption('--to', to);
  if (f && t && f > t) throw new UsageError(`--to ${t} is before --from ${f}`);
  return { from: f, to: t };
}
