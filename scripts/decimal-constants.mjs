// decimal.js turns its two 1,025-digit constants, ln(10) and pi, from text into Decimals when it
// loads (the last two statements of decimal.mjs): ~1 ms of every command that loads money.ts
// (`pgw settle calc`, and every command on the embedded sandbox; issue 23), for constants pgw
// never uses. decimal.js reads them in two places only, `new Ctor(LN10)` and `new Ctor(PI)`, and
// a constructor reads a string as exactly as it copies a Decimal (no rounding at construction,
// e = 0 for both, so no range check applies); their precisions are taken from the strings' lengths
// before the conversion. Left as text, every result is the same (test/package/decimal-constants.test.ts).
// If decimal.js ever changes those lines, the build stops instead of guessing.
import { readFile } from 'node:fs/promises';

/** The two statements decimal.mjs ends with, that this step removes. */
const CONVERSIONS = ['LN10 = new Decimal(LN10);', 'PI = new Decimal(PI);'];

/** decimal.mjs's source without the conversions; throws if either is not there exactly once. */
export function withoutConstantConversions(source) {
  let out = source;
  for (const line of CONVERSIONS) {
    const at = out.indexOf(line);
    if (at < 0 || out.indexOf(line, at + 1) >= 0) throw new Error(`decimal-constants: decimal.mjs no longer has "${line}" once; look again at scripts/decimal-constants.mjs`);
    out = out.slice(0, at) + out.slice(at + line.length);
  }
  return out;
}

/** The esbuild plugin: decimal.js's ES module, loaded without the conversions. */
export const decimalConstantsAsText = {
  name: 'decimal-constants-as-text',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]decimal\.js[\\/]decimal\.mjs$/ }, async (args) => ({
      contents: withoutConstantConversions(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
