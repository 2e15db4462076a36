// npm test: the whole suite with the parity trace on (src/sandbox/parity-trace.ts), then the
// parity check (scripts/parity.mjs --check). Arguments go to vitest; a run of some files only
// (`npm test -- test/e2e`) skips the check, whose report needs every test's trace.
// After the run: the wall time and the 20 slowest files with their CPU time
// (scripts/test-profile.mjs; PGW_TEST_PROFILE=<file> keeps every file's figures), held against
// the budget in docs/cli.md ("The test suite's budget").
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const started = Date.now();
const TRACE = '.parity/trace.jsonl';
const args = process.argv.slice(2);
rmSync(TRACE, { force: true });
mkdirSync('.parity', { recursive: true });

const env = { ...process.env, PGW_PARITY_TRACE: resolve(TRACE) };
// The default reporter and the profile, unless the caller chose reporters of their own.
const reporters = args.some((a) => a.startsWith('--reporter')) ? [] : ['--reporter=default', '--reporter=./scripts/test-profile.mjs'];
const vitest = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...reporters, ...args], { stdio: 'inherit', env });
if (vitest.status !== 0) process.exit(vitest.status ?? 1);
if (args.some((a) => !a.startsWith('-'))) {
  console.error('parity: some test files only: the parity check needs the whole suite (npm test)');
  process.exit(0);
}
const check = spawnSync(process.execPath, ['scripts/parity.mjs', '--check'], { stdio: 'inherit' });
console.error(`npm test: the suite and the parity check took ${Math.round((Date.now() - started) / 1000)} s on Node ${process.version} (budget: 420 s, docs/cli.md)`);
process.exit(check.status ?? 1);
