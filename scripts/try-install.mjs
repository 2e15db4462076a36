// Installs pgw as a user would (`npm install -g`, into a temporary prefix, never the machine's own)
// on a given Node, optionally with no C++ toolchain on PATH, then runs `pgw sandbox seed` and
// `pgw payment get` from that install. Prints the install's time, package count and npm warnings
// (issue 23's "done when"; docs/sandbox.md, "Installing on each Node line").
//
//   node scripts/try-install.mjs [--node <dir of a node binary>] [--no-compiler] [--fresh-cache] [--keep]
//
// The package is packed from this checkout (npm pack's prepack builds dist/ and writes the packed
// manifest: scripts/packed-manifest.mjs). Its optional
// dependency @pgw-cli/sqlite-node20 lives in packages/ and is published beside pgw-cli; until
// then it is served here from a registry on 127.0.0.1 for its scope only (--@pgw-cli:registry),
// everything else coming from the npm registry as usual.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const nodeDir = value('--node') ?? dirname(process.execPath);
const noCompiler = flag('--no-compiler');
const work = mkdtempSync(join(tmpdir(), 'pgw-try-install-'));

/** Asynchronously: the registry above answers from this process while npm runs. */
function runAsync(cmd, argv, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', ...opts });
  if (r.error) throw r.error;
  return r;
}

// 1. The two tarballs.
const packed = join(work, 'packed');
mkdirSync(packed);
for (const extra of [[], ['./packages/sqlite-node20']]) {
  const r = run('npm', ['pack', '--silent', '--pack-destination', packed, ...extra], { cwd: ROOT });
  if (r.status !== 0) throw new Error(`npm pack ${extra.join(' ')} failed:\n${r.stderr}`);
}
const tarballs = readdirSync(packed);
const pgwTgz = join(packed, tarballs.find((f) => f.startsWith('pgw-cli-')));
const carrierTgz = join(packed, tarballs.find((f) => f.startsWith('pgw-cli-sqlite-node20-')));
const carrier = JSON.parse(readFileSync(join(ROOT, 'packages/sqlite-node20/package.json'), 'utf8'));

// 2. A registry for the @pgw-cli scope: one packument, one tarball.
const tgz = readFileSync(carrierTgz);
const server = createServer((req, res) => {
  const base = `http://127.0.0.1:${server.address().port}`;
  if (req.url === `/${carrier.name.replace('/', '%2f')}` || req.url === `/${carrier.name}`) {
    const version = {
      ...carrier,
      _id: `${carrier.name}@${carrier.version}`,
      dist: {
        tarball: `${base}/${basename(carrierTgz)}`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
      },
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: carrier.name, 'dist-tags': { latest: carrier.version }, versions: { [carrier.version]: version } }));
  } else if (req.url === `/${basename(carrierTgz)}`) {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(tgz);
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const registry = `http://127.0.0.1:${server.address().port}/`;

// 3. PATH: the chosen node and npm first; without a compiler, the system's tools minus the C/C++
// toolchain, make and python (what node-gyp needs), as on a machine that has none.
const bin = join(work, 'bin');
mkdirSync(bin);
symlinkSync(join(nodeDir, 'node'), join(bin, 'node'));
// The npm on PATH (its script runs on whichever node comes first on PATH: the chosen one).
symlinkSync(realpathSync(run('sh', ['-c', 'command -v npm']).stdout.trim()), join(bin, 'npm'));
let path = `${bin}${delimiter}${process.env.PATH}`;
if (noCompiler) {
  const tools = join(work, 'tools');
  mkdirSync(tools);
  const HIDDEN = /^(g\+\+|gcc|cc|c\+\+|cpp|c89|c99|clang|make|gmake|cmake|python|x86_64-linux-gnu-)/;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || !existsSync(dir) || dir.includes('pyenv')) continue;
    for (const name of readdirSync(dir)) {
      if (HIDDEN.test(name) || name === 'node' || name === 'npm' || name === 'npx' || existsSync(join(tools, name))) continue;
      try {
        symlinkSync(join(dir, name), join(tools, name));
      } catch {}
    }
  }
  path = `${bin}${delimiter}${tools}`;
}
const env = { ...process.env, PATH: path, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
for (const key of Object.keys(env)) if (key.startsWith('PGW_') || key.startsWith('npm_lifecycle') || key === 'npm_config_prefix') delete env[key];
if (flag('--fresh-cache')) env.npm_config_cache = join(work, 'cache');

const nodeVersion = run(join(bin, 'node'), ['--version'], { env }).stdout.trim();
const compilers = ['g++', 'make', 'python3'].filter((t) => run('sh', ['-c', `command -v ${t}`], { env }).status === 0);

// 4. The install, timed.
const prefix = join(work, 'prefix');
const started = performance.now();
const install = await runAsync(join(bin, 'npm'), ['install', '-g', '--prefix', prefix, pgwTgz, `--@pgw-cli:registry=${registry}`], { env, cwd: work });
const seconds = (performance.now() - started) / 1000;
server.close();
const added = /added (\d+) packages?/.exec(install.stdout + install.stderr)?.[1];
const warnings = (install.stdout + install.stderr).split('\n').filter((l) => /npm (warn|WARN|error|ERR)/.test(l));

// 5. The installed pgw, on a fresh configuration.
const pgw = join(prefix, 'bin', 'pgw');
const pgwEnv = { ...env, PGW_CONFIG_DIR: join(work, 'config'), NO_COLOR: '1' };
const version = run(pgw, ['--version', '-v'], { env: pgwEnv });
const seed = run(pgw, ['sandbox', 'seed', '--json'], { env: pgwEnv });
let paymentId;
try {
  paymentId = JSON.stringify(JSON.parse(seed.stdout)).match(/"(PR\d{10})"/)?.[1];
} catch {}
const get = paymentId ? run(pgw, ['payment', 'get', paymentId, '--json'], { env: pgwEnv }) : undefined;
const modules = join(prefix, 'lib', 'node_modules', 'pgw-cli', 'node_modules');
const installed = existsSync(modules) ? readdirSync(modules).flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n])).filter((n) => !n.startsWith('.')) : [];

const report = {
  node: nodeVersion,
  compiler_on_path: compilers,
  install: { exit: install.status, seconds: Math.round(seconds * 10) / 10, added_packages: added === undefined ? null : Number(added), warnings },
  node_modules_of_pgw: installed,
  version: version.stdout.trim().split('\n'),
  seed: { exit: seed.status, stderr: seed.stderr.trim() || undefined },
  payment_get: get ? { id: paymentId, exit: get.status, stderr: get.stderr.trim() || undefined } : null,
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
if (!flag('--keep')) rmSync(work, { recursive: true, force: true });
else process.stderr.write(`kept ${work}\n`);
process.exitCode = install.status === 0 && seed.status === 0 && get?.status === 0 ? 0 : 1;
