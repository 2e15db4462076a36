// npm test: the whole suite with the parity trace on (src/sandbox/parity-trace.ts), then the
// parity check (scripts/parity.mjs --check). Arguments go to vitest; a run of some files only
// (`npm test -- test/e2e`) skips the check, whose report needs every test's trace.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const TRACE = '.parity/trace.jsonl';
const args = process.argv.slice(2);
rmSync(TRACE, { force: true });
mkdirSync('.parity', { recursive: true });

const env = { ...process.env, PGW_PARITY_TRACE: resolve(TRACE) };
const vitest = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args], { stdio: 'inherit', env });
if (vitest.status !== 0) process.exit(vitest.status ?? 1);
if (args.some((a) => !a.startsWith('-'))) {
  console.error('parity: some test files only: the parity check needs the whole suite (npm test)');
  process.exit(0);
}
const check = spawnSync(process.execPath, ['scripts/parity.mjs', '--check'], { stdio: 'inherit' });
process.exit(check.status ?? 1);
