// scripts/eager-wrappers.mjs: every bundled module's wrapper becomes a parenthesised function, so
// V8 compiles it with its file and Node's compile cache keeps it (issue 23). The rewrite must keep
// the code's meaning: same wrapper, same arguments, same result.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a build script in plain JavaScript, without types
import { eagerWrappers } from '../../scripts/eager-wrappers.mjs';
import { ROOT } from '../helpers/spawn.js';

const rewrite = eagerWrappers as (text: string, name?: string) => string;

const HELPERS = `var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports; };
var __esm = (fn, res) => function __init() { return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res; };`;

describe('eagerWrappers', () => {
  it('turns each __commonJS and __esm wrapper method into a parenthesised function, and nothing else', () => {
    const text = `${HELPERS}
var require_a = __commonJS({ "node_modules/a/index.js"(exports, module) { module.exports = { twice(x) { return 2 * x; }, self: typeof this }; } });
var b; var init_b = __esm({ "src/b.ts"() { b = { m() { return "not a wrapper"; } }; } });
globalThis.result = [require_a().twice(21), require_a().self, (init_b(), b.m()), require_a() === require_a()];`;
    const out = rewrite(text);
    expect(out).toContain('"node_modules/a/index.js":(function(exports, module) {');
    expect(out).toContain('"src/b.ts":(function() {');
    expect(out).toContain('m() { return "not a wrapper"; }'); // methods that are not wrappers stay
    // ES modules are strict: `this` in a wrapper is undefined, method or function alike.
    const run = (code: string) => new Function(`"use strict"; ${code}; return globalThis.result;`)() as unknown[];
    expect(run(out)).toEqual(run(text));
    expect(run(out)).toEqual([42, 'undefined', 'not a wrapper', true]);
  });

  it('the built files have no wrapper left as a method (the build applies it to every file)', () => {
    const dist = join(ROOT, 'dist');
    const files = ['main.js', ...readdirSync(join(dist, 'chunks')).map((f) => join('chunks', f))];
    const texts = files.map((f) => readFileSync(join(dist, f), 'utf8'));
    expect(texts.some((t) => /__commonJS\(\{"node_modules\/commander\/lib\/command\.js":\(function\(/.test(t))).toBe(true);
    expect(texts.filter((t) => /__(?:commonJS|esm)\(\{"[^"]*"\(/.test(t)).length).toBe(0);
  });
});
