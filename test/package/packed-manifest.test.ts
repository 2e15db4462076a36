// Issue 44 item 4 through npm itself: `npm pack` builds dist/ first (prepack), the tarball's
// package.json carries no script and names the Node 20 carrier by its published range, and the
// checkout's package.json is back byte for byte afterwards. In a copy of the checkout's manifest
// and scripts, with a build that only writes a marker (the real build is what `npm test` runs
// first; here it would double this test's time for nothing npm does differently).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/spawn.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgw-packed-manifest-'));
  for (const d of ['scripts', 'bin', 'packages/sqlite-node20']) mkdirSync(join(dir, d), { recursive: true });
  for (const f of ['package.json', 'README.md', 'LICENSE', 'scripts/packed-manifest.mjs', 'bin/pgw.js', 'packages/sqlite-node20/package.json']) copyFileSync(join(ROOT, f), join(dir, f));
  // The build, as npm runs it: dist/ made before the tarball is.
  writeFileSync(join(dir, 'scripts/build.mjs'), "import { mkdirSync, writeFileSync } from 'node:fs';\nmkdirSync('dist', { recursive: true });\nwriteFileSync('dist/main.js', '// built by prepack\\n');\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const npm = (args: string[]) => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
  return spawnSync('npm', args, { cwd: dir, encoding: 'utf8', env: { ...env, npm_config_update_notifier: 'false' } });
};

it('npm pack: dist/ built first, no script in the packed package.json, the checkout\'s package.json put back', () => {
  const before = readFileSync(join(dir, 'package.json'), 'utf8');
  const r = npm(['pack', '--pack-destination', dir, '--silent']);
  expect(r.status, r.stderr).toBe(0);
  const tgz = join(dir, r.stdout.trim());
  const x = spawnSync('tar', ['xzf', tgz, '-C', dir, 'package/package.json', 'package/dist/main.js'], { encoding: 'utf8' });
  expect(x.status, x.stderr).toBe(0);
  const packed = JSON.parse(readFileSync(join(dir, 'package/package.json'), 'utf8'));
  expect(packed.scripts).toBeUndefined();
  expect(packed.allowScripts).toBeUndefined();
  expect(packed.optionalDependencies).toEqual({ '@pgw-cli/sqlite-node20': '^1.0.0' });
  expect(packed.bin).toEqual({ pgw: 'bin/pgw.js' });
  expect(readFileSync(join(dir, 'package/dist/main.js'), 'utf8')).toBe('// built by prepack\n');
  expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
  expect(existsSync(join(dir, 'build/package.json.checkout'))).toBe(false);
}, 60_000);

it('a pack killed between prepack and postpack: `restore` puts the checkout\'s package.json back; a stale copy never overwrites it', () => {
  const before = readFileSync(join(dir, 'package.json'), 'utf8');
  const write = () => spawnSync(process.execPath, ['scripts/packed-manifest.mjs', 'write'], { cwd: dir, encoding: 'utf8' });
  expect(write().status).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts).toBeUndefined(); // as if killed here
  const restored = spawnSync(process.execPath, ['scripts/packed-manifest.mjs', 'restore'], { cwd: dir, encoding: 'utf8' });
  expect(restored.status, restored.stderr).toBe(0);
  expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
  // Killed again, and this time package.json restored by other means (git), then changed: the
  // copy in build/ is stale, and the next pack drops it rather than copying it back.
  expect(write().status).toBe(0);
  const changed = before.replace('"version": "0.1.0"', '"version": "0.1.1"');
  writeFileSync(join(dir, 'package.json'), changed);
  const r = npm(['pack', '--pack-destination', dir, '--silent']);
  expect(r.status, r.stderr).toBe(0);
  expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(changed);
  writeFileSync(join(dir, 'package.json'), before);
}, 60_000);

it('npm publish from the folder is refused (it would send the checkout\'s manifest): publish the packed tarball', () => {
  const r = npm(['publish', '--dry-run']);
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('Publish the packed tarball instead: npm pack, then npm publish ./pgw-cli-<version>.tgz');
}, 60_000);
