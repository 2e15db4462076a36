// Issue 23: what `npm install -g pgw-cli` installs. The packed file list and manifest (npm pack
// --dry-run, without its prepack build: the suite has built dist/ already), and the built pgw
// run from a folder that has no node_modules but better-sqlite3 (which only Node 20 loads): every
// library pgw uses must be inside dist/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { ROOT } from '../helpers/spawn.js';
// @ts-expect-error: a build script in plain JavaScript, without types
import { packedManifest } from '../../scripts/packed-manifest.mjs';

interface PackResult {
  files: { path: string }[];
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & {
  scripts: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  workspaces?: string[];
};
const carrierDir = join(ROOT, 'packages/sqlite-node20');
const carrier = JSON.parse(readFileSync(join(carrierDir, 'package.json'), 'utf8')) as Record<string, unknown> & {
  name: string;
  engines: { node: string };
  dependencies: Record<string, string>;
};

function packedFiles(cwd: string): string[] {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as PackResult[])[0]!.files.map((f) => f.path).sort();
}

describe('the published package', () => {
  it('holds bin/, dist/, completions/, README, LICENSE, THIRD_PARTY_NOTICES and package.json, and nothing else', () => {
    const files = packedFiles(ROOT);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'THIRD_PARTY_NOTICES', 'package.json', 'bin/pgw.js', 'dist/main.js']));
    expect(files.filter((f) => !/^(bin|dist|completions)\//.test(f) && !['LICENSE', 'README.md', 'THIRD_PARTY_NOTICES', 'package.json'].includes(f))).toEqual([]);
    // esbuild's metafile is read by tests only: not shipped.
    expect(files.filter((f) => f.startsWith('dist/') && !f.endsWith('.js'))).toEqual([]);
  });

  it('is Apache-2.0, public, and says where it comes from', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('Apache-2.0');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    for (const key of ['repository', 'homepage', 'bugs', 'keywords', 'description']) expect(manifest[key], key).toBeTruthy();
  });

  it('declares no runtime dependency but the Node-20-only SQLite carrier', () => {
    expect(manifest.dependencies).toBeUndefined();
    // Issue 44 item 3: in the checkout an optional file: dependency (npm skips it, and its
    // better-sqlite3, on Node 22+: a workspace is never optional); packed, its published range.
    expect(manifest.workspaces).toBeUndefined();
    expect(manifest.optionalDependencies).toEqual({ [carrier.name]: 'file:packages/sqlite-node20' });
    expect(packedManifest(manifest, carrier).optionalDependencies).toEqual({ [carrier.name]: `^${carrier.version as string}` });
    expect(carrier.dependencies).toEqual({ 'better-sqlite3': expect.any(String) });
    // npm skips an optional dependency whose engines do not match: Node 20 only.
    expect(carrier.engines).toEqual({ node: '^20.18.1' });
  });

  it('runs no script of its own at a user\'s install: the packed manifest has none; prepare builds a checkout, prepack builds before packing', () => {
    // Issue 44 item 4: npm names a tarball's `prepare` in its install-scripts advisory; the
    // packed manifest carries no script at all (scripts/packed-manifest.mjs).
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepublish']) expect(manifest.scripts[hook], hook).toBeUndefined();
    expect(manifest.scripts.prepare).toMatch(/scripts\/build\.mjs/);
    expect(manifest.scripts.prepack).toMatch(/^node scripts\/build\.mjs && node scripts\/packed-manifest\.mjs write$/);
    expect(manifest.scripts.postpack).toBe('node scripts/packed-manifest.mjs restore');
    const packed = packedManifest(manifest, carrier);
    expect(packed.scripts).toBeUndefined();
    expect(packed.allowScripts).toBeUndefined();
    const { scripts: _s, allowScripts: _a, optionalDependencies: _o, ...rest } = manifest;
    expect(packed).toEqual({ ...rest, optionalDependencies: expect.any(Object) });
  });

  it('has a README whose first block is the two commands from a checkout; the tarball and Node 20\'s package below; the contributors\' two kept', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd().split('\n'));
    // Issue 44 item 1: npm install, then npx pgw sandbox seed, and what to try next right after.
    expect(blocks[0]).toEqual(['npm install', 'npx pgw sandbox seed']);
    expect(blocks[1]!.every((l) => l.startsWith('npx pgw '))).toBe(true);
    expect(readme.indexOf('## Install')).toBeGreaterThan(readme.indexOf(blocks[1]!.join('\n')));
    // Issue 32: pgw-cli and its carrier are not published; the tarballs' names are npm pack's.
    const pgwTgz = `pgw-cli-${manifest.version as string}.tgz`;
    const carrierTgz = `${carrier.name.replace('@', '').replace('/', '-')}-${carrier.version as string}.tgz`;
    const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace(/\[0-9\]/g, '\\d').replace(/\*/g, '.*')}$`);
    const install = readme.slice(readme.indexOf('## Install'));
    expect(install).toMatch(/^## Install\n\nNot yet: `npm install -g pgw-cli`/);
    const tarball = blocks.find((b) => b.includes('npm install -g ./pgw-cli-[0-9]*.tgz'));
    expect(tarball).toEqual(['npm install && npm pack', 'npm install -g ./pgw-cli-[0-9]*.tgz', 'pgw sandbox seed']);
    expect(glob('pgw-cli-[0-9]*.tgz').test(pgwTgz) && !glob('pgw-cli-[0-9]*.tgz').test(carrierTgz)).toBe(true);
    // Node 20's line packs the carrier and names both tarballs.
    const node20 = blocks.find((b) => b.includes('npm pack ./packages/sqlite-node20'));
    expect(node20).toContain('npm install -g ./pgw-cli-[0-9]*.tgz ./pgw-cli-sqlite-node20-*.tgz');
    expect(glob('pgw-cli-sqlite-node20-*.tgz').test(carrierTgz)).toBe(true);
    // A docs-test marker (test/docs/blocks.ts) may stand between the heading and the block.
    const contributors = /## Working on pgw\n\n(?:<!-- docs-test:[^\n]*-->\n\n)?```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.trimEnd().split('\n') ?? [];
    expect(contributors).toEqual(['npm install', 'npm test']);
  });

  it('npm ci from the lockfile installs better-sqlite3 on Node 20 only (issue 44 item 3): this Node\'s answer', () => {
    // A copy of what npm reads (manifest, lockfile, the carrier), asked what `npm ci` would add:
    // nothing is fetched (--dry-run --offline), and npm ci refuses a lockfile out of step.
    const dir = mkdtempSync(join(tmpdir(), 'pgw-ci-dry-'));
    try {
      mkdirSync(join(dir, 'packages/sqlite-node20'), { recursive: true });
      for (const f of ['package.json', 'package-lock.json', 'packages/sqlite-node20/package.json']) cpSync(join(ROOT, f), join(dir, f));
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
      const r = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` },
      });
      expect(r.status, r.stderr).toBe(0);
      const added = r.stdout.split('\n').filter((l) => l.startsWith('add ')).map((l) => l.split(' ')[1]);
      const node20 = Number(process.versions.node.split('.')[0]) < 22;
      expect(added.includes('better-sqlite3'), `Node ${process.version}`).toBe(node20);
      expect(added.includes('@pgw-cli/sqlite-node20')).toBe(node20);
      expect(added).toContain('esbuild');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('the carrier packs only its manifest, README and LICENSE', () => {
    expect(packedFiles(carrierDir)).toEqual(['LICENSE', 'README.md', 'package.json']);
  });
});

describe('the built pgw without node_modules', () => {
  let dir: string;
  let config: string;
  const pgw = (args: string[]) => {
    const env: Record<string, string | undefined> = { ...process.env, PGW_CONFIG_DIR: config, NO_COLOR: '1', COLUMNS: '80' };
    for (const key of Object.keys(env)) if ((key.startsWith('PGW_') && !key.startsWith('PGW_PARITY_')) && key !== 'PGW_CONFIG_DIR') delete env[key];
    return spawnSync(process.execPath, [join(dir, 'bin/pgw.js'), ...args], { cwd: dir, env, encoding: 'utf8' });
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pgw-no-modules-'));
    config = join(dir, 'config');
    for (const part of ['bin', 'dist']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'pgw-cli', type: 'module' }));
    // better-sqlite3 alone, for Node 20 (its own dependencies resolve from where it really is).
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'node_modules/better-sqlite3'), join(dir, 'node_modules/better-sqlite3'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds the embedded sandbox and draws tables (cli-table3 is bundled, not required from node_modules)', () => {
    const seed = pgw(['sandbox', 'seed', '--json']);
    expect(seed.stderr).toBe('');
    expect(seed.status).toBe(0);
    const id = /"(PR\d{10})"/.exec(seed.stdout)?.[1];
    expect(id).toBeDefined();
    const get = pgw(['payment', 'get', id!, '-o', 'table']);
    expect(get.stderr).toBe('');
    expect(get.status).toBe(0);
    expect(get.stdout).toContain(id);
    const calc = pgw(['settle', 'calc', '--payment', '1000.00', '--refund', '100.00', '-o', 'table']);
    expect(calc.status).toBe(0);
    expect(calc.stdout).toMatch(/[┌+]/);
  });
});
