// Running the processes the benchmark measures: timed runs (wall clock, nothing added to the
// process), memory runs (peak RSS through peak-rss.mjs), and servers that print one JSON line.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const PGW = fileURLToPath(new URL('../bin/pgw.js', import.meta.url));
const PEAK_RSS = pathToFileURL(fileURLToPath(new URL('./peak-rss.mjs', import.meta.url))).href;
const scratch = mkdtempSync(join(tmpdir(), 'pgw-bench-rss-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/**
 * The caller's environment without its pgw settings (never the developer's own profile). The
 * sandbox's SQLite engine (PGW_SQLITE_DRIVER, set by --engine) is what is being measured: kept.
 */
export function cleanEnv(extra = {}) {
  const env = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('PGW_') && key !== 'PGW_SQLITE_DRIVER') delete env[key];
  return { ...env, ...extra };
}

function check(result, argv, expectCode) {
  if (result.error) throw result.error;
  if (result.status !== expectCode) {
    throw new Error(`${argv.join(' ')}: exit ${result.status ?? result.signal}, expected ${expectCode}\n${String(result.stderr).slice(0, 2000)}`);
  }
}

/** One run, timed from spawn to exit; stdout is a pipe, as in a script. Returns ms and stdout. */
export function timedRun(argv, { env, expectCode = 0, input } = {}) {
  const started = performance.now();
  // With `input`, stdin is a pipe holding it and then closed (pgw mcp answers it, then ends).
  const stdin = input === undefined ? 'ignore' : 'pipe';
  const result = spawnSync(argv[0], argv.slice(1), { env, input, stdio: [stdin, 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - started;
  check(result, argv, expectCode);
  return { ms, stdout: result.stdout.toString('utf8') };
}

let rssCount = 0;
/** One run of a node process with peak-rss.mjs loaded: its peak RSS in bytes. */
export function peakRssRun(argv, { env, expectCode = 0 } = {}) {
  const file = join(scratch, `rss-${rssCount++}`);
  const [node, ...rest] = argv;
  const full = [node, '--import', PEAK_RSS, ...rest];
  const result = spawnSync(node, full.slice(1), { env: { ...env, BENCH_RSS_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  check(result, full, expectCode);
  return Number(readFileSync(file, 'utf8'));
}

/**
 * A server process that prints one JSON line once it listens (`pgw sandbox serve --json`,
 * bare-server.mjs). stop() sends SIGTERM and resolves with its peak RSS in bytes.
 */
export function startJsonServer(argv, { env } = {}) {
  const file = join(scratch, `rss-${rssCount++}`);
  const [node, ...rest] = argv;
  const child = spawn(node, ['--import', PEAK_RSS, ...rest], { env: { ...env, BENCH_RSS_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const info = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)));
    });
    exited.then(({ code, signal }) => reject(new Error(`${argv.join(' ')} exited (${code ?? signal}) before listening\n${stderr}`)));
  });
  return {
    info,
    async stop() {
      child.kill('SIGTERM');
      const { code, signal } = await exited;
      if (code !== 0) throw new Error(`${argv.join(' ')} stopped with ${code ?? signal}\n${stderr}`);
      return Number(readFileSync(file, 'utf8'));
    },
  };
}
