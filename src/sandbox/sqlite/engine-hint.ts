// What to run when Node 20 has no working better-sqlite3: a command for where this pgw lives. The
// old hint, `npm rebuild better-sqlite3`, did nothing for a global install from a packed tarball:
// npm drops the optional carrier @pgw-cli/sqlite-node20 while it is unpublished, so there is no
// better-sqlite3 to rebuild (issue 32). better-sqlite3 installed beside pgw is found as well:
// better-sqlite3.ts resolves it from pgw itself when the carrier is absent.
import { basename, dirname, sep } from 'node:path';

/** The carrier's range (packages/sqlite-node20/package.json), as a user types it. */
export const BETTER_SQLITE3 = 'better-sqlite3@12';

const TOOLCHAIN = 'install python3, make and g++, then run:';

/**
 * `missing`: better-sqlite3 cannot be resolved; `broken`: it resolves but its addon does not load.
 * `file` is a file of the running pgw (dist/… when built, src/… under the tests).
 */
export function engineHint(kind: 'missing' | 'broken', file: string): string {
  const root = packageRoot(file);
  const parent = dirname(root);
  let command: string;
  if (basename(parent) !== 'node_modules') {
    // A checkout: its optional carrier (packages/sqlite-node20) brings better-sqlite3 with `npm install` on Node 20.
    command = kind === 'missing' ? `npm install --prefix ${sh(root)}` : `${TOOLCHAIN} npm rebuild --prefix ${sh(root)} better-sqlite3`;
  } else if (basename(dirname(parent)) === 'lib') {
    // `npm install -g` on Linux and macOS: <prefix>/lib/node_modules/pgw-cli.
    const prefix = dirname(dirname(parent));
    command = kind === 'missing' ? `npm install -g --prefix ${sh(prefix)} ${BETTER_SQLITE3}` : `${TOOLCHAIN} npm rebuild -g --prefix ${sh(prefix)} better-sqlite3`;
  } else {
    // A project's node_modules (or a Windows global prefix, which has no lib/).
    const project = dirname(parent);
    command = kind === 'missing' ? `npm install --prefix ${sh(project)} ${BETTER_SQLITE3}` : `${TOOLCHAIN} npm rebuild --prefix ${sh(project)} better-sqlite3`;
  }
  return `use Node 22.13 or newer (node:sqlite is built in), or on Node 20 ${kind === 'missing' ? 'install it: ' : ''}${command}`;
}

/** pgw's own folder: what precedes the last dist/ (the bundle) or src/ (the sources) in `file`. */
function packageRoot(file: string): string {
  for (const dir of ['dist', 'src']) {
    const at = file.lastIndexOf(`${sep}${dir}${sep}`);
    if (at > 0) return file.slice(0, at);
  }
  return dirname(file);
}

/** A path as one shell word. */
function sh(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
