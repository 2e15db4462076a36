// The mutator table machinery: a rule is broken by setting one field to a bad value, deleting a
// required one, or changing one field a conditional rule depends on; each mutation carries the
// field path the refusal must name.
import fc from 'fast-check';
import { chars } from './helpers-gen-text.js';

export type Body = Record<string, any>;

export interface Mutation {
  /** Which rule was broken (shown when a property fails). */
  rule: string;
  /** The field path the refusal must name: that path itself, or fields inside it. */
  path: string;
  body: Body;
}

export interface FieldRule {
  path: string;
  /** Values that break the rule, or a function of the current value giving them. */
  bad: fc.Arbitrary<unknown> | ((value: unknown) => fc.Arbitrary<unknown>);
  /** Applies when the field is present and this holds for its value (default: present). */
  when?: (value: unknown) => boolean;
}

export const field = (path: string, bad: FieldRule['bad'], when?: (value: unknown) => boolean): FieldRule => ({ path, bad, when });

export function getAt(body: Body, path: string): unknown {
  let node: unknown = body;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Body)[key];
  }
  return node;
}

/** A deep copy with `path` set to `value` (missing parents created), or deleted when `value` is undefined. */
export function setAt(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let node = copy;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === undefined) {
      if (value === undefined) return copy;
      node[key] = {};
    }
    node = node[key] as Body;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

export const del = (body: Body, path: string, rule: string): Mutation => ({ rule, path, body: setAt(body, path, undefined) });
export const set = (body: Body, path: string, value: unknown, rule: string): Mutation => ({ rule, path, body: setAt(body, path, value) });

/** One mutation per field rule that applies to this body. */
export function fieldMutations(body: Body, rules: readonly FieldRule[]): fc.Arbitrary<Mutation>[] {
  return rules
    .filter((r) => {
      const v = getAt(body, r.path);
      return v !== undefined && (r.when ? r.when(v) : true);
    })
    .map((r) => {
      const bad = typeof r.bad === 'function' ? r.bad(getAt(body, r.path)) : r.bad;
      return bad.map((value) => set(body, r.path, value, `${r.path} = ${JSON.stringify(value)?.slice(0, 40)}`));
    });
}

export function oneOf<T>(arbs: fc.Arbitrary<T>[]): fc.Arbitrary<T> {
  if (arbs.length === 0) throw new Error('no mutator applies to this body');
  return fc.oneof(...arbs);
}

/**
 * One to twenty characters over `max`, first and last not a space (so trimming cannot bring it
 * back under the bound).
 */
export function tooLong(set: readonly string[], max: number): fc.Arbitrary<string> {
  const solid = set.filter((c) => c.trim() !== '');
  return fc
    .tuple(fc.integer({ min: max + 1, max: max + 20 }), chars(solid), chars(solid))
    .chain(([n, a, b]) => fc.string({ unit: chars(set), minLength: n - 2, maxLength: n - 2 }).map((m) => `${a}${m}${b}`));
}

/** A valid value with one forbidden character put somewhere inside it. */
export function badChar(valid: fc.Arbitrary<string>, bad: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(valid, chars(bad), fc.nat()).map(([v, c, i]) => {
    const at = i % (v.length + 1);
    return `${v.slice(0, at)}${c}${v.slice(at)}`;
  });
}
