// Bundles src/ into dist/ with esbuild. Code splitting keeps each verb's dependencies in its own
// chunk, so `pgw --version` loads only the start-up chunk. better-sqlite3 is native: external.
// Every other library is inside dist/, so the published package depends on nothing else (issue 23).
//
// Reproducible: the same commit built in any folder gives the same bytes (no path of the building
// machine in dist/; test/package/reproducible.test.ts). esbuild's metafile, which only the tests
// read (which sources a chunk holds), goes to build/meta.json, outside the package.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { mergeChunks } from './merge-chunks.mjs';
import { eagerWrappers } from './eager-wrappers.mjs';
import { PLACEHOLDER, injectRootHelp } from './root-help.mjs';
import { thirdPartyNotices } from './notices.mjs';
import { decimalConstantsAsText } from './decimal-constants.mjs';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

const ROOT = fileURLToPath(new URL('..', import.meta.url));
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

/**
 * The MCP SDK's server (pgw mcp) takes zod 3 and zod 4 schemas and validates elicitation answers
 * with Ajv. pgw's tools are zod 4 and it never elicits, so the SDK's copies of zod 3,
 * zod-to-json-schema and Ajv would only lengthen the start of `pgw mcp` (~35 ms of an answer to
 * `initialize`). Inside the SDK they resolve to stand-ins that refuse if ever reached.
 */
const mcpWithoutZod3 = {
  name: 'mcp-without-zod3',
  setup(b) {
    const inSdk = (importer) => /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(importer);
    b.onResolve({ filter: /^(zod\/v3|zod-to-json-schema|\.\.\/validation\/ajv-provider\.js)$/ }, (args) =>
      inSdk(args.importer) ? { path: args.path, namespace: 'pgw-mcp-stub' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'pgw-mcp-stub' }, (args) => {
      const refuse = `throw new Error(${JSON.stringify(`pgw mcp: ${args.path} is not bundled (zod 4 schemas only, no elicitation)`)})`;
      if (args.path === 'zod-to-json-schema') return { contents: `export function zodToJsonSchema() { ${refuse}; }`, loader: 'js' };
      if (args.path === 'zod/v3') return { contents: `export function object() { ${refuse}; }`, loader: 'js' };
      return { contents: `export class AjvJsonSchemaValidator { getValidator() { ${refuse}; } }`, loader: 'js' };
    });
  },
};

/**
 * Node's built-ins are taken with require(), never imported as ES modules. An ES import makes
 * Node build the module's ESM facade, which reads every export, lazy getters included: node:fs's
 * ReadStream loads Node's streams (~4 ms), and on Node 22+ node:http's WebSocket loads Node's own
 * undici (28 ms on Node 24, 77 ms on Node 22; issue 12). As CommonJS, only what is used is read.
 * node:module stays an import: it provides the createRequire() that require() comes from.
 *
 * A stand-in for a file of pgw's own that imports named bindings (`import { readFileSync } from
 * 'node:fs'`, the only form src/ uses) exports just those names, read off the module once. A
 * CommonJS stand-in would be wrapped by esbuild's __toESM, which copies every property of the
 * built-in into a new object at load (node:fs has ~100): ~1.5 ms of `pgw payment get` on Node 24.
 * Anything else (a library's require(), a default or namespace import) gets the CommonJS stand-in.
 */
const builtinsViaRequire = {
  name: 'builtins-via-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_/0-9]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!BUILTINS.has(name) || name === 'module' || args.namespace.startsWith('pgw-builtin')) return undefined;
      // One stand-in per importing file: shared by several lazily loaded chunks, a single stand-in
      // would become a chunk of its own, one more module to resolve and link at every start. The
      // stand-in's name (which esbuild writes into the chunk as a comment) says the importer from
      // the project's folder, never from the machine's root: the build stays reproducible.
      const path = `${name}|${projectPath(args.importer)}`;
      const named = args.kind === 'import-statement' && namedImports(sourceOf(args.importer), name);
      return named ? { path, namespace: 'pgw-builtin-named' } : { path, namespace: 'pgw-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'pgw-builtin' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`node:${args.path.split('|')[0]}`)});`,
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'pgw-builtin-named' }, (args) => {
      const [name, importer] = args.path.split('|');
      const names = namedImports(sourceOf(join(ROOT, importer)), name);
      const binding = `__pgw_${name.replace(/\W/g, '_')}`;
      return {
        contents: `const ${binding} = require(${JSON.stringify(`node:${name}`)});\n${names.map((n) => `export const ${n} = ${binding}.${n};`).join('\n')}\n`,
        loader: 'js',
      };
    });
  },
};

/** A source file's text, read once however many built-ins it imports (resolve and load both ask). */
const sources = new Map();
function sourceOf(path) {
  if (!sources.has(path)) sources.set(path, readFileSync(path, 'utf8'));
  return sources.get(path);
}

/**
 * The names `source` imports from built-in `name`, when every import of it is the named form with
 * plain identifiers; undefined otherwise (the caller then uses the CommonJS stand-in).
 */
function namedImports(source, name) {
  const from = String.raw`from\s*['"](?:node:)?${name.replace(/[/]/g, '\\/')}['"]`;
  const all = source.match(new RegExp(String.raw`\bimport\s+(?!type\s)[^;'"]*?${from}`, 'g')) ?? [];
  const names = new Set();
  for (const statement of all) {
    const list = /^import\s*\{([^}]*)\}\s*from/.exec(statement)?.[1];
    if (list === undefined) return undefined; // a default or namespace import
    for (const part of list.split(',').map((p) => p.trim()).filter(Boolean)) {
      if (part.startsWith('type ')) continue;
      const imported = part.split(/\s+as\s+/)[0];
      if (!/^[A-Za-z_$][\w$]*$/.test(imported) || imported === 'default') return undefined;
      names.add(imported);
    }
  }
  return names.size > 0 ? [...names].sort() : undefined;
}

/**
 * undici's HTTP/2 client requires node:http2 when it loads, only to read ten header-name constants
 * from it; pgw never speaks HTTP/2 (undici's allowH2 is off). node:http2 brings node:tls and
 * node:crypto with it: ~11 ms of every run that makes an API call on Node 24, an eighth of the
 * 400-look-up figure (issue 23). Its copy gets the constants' values, read from the building Node
 * (protocol strings and error codes: the same on every line), and a connect() that loads
 * node:http2 if it is ever called. Anything else it reads from node:http2 fails the build, so an
 * upgrade of undici that needs more is noticed rather than shipped broken.
 */
const http2Deferred = {
  name: 'undici-http2-deferred',
  setup(b) {
    const CLIENT_H2 = /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/;
    b.onResolve({ filter: /^(node:)?http2$/ }, (args) => (args.namespace === 'file' && CLIENT_H2.test(args.importer) ? { path: projectPath(args.importer), namespace: 'pgw-http2' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'pgw-http2' }, (args) => {
      const source = readFileSync(join(ROOT, args.path), 'utf8');
      const block = /\bconstants:\s*\{([^}]*)\}\s*\}\s*=\s*http2\b/.exec(source)?.[1];
      const members = new Set([...source.matchAll(/\bhttp2\.(\w+)/g)].map((m) => m[1]));
      const names = block?.split(',').map((n) => n.trim()).filter(Boolean) ?? [];
      const real = require('node:http2').constants;
      if (names.length === 0 || names.some((n) => !/^\w+$/.test(n) || real[n] === undefined) || [...members].some((m) => m !== 'connect')) {
        throw new Error(`undici's ${args.path} reads node:http2 differently than the build knows (constants: ${names.join(', ') || 'none'}; members: ${[...members].join(', ')})`);
      }
      const constants = Object.fromEntries(names.map((n) => [n, real[n]]));
      return {
        contents: `module.exports = { constants: ${JSON.stringify(constants)}, connect: (...args) => require('node:http2').connect(...args) };`,
        loader: 'js',
      };
    });
  },
};

/** A file's path from the project's folder, with forward slashes on every system. */
function projectPath(file) {
  return relative(ROOT, file).split(sep).join('/');
}
const BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));

await rm(new URL('../dist/', import.meta.url), { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  define: { __PGW_VERSION__: JSON.stringify(pkg.version), __PGW_ROOT_HELP__: JSON.stringify(PLACEHOLDER) },
  banner: { js: BANNER },
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  // Whitespace and comments out (identifiers kept: stack traces still name functions). Node hashes
  // each file's text to find its compile cache, and V8 scans a function's text again when it first
  // runs it: a third less text is ~2% of `pgw payment get` (issue 23), and no comment can make a
  // file two-byte (a `→` in one doubled its memory and sent V8's scanner down its UTF-16 path).
  minifyWhitespace: true,
  write: false,
  plugins: [commanderWithoutChildProcess, mcpWithoutZod3, http2Deferred, builtinsViaRequire, decimalConstantsAsText],
});
// Only the chunks that mention require keep the banner (in practice the one holding esbuild's
// __require shim, and any whose text merely says "require"): every createRequire() is start-up time.
const firstPass = result.outputFiles.map((file) => {
  let text = file.text;
  if (text.startsWith(BANNER) && !USES_REQUIRE.test(text.slice(BANNER.length))) text = text.slice(BANNER.length).replace(/^\n/, '');
  return { path: projectPath(file.path), text };
});
// Chunks always loaded together with an entry that runs first go into that entry's file (merge-chunks.mjs).
// src/main.ts imports the command tree and version.ts itself; every other import() its code makes
// (Context: profiles, the embedded sandbox, the HTTP client) runs from a command, after the tree.
// Two sets of files are kept as one file (`together`; issue 23, each measured on Node 24):
// - the in-process sandbox, its store and its database: every command on an embedded profile
//   (the default) loads all three, and each file more costs it a module and the resolutions of
//   its imports (~2 ms of `pgw payment get`). Only `pgw sandbox reset` and `pgw sandbox snapshot`
//   open the store without the request pipeline; they read its text too, in fewer files.
// - the command tree and the HTTP client: every command but a few local ones (settle calc,
//   profile, completion) calls the gateway, and the client is 17 kB of declarations that takes
//   no built-in when it loads. Those few read its text (no measurable change to settle calc in
//   100 interleaved runs); a call loads a module fewer (`payment get`: −0.7 ms wall, −2.7 ms CPU).
const { files, outputs } = await mergeChunks(firstPass, result.metafile, ROOT, {
  deferred: { root: 'src/main.ts', until: 'src/program.ts', direct: ['src/program.ts', 'src/version.ts'] },
  together: [
    ['src/sandbox/open.ts', 'src/sandbox/store.ts', 'src/sandbox/db.ts'],
    ['src/program.ts', 'src/api/client.ts'],
  ],
});
for (const file of files) {
  const path = join(ROOT, file.path);
  await mkdir(dirname(path), { recursive: true });
  // Bundled modules' wrappers compiled with their file, so the compile cache keeps them (eager-wrappers.mjs).
  await writeFile(path, eagerWrappers(file.text, file.path));
}
await mkdir(new URL('../build/', import.meta.url), { recursive: true });
await writeFile(new URL('../build/meta.json', import.meta.url), JSON.stringify({ inputs: result.metafile.inputs, outputs }));
// The licences of the bundled packages, shipped beside LICENSE (package.json "files"; notices.mjs).
await writeFile(new URL('../THIRD_PARTY_NOTICES', import.meta.url), thirdPartyNotices(result.metafile, ROOT, pkg));
// Last, once dist/ runs: the root's help for pipes and files goes into main.js (root-help.mjs).
await injectRootHelp(ROOT);
