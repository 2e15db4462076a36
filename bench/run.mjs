// npm run bench: every figure of issues 7 and 12, each a ratio of medians against a baseline
// measured in the same invocation, on the Node that runs it (and the sandbox's SQLite engine it
// uses there), written to bench/results.md beside the latest figures of every other Node line
// and engine measured (kept in bench/results-by-line.json), and with --json to a JSON file.
//
// Another Node line: run it with that node, e.g. PATH=<node 24>/bin:$PATH npm run bench.
//
// Sizes come from flags or the environment (flag wins); --quick is the tiny run CI uses to keep
// the benchmark working (test/bench/bench.test.ts). Needs the build: npm run build.
//
//   --runs N            start-up runs per command            BENCH_RUNS       (31)
//   --memory-runs N     memory runs per command              BENCH_MEMORY_RUNS (5)
//   --lookups N         IDs in the bulk look-up              BENCH_LOOKUPS    (400)
//   --bulk-runs N       runs of the bulk look-up each way    BENCH_BULK_RUNS  (9)
//   --duration S        seconds per autocannon round         BENCH_DURATION   (3)
//   --rounds N          autocannon rounds per target         BENCH_ROUNDS     (3)
//   --batch N           payments in the big mark-settled     BENCH_BATCH      (1000)
//   --settle-runs N     mark-settled runs of each size       BENCH_SETTLE_RUNS (7)
//   --out PATH          the Markdown file                    BENCH_OUT        (bench/results.md)
//   --json PATH         also write the figures as JSON       BENCH_JSON
//   --only a,b          sections: startup,lookups,throughput,settle
//   --engine E          the sandbox's SQLite engine: node:sqlite or better-sqlite3 (PGW_SQLITE_DRIVER;
//                       default: what pgw chooses on this Node)
//   --lines PATH        figures of every line measured     BENCH_LINES (results-by-line.json beside --out)
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startupFigures } from './startup.mjs';
import { lookupFigures } from './lookups.mjs';
import { throughputFigures } from './throughput.mjs';
import { settleFigures } from './settle.mjs';
import { lineKey, readLines, renderResults, writeLines, writeResults } from './report.mjs';

const DEFAULTS = { runs: 31, memoryRuns: 5, lookups: 400, bulkRuns: 9, duration: 3, rounds: 3, warmupSeconds: 1, batch: 1000, settleRuns: 7 };
const QUICK = { runs: 3, memoryRuns: 1, lookups: 10, bulkRuns: 2, duration: 0.3, rounds: 1, warmupSeconds: 0, batch: 10, settleRuns: 2 };
const NUMERIC = {
  runs: ['--runs', 'BENCH_RUNS'],
  memoryRuns: ['--memory-runs', 'BENCH_MEMORY_RUNS'],
  lookups: ['--lookups', 'BENCH_LOOKUPS'],
  bulkRuns: ['--bulk-runs', 'BENCH_BULK_RUNS'],
  duration: ['--duration', 'BENCH_DURATION'],
  rounds: ['--rounds', 'BENCH_ROUNDS'],
  batch: ['--batch', 'BENCH_BATCH'],
  settleRuns: ['--settle-runs', 'BENCH_SETTLE_RUNS'],
};
const SECTIONS = { startup: startupFigures, lookups: lookupFigures, throughput: throughputFigures, settle: settleFigures };

const ENGINES = ['node:sqlite', 'better-sqlite3'];
/** What pgw chooses on this Node (src/sandbox/sqlite/select.ts): node:sqlite wherever it exists. */
function defaultEngine() {
  try {
    return typeof process.getBuiltinModule?.('node:sqlite')?.DatabaseSync === 'function' ? 'node:sqlite' : 'better-sqlite3';
  } catch {
    return 'better-sqlite3';
  }
}

function parseArgs(argv, env) {
  const flags = new Map();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') {
      flags.set('--quick', true);
      continue;
    }
    const eq = arg.indexOf('=');
    const [name, value] = eq === -1 ? [arg, argv[++i]] : [arg.slice(0, eq), arg.slice(eq + 1)];
    if (!name.startsWith('--') || value === undefined) throw new Error(`bench: cannot read "${arg}" (see the header of bench/run.mjs)`);
    flags.set(name, value);
  }
  const quick = flags.has('--quick') || env.BENCH_QUICK === '1';
  const opts = { ...(quick ? QUICK : DEFAULTS), preset: quick ? 'quick' : undefined };
  for (const [key, [flag, envName]] of Object.entries(NUMERIC)) {
    const raw = flags.get(flag) ?? env[envName];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0 || (key !== 'duration' && !Number.isInteger(n))) throw new Error(`bench: ${flag} must be a positive ${key === 'duration' ? 'number' : 'whole number'}`);
    opts[key] = n;
    flags.delete(flag);
  }
  opts.out = flags.get('--out') ?? env.BENCH_OUT ?? fileURLToPath(new URL('./results.md', import.meta.url));
  opts.json = flags.get('--json') ?? env.BENCH_JSON;
  opts.lines = flags.get('--lines') ?? env.BENCH_LINES ?? join(dirname(opts.out), 'results-by-line.json');
  opts.engine = flags.get('--engine') ?? env.PGW_SQLITE_DRIVER ?? defaultEngine();
  if (!ENGINES.includes(opts.engine)) throw new Error(`bench: --engine must be one of ${ENGINES.join(', ')}`);
  const only = flags.get('--only') ?? env.BENCH_ONLY;
  opts.sections = only ? only.split(',') : Object.keys(SECTIONS);
  for (const s of opts.sections) if (!SECTIONS[s]) throw new Error(`bench: unknown section "${s}" (${Object.keys(SECTIONS).join(', ')})`);
  for (const known of ['--quick', '--out', '--json', '--only', '--lines', '--engine']) flags.delete(known);
  if (flags.size > 0) throw new Error(`bench: unknown option ${[...flags.keys()].join(', ')} (see the header of bench/run.mjs)`);
  return opts;
}

function sizes(o) {
  return [
    `${o.runs} start-up runs and ${o.memoryRuns} memory runs per command`,
    `${o.lookups} look-ups × ${o.bulkRuns} runs each way`,
    `autocannon ${o.rounds} round(s) × ${o.duration} s per target, 10 connections`,
    `mark-settled ${o.batch} vs 1 payment, ${o.settleRuns} runs each`,
  ].join('; ');
}

let opts;
try {
  opts = parseArgs(process.argv.slice(2), process.env);
} catch (err) {
  console.error(err.message);
  process.exit(2);
}
if (!existsSync(fileURLToPath(new URL('../dist/main.js', import.meta.url)))) {
  console.error('bench: dist/ is missing: run `npm run build` first');
  process.exit(2);
}
const log = (line) => process.stderr.write(`bench: ${line}\n`);
// Every pgw the benchmark starts runs the sandbox on this engine (cleanEnv keeps the variable).
process.env.PGW_SQLITE_DRIVER = opts.engine;
const meta = {
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  preset: opts.preset,
  node: process.version,
  engine: opts.engine,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  load: loadavg().map((n) => n.toFixed(2)).join(' '),
  sizes: sizes(opts),
};
const figures = [];
const memory = [];
for (const section of opts.sections) {
  const result = await SECTIONS[section](opts, log);
  figures.push(...result.times);
  memory.push(...result.memory);
}
const lines = readLines(opts.lines);
lines[lineKey(meta)] = { meta, figures, memory };
const generated = renderResults(lines, lineKey(meta));
writeLines(opts.lines, lines);
writeResults(opts.out, generated);
if (opts.json) writeFileSync(opts.json, `${JSON.stringify({ meta, options: opts, figures, memory }, null, 2)}\n`);
process.stdout.write(`${generated}\n`);
log(`written to ${opts.out}`);
