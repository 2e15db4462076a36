// Bundles src/ into dist/ with esbuild. Code splitting keeps each verb's dependencies in its own
// chunk, so `pgw --version` loads only the start-up chunk. better-sqlite3 is native: external.
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist/', import.meta.url), { recursive: true, force: true });
const result = await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  define: { __PGW_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS packages call require(); give each ESM chunk one.
  banner: { js: "import { createRequire as __pgwCreateRequire } from 'node:module'; const require = __pgwCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
});
await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
