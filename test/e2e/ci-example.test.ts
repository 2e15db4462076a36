// The worked CI example of docs/sandbox.md (issue 24) runs as written: the shell script is taken
// from the document, its `npm test` line replaced by three order creates (two meet the injected
// 503s), and run with a `pgw` on PATH that is this build.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/spawn.js';

const hasJq = spawnSync('jq', ['--version']).status === 0;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-ci-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scriptFromDocs(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'sandbox.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A worked CI example'));
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('no shell script in "A worked CI example"');
  return m[1]!;
}

it.skipIf(!hasJq)('the shell script of "A worked CI example" runs: ready, seeded, faulted, restored, stopped', () => {
  const bin = join(dir, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  writeFileSync(join(bin, 'pgw'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'pgw'), 0o755);
  const orderFile = join(dir, 'order.json');
  writeFileSync(orderFile, execFileSync(process.execPath, [BIN, 'order', 'create', '--print-template'], { env: { ...process.env, PGW_CONFIG_DIR: dir } }));
  const script = scriptFromDocs();
  expect(script).toMatch(/^npm test/m);
  const test = `for i in 1 2 3; do pgw order create --file "${orderFile}" --reference-id "ci-$i" -o table >/dev/null 2>&1 || echo "create $i failed"; done`;
  writeFileSync(join(dir, 'ci.sh'), script.replace(/^npm test.*$/m, test));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k.startsWith('PGW_') && !k.startsWith('PGW_PARITY_'))));
  const r = spawnSync('sh', [join(dir, 'ci.sh')], { env: { ...clean, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' }, encoding: 'utf8', timeout: 90_000 });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stdout).toContain('create 1 failed');
  expect(r.stdout).toContain('create 2 failed');
  expect(r.stdout).not.toContain('create 3 failed');
  expect(r.stdout).toContain('true'); // jq -e '.[0].fired == 2'
}, 120_000);
