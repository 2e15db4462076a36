import type * as z from 'zod';
import { validate, type Checked } from '../../api/schemas/common.js';
import { validationError, type ValidationCode } from '../errors.js';

/** Validate a body with a shared schema; 400 with details keyed by field path, in the family's code, when it fails. */
export function parseBody<T>(schema: Checked<T>, body: unknown, family?: ValidationCode): T;
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, family?: ValidationCode): z.output<S>;
export function parseBody(schema: z.ZodType | Checked<unknown>, body: unknown, family?: ValidationCode): unknown {
  const r = validate(schema, body);
  if (!r.ok) throw validationError(r.problems, family);
  return r.data;
}
