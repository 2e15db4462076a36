// The sandbox's Create Order validation, compiled once hot (common.ts `Checked`, issue 23): zod
// compiles the whole schema (no part left to the slow runtime in silence), and the compiled build
// gives what the schema as written gives: the same value, key for key and in the same order (the
// sandbox stores buyer and product as that JSON), for every generated valid body, with unknown
// keys and in either variant; and for a body with a rule broken, the same problems.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as z from 'zod';
import { Checked, makeOrderCreateChecks, validate, type OrderCreate } from '../../src/api/schemas/index.js';
import { NOW } from './helpers-gen-text.js';
import { brokenOrder, orderBody, type Variant } from './helpers-gen-order.js';
import type { Body } from './helpers-gen-mutate.js';
import { runs } from './helpers.js';

/**
 * A checked schema past its warm-up, whose compiled build answers. zod compiles strictly: a part it
 * could not compile would leave no compiled build at all, not a slow one in silence.
 */
function hot<T>(schema: Checked<T>): z.ZodType<T> {
  for (let i = 0; i < Checked.COMPILE_AFTER; i++) expect(schema.fast()).toBeUndefined();
  const fast = schema.fast();
  if (!fast) throw new Error('zod refused to compile the schema');
  return fast;
}

/** Keys nobody asked for, at the top and inside buyer and product: dropped the same way by both. */
const strays = fc.record({ top: fc.boolean(), buyer: fc.boolean(), product: fc.boolean() });

function withStrays(body: Body, where: { top: boolean; buyer: boolean; product: boolean }): Body {
  const out = structuredClone(body) as Record<string, any>;
  if (where.top) out.note = 'not a field';
  if (where.buyer && typeof out.buyer === 'object') out.buyer.nickname = 'Ash';
  if (where.product && typeof out.product === 'object') out.product.colour = 'red';
  return out;
}

describe.each(['v3', 'legacy'] as Variant[])('create order, %s variant, compiled', (variant) => {
  const checks = (): Checked<OrderCreate> => makeOrderCreateChecks({ now: () => NOW })[variant];

  it('is not compiled for the first bodies (one validation never pays for a compile), then compiled whole', () => {
    hot(checks());
  });

  it('gives the same value as the schema as written, in the same key order', () => {
    const schema = checks();
    const fast = hot(schema);
    fc.assert(
      fc.property(orderBody(variant), strays, (body, where) => {
        const input = withStrays(body, where);
        const compiled = fast.safeParse(structuredClone(input));
        const written = schema.report.safeParse(structuredClone(input));
        expect(compiled.success).toBe(true);
        expect(written.success).toBe(true);
        expect(JSON.stringify(compiled.data)).toBe(JSON.stringify(written.data));
        expect(compiled.data).toStrictEqual(written.data);
        expect(validate(schema, structuredClone(input))).toStrictEqual(validate(schema.report, structuredClone(input)));
      }),
      { numRuns: runs(400) },
    );
  });

  it('refuses what the schema as written refuses, with the same problems', () => {
    const schema = checks();
    const fast = hot(schema);
    fc.assert(
      fc.property(brokenOrder(variant), (m) => {
        expect(fast.safeParse(structuredClone(m.body)).success, m.rule).toBe(false);
        const checked = validate(schema, structuredClone(m.body));
        expect(checked.ok, m.rule).toBe(false);
        expect(checked).toStrictEqual(validate(schema.report, structuredClone(m.body)));
      }),
      { numRuns: runs(400) },
    );
  });
});
