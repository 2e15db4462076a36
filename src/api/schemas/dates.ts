// Dates without zod: the sandbox's GET handlers read them (settlements list filters).

/** `YYYY-MM-DD` naming a day that exists (2026-02-30 is refused). */
export function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** ISO 8601 date-time with a zone (`Z` or an offset); the client sends UTC with milliseconds. */
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * Epoch milliseconds of an ISO time, or undefined. Only times that exist: Date.parse rolls
 * 2027-02-30 over into March and takes hour 24, so the day must be a real one (dates.ts) and
 * the hour, minute, second and offset in range (issue 21 item 10).
 */
export function parseIsoTime(value: string): number | undefined {
  const m = ISO_TIME.exec(value);
  if (!m || !isRealDate(m[1]!)) return undefined;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
