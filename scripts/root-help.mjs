// The root's help as a pipe or a file gets it (80 columns, no colour), rendered once at build time
// by the bundle itself (commander and src/help.ts) and written into dist/main.js, which prints it
// without loading the command tree (src/main.ts, ROOT_HELP; issue 23). Rendered, not written by
// hand: it cannot drift from what commander prints (test/e2e/root-help.test.ts compares the two).
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What esbuild writes for `__PGW_ROOT_HELP__` in the first build: main.ts then renders with commander. */
export const PLACEHOLDER = '@@PGW_ROOT_HELP@@';

export async function injectRootHelp(root) {
  const env = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('PGW_') || key === 'COLUMNS') delete env[key];
  // dist/main.js's run(), as bin/pgw.js calls it (the build needs only src/ and scripts/).
  const main = pathToFileURL(join(root, 'dist', 'main.js')).href;
  const script = `const { run } = await import(${JSON.stringify(main)}); process.exitCode = await run(['--help']);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0 || !r.stdout.includes('Usage: pgw')) throw new Error(`build: pgw --help failed (${r.status}): ${r.stderr}`);
  const file = join(root, 'dist', 'main.js');
  const text = await readFile(file, 'utf8');
  const parts = text.split(JSON.stringify(PLACEHOLDER));
  if (parts.length !== 2) throw new Error(`build: dist/main.js holds the root help's placeholder ${parts.length - 1} times, not once`);
  await writeFile(file, parts.join(JSON.stringify(r.stdout)));
}
