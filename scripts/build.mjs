// Bundles src/ into dist/ with esbuild. Code splitting keeps each verb's dependencies in its own
// chunk, so `pgw --version` loads only the start-up chunk. better-sqlite3 is native: external.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// Bundled CommonJS packages call require(); a chunk that does gets one from createRequire.
const BANNER = "import { createRequire as __pgwCreateRequire } from 'node:module'; const require = __pgwCreateRequire(import.meta.url);";
const USES_REQUIRE = /(?<![\w$])require(?![\w$])/;

/**
 * commander requires node:child_process at load time (~4 ms) for executable subcommands, which pgw
 * does not use. Its copy resolves to a stub that refuses; every other importer gets the real module.
 */
const commanderWithoutChildProcess = {
  name: 'commander-without-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'pgw-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'pgw-stub' }, () => ({
      contents: "module.exports = { spawn() { throw new Error('pgw runs no executable subcommands'); } };",
      loader: 'js',
    }));
  },
};

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
  banner: { js: BANNER },
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  write: false,
  plugins: [commanderWithoutChildProcess],
});
// Only the chunks that mention require keep the banner (in practice the one holding esbuild's
// __require shim, and any whose text merely says "require"): every createRequire() is start-up time.
for (const file of result.outputFiles) {
  let text = file.text;
  if (text.startsWith(BANNER) && !USES_REQUIRE.test(text.slice(BANNER.length))) text = text.slice(BANNER.length).replace(/^\n/, '');
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(file.path, text);
}
await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
