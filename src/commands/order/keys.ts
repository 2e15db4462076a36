// Keys of an order (or payment link) --file that the operation does not have (issue 21 item 11). The shared schema
// strips what it does not know, as the sandbox must (tolerant where the spec is silent); a person's
// file with "amont", or a merchant body given to the wrong command, is refused instead, each key
// named with the nearest one create order knows.
import type * as z from 'zod';
import { CARD_DETAILS_KEYS, type Problem } from '../../api/schemas/index.js';
import { nearest } from '../nearest.js';
import type { JsonObject } from './read-json.js';

type Shape = Record<string, z.ZodType>;

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Shape;
}

const defOf = (s: z.ZodType): ZodDef => (s as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The object shape under optional, nullable, default and preprocess wrappers; undefined when it is not an object. */
function shapeOf(schema: z.ZodType): Shape | undefined {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i < 10; i++) {
    const def = defOf(s);
    if (def.type === 'object') return def.shape;
    s = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  }
  return undefined;
}

/** Keys of a merchant body (spec 2.10): a whole one given to order create is named as such. */
const MERCHANT_KEYS = new Set(['company_details', 'settlement_details']);

/** `what`: the operation named in the message (`create order`, `create payment link`). */
export function unknownKeyProblems(file: JsonObject, schema: z.ZodType, what = 'create order'): Problem[] {
  const problems: Problem[] = [];
  const visit = (value: unknown, known: readonly string[] | undefined, shape: Shape | undefined, path: string): void => {
    if (known === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const at = path ? `${path}.${key}` : key;
      if (!known.includes(key)) {
        const near = nearest(key, known);
        const merchant = path === '' && MERCHANT_KEYS.has(key) ? ': a sub-merchant body goes to pgw merchant create --file' : '';
        problems.push({ path: at, message: `unknown key, not part of ${what}${merchant}${near ? ` (nearest known: ${path ? `${path}.` : ''}${near.word})` : ''}` });
        continue;
      }
      if (path === '' && key === 'card_details' && what === 'create order') {
        visit(child, CARD_DETAILS_KEYS, undefined, at);
        continue;
      }
      const sub = shape?.[key] ? shapeOf(shape[key]!) : undefined;
      if (sub) visit(child, Object.keys(sub), sub, at);
    }
  };
  const top = shapeOf(schema);
  if (top) visit(file, Object.keys(top), top, '');
  return problems;
}
