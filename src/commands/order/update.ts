// pgw order update <order_id>: PATCH /pg/orders/{order_id}/ (spec 4.2) with only the fields given,
// validated first (PAN, dates). The response's data repeats the envelope: the innermost data is
// what is printed.
import type { Context } from '../../context.js';
import { orderUpdateSchema, validate, type Problem } from '../../api/schemas/index.js';
import { UsageError, ValidationError } from '../../errors.js';
import { confirmProduction } from '../../rails.js';
import { printDryRun } from '../../output/dry-run.js';
import { emit, renderDetail } from '../../output/render.js';
import { idArgument } from '../parse.js';
import { getPath, setPath } from './body.js';
import { readJsonObject, type JsonObject } from './read-json.js';

export interface OrderUpdateOptions {
  orderId: string;
  file?: string;
  /** Body path → flag value. */
  fields: Record<string, string>;
  dryRun: boolean;
}

const FLAG_PATHS: Record<string, string> = {
  pan: 'buyer.pan_number',
  dob: 'buyer.dob',
  invoiceNumber: 'invoice.number',
  invoiceDate: 'invoice.date',
};
const UPDATABLE: Record<string, string[]> = { buyer: ['pan_number', 'dob'], invoice: ['number', 'date'] };
const UPDATABLE_LIST = 'buyer.pan_number, buyer.dob, invoice.number, invoice.date';

export function buildOrderUpdateOptions(orderId: string, flags: Record<string, unknown>): OrderUpdateOptions {
  const fields: Record<string, string> = {};
  for (const [key, path] of Object.entries(FLAG_PATHS)) {
    const value = flags[key];
    if (typeof value === 'string') fields[path] = key === 'pan' ? value.trim().toUpperCase() : value.trim();
  }
  return { orderId, file: typeof flags.file === 'string' ? flags.file : undefined, fields, dryRun: flags.dryRun === true };
}

/** Fields spec 4.2 does not update: refused by name rather than sent or dropped. */
function unknownFields(body: JsonObject): Problem[] {
  const problems: Problem[] = [];
  const refuse = (path: string) => problems.push({ path, message: `cannot be changed by order update (it takes ${UPDATABLE_LIST})` });
  for (const [key, value] of Object.entries(body)) {
    const allowed = UPDATABLE[key];
    if (!allowed) refuse(key);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const inner of Object.keys(value)) if (!allowed.includes(inner)) refuse(`${key}.${inner}`);
    }
  }
  return problems;
}

export function buildUpdateBody(file: JsonObject | undefined, fields: Record<string, string>): JsonObject {
  const body = structuredClone(file ?? {});
  for (const [path, value] of Object.entries(fields)) setPath(body, path, value);
  const given = Object.values(FLAG_PATHS).filter((p) => getPath(body, p) !== undefined);
  const unknown = unknownFields(body);
  if (given.length === 0 && unknown.length === 0) {
    throw new UsageError('nothing to update: give --pan, --dob, --invoice-number or --invoice-date, or --file with the fields to change');
  }
  const result = validate(orderUpdateSchema, body);
  const problems = [...unknown, ...(result.ok ? [] : result.problems.filter((p) => p.path !== '' || unknown.length === 0))];
  if (problems.length > 0) throw new ValidationError(problems, 'invalid update');
  return body;
}

/** spec 4.2: the envelope's data is itself an envelope; unwrap every level of it. */
export function innermostData(data: unknown): unknown {
  let inner = data;
  while (inner !== null && typeof inner === 'object' && typeof (inner as { success?: unknown }).success === 'boolean' && 'data' in inner) {
    inner = (inner as { data: unknown }).data;
  }
  return inner;
}

interface UpdatedOrder {
  order_id?: string;
  buyer?: { pan_number?: string | null; dob?: string | null };
  invoice?: { number?: string | null; date?: string | null };
}

export async function runOrderUpdate(ctx: Context, opts: OrderUpdateOptions): Promise<void> {
  const output = ctx.output;
  const orderId = idArgument('order_id', opts.orderId);
  const file = opts.file === undefined ? undefined : await readJsonObject('--file', opts.file, ctx.io.stdin);
  const body = buildUpdateBody(file, opts.fields);
  const profile = await ctx.profile();
  const api = await ctx.api();
  const req = { method: 'PATCH' as const, path: `/pg/orders/${orderId}/`, body };
  if (opts.dryRun) return printDryRun(ctx.io, output, api.preview(req));
  await confirmProduction(ctx, profile, `update order ${orderId}`);
  const updated = innermostData(await api.request(req)) as UpdatedOrder;
  await emit(ctx.io, output, updated, () => {
    ctx.io.out(
      renderDetail([
        {
          rows: [
            ['order_id', updated?.order_id ?? orderId],
            ['pan_number', updated?.buyer?.pan_number ?? '-'],
            ['dob', updated?.buyer?.dob ?? '-'],
            ['invoice', updated?.invoice?.number ?? '-'],
            ['invoice date', updated?.invoice?.date ?? '-'],
          ],
        },
      ]),
    );
  });
}
