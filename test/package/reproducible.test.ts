// Issue 23: the same commit built in two folders gives the same bytes, and no chunk names the
// folder it was built in (a published package must not carry the building machine's paths).
// Each build runs in its own copy of the project (node_modules hard-linked, so the copies are
// real folders: esbuild resolves symlinks, which would hide a folder's name behind its target).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/spawn.js';

/** Hard links where the file system allows them (fast), copies elsewhere; symlinks kept as such. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory()) linkTree(src, dst);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else {
      try {
        linkSync(src, dst);
      } catch {
        copyFileSync(src, dst);
      }
    }
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

let tmp: string;
const builds: string[] = [];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pgw-repro-'));
  // Two folders of different names and depths.
  for (const name of ['first', join('second-build', 'elsewhere')]) {
    const copy = join(tmp, name);
    mkdirSync(copy, { recursive: true });
    for (const part of ['src', 'scripts']) cpSync(join(ROOT, part), join(copy, part), { recursive: true });
    for (const file of ['package.json', 'tsconfig.json']) copyFileSync(join(ROOT, file), join(copy, file));
    linkTree(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build in ${copy} failed: ${r.stderr}`);
    builds.push(copy);
  }
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the build', () => {
  it('gives the same files, byte for byte, in two different folders', () => {
    const [a, b] = builds as [string, string];
    const files = filesUnder(join(a, 'dist'));
    expect(files.length).toBeGreaterThan(1);
    expect(filesUnder(join(b, 'dist'))).toEqual(files);
    const differing = files.filter((f) => !readFileSync(join(a, 'dist', f)).equals(readFileSync(join(b, 'dist', f))));
    expect(differing).toEqual([]);
    // The bundled packages' licences (scripts/notices.mjs), shipped beside dist/.
    expect(readFileSync(join(a, 'THIRD_PARTY_NOTICES')).equals(readFileSync(join(b, 'THIRD_PARTY_NOTICES')))).toBe(true);
  });

  it('names no folder of the building machine in dist/', () => {
    for (const copy of builds) {
      const named = filesUnder(join(copy, 'dist')).filter((f) => readFileSync(join(copy, 'dist', f), 'utf8').includes(tmp));
      expect(named).toEqual([]);
      expect(readFileSync(join(copy, 'THIRD_PARTY_NOTICES'), 'utf8')).not.toContain(tmp);
    }
  });

  it('puts only the bundle in dist/ (esbuild\'s metafile, read by tests only, goes to build/)', () => {
    for (const copy of builds) {
      expect(filesUnder(join(copy, 'dist')).filter((f) => !f.endsWith('.js'))).toEqual([]);
      expect(lstatSync(join(copy, 'build', 'meta.json')).isFile()).toBe(true);
    }
  });
});
