// Input fields several tools share. Values are taken as the command line takes them: IDs as people
// paste them (one string with commas or spaces, or a list), amounts as a string or a number.
import * as z from 'zod';
import { msg, realDate } from '../api/schemas/index.js';
import { formatAmount } from '../money.js';

/** One ID or several: `"PR1, PR2"`, `["PR1","PR2"]`; lookup.ts splits and checks them as for argv. */
export function ids(what: string) {
  return z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)], { error: msg('must be an ID, or a list of IDs') })
    .describe(`${what}: one ID, or several (a list, or one string with commas or spaces between them)`)
    .transform((v) => (Array.isArray(v) ? v : [v]));
}

/** An ID the command reads as one positional argument. */
export function id(what: string) {
  return z.string().min(1).describe(what);
}

/**
 * An amount under the shared schema's rule (`base`, e.g. orderAmount: 2 decimals, positive, the
 * limit), given as "1500.00", "1500" or 1500, and read as its 2-decimal text: amounts equal as
 * money are one argument (a two-step token binds "1500.00" and 1500 alike, issue 43 item 3).
 */
export function amount(base: z.ZodType<string, string>, what: string) {
  return z
    .union([base, z.number().transform((n) => String(n)).pipe(base)], { error: msg('must be an amount in rupees, "1500.00" or 1500') })
    .transform((v) => formatAmount(v.trim()))
    .describe(what);
}

export const page = {
  page: z.number().int().positive().optional().describe('page to read (default 1)'),
  page_size: z.number().int().positive().max(1000).optional().describe("items per page (default: the gateway's)"),
  all: z.boolean().optional().describe('follow every page'),
};

/** PageOptions of the list runners, as the flags give them (strings). */
export function pageOptions(input: { page?: number; page_size?: number; all?: boolean }): { page?: string; pageSize?: string; all?: boolean } {
  return {
    page: input.page === undefined ? undefined : String(input.page),
    pageSize: input.page_size === undefined ? undefined : String(input.page_size),
    all: input.all,
  };
}

/** A day as the list filters take it: the shared rule (a real date, YYYY-MM-DD). */
export const day = (what: string) => realDate.describe(`${what} (YYYY-MM-DD)`);

/** A body given as an object: flattened to the dotted paths the field flags set (order/flags.ts). */
export function fieldsOf(value: Record<string, unknown>, prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof v === 'object' && !Array.isArray(v)) Object.assign(fields, fieldsOf(v as Record<string, unknown>, path));
    else fields[path] = String(v);
  }
  return fields;
}
