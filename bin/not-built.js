// Why bin/pgw.js could not load dist/main.js, when the reason is that nothing was built: a
// checkout before `npm install` (its prepare script runs the build), or an install that lost
// dist/. Any other failure (a broken chunk, a syntax error) is not ours to explain: the caller
// rethrows it.
import { existsSync } from 'node:fs';

const MAIN = new URL('../dist/main.js', import.meta.url);
// A checkout has the sources; an installed package has only bin/, dist/ and completions/.
const CHECKOUT = new URL('../scripts/build.mjs', import.meta.url);

/** Exits 1 with one line on stderr when dist/main.js does not exist; returns otherwise. */
export function exitIfNotBuilt(err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || existsSync(MAIN)) return;
  const what = existsSync(CHECKOUT)
    ? 'this checkout of pgw is not built (no dist/main.js): run `npm install` in it (its prepare script builds), or `npm run build`'
    : 'this install of pgw has no dist/main.js: install pgw-cli again';
  process.stderr.write(`error: ${what}\n`);
  if (process.env.PGW_DEBUG === '1' && err.stack) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
}
