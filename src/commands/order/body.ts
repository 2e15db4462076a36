// The create-order body: the --file object, then the flags on top (flags win), written in the
// spelling of the API version in force (spec 2.1: 1.x/2.x write mop_type in uppercase), with the
// amount normalised to two decimals. Validation is the shared schema's job, not this file's.
import { formatAmount, isAmountString } from '../../money.js';
import type { JsonObject } from './read-json.js';

export type ApiMajor = 1 | 2 | 3;

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function getPath(body: JsonObject, path: string): unknown {
  let node: unknown = body;
  for (const key of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Set a dotted path, creating (or replacing non-object) parents: a flag wins over whatever was there. */
export function setPath(body: JsonObject, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = body;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as JsonObject;
  }
  node[keys[keys.length - 1]!] = value;
}

/**
 * "1500" → "1500.00" (spec 2.1 decimal strings). A JSON number with at most 2 decimals is taken
 * too: it becomes the string it reads as. Anything else is left for validation to name.
 */
export function normaliseAmount(value: unknown): unknown {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    const text = String(value);
    return isAmountString(text) ? formatAmount(text) : value;
  }
  if (typeof value === 'string' && isAmountString(value.trim())) return formatAmount(value.trim());
  return value;
}

/** How a flag value is written into the body for this API version. */
export function flagValue(path: string, value: string, major: ApiMajor): string {
  const text = value.trim();
  switch (path) {
    case 'mop_type':
      return major === 3 ? text.toLowerCase() : text.toUpperCase();
    case 'currency':
      return text.toUpperCase();
    case 'product.type_of_goods':
    case 'collection_mode':
    case 'upi_flow_type':
      return text.toLowerCase();
    case 'amount':
      return String(normaliseAmount(text));
    default:
      return text;
  }
}

/** A deep copy of the file body with every flag applied at its path. */
export function buildOrderBody(file: JsonObject | undefined, fields: Record<string, string>, major: ApiMajor): JsonObject {
  const body = structuredClone(file ?? {});
  for (const [path, value] of Object.entries(fields)) setPath(body, path, flagValue(path, value, major));
  if (body.amount !== undefined) body.amount = normaliseAmount(body.amount);
  // A file's mop_type in either case is sent in the case this version expects (contract, "API versions").
  if (typeof body.mop_type === 'string') body.mop_type = flagValue('mop_type', body.mop_type, major);
  return body;
}
