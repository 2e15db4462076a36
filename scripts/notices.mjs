// THIRD_PARTY_NOTICES: the licence of every package whose code esbuild put into dist/ (issue 23).
// The bundle keeps no legal comments (legalComments: 'none'), so the package carries the texts
// here instead. Built from esbuild's metafile, i.e. from what was actually bundled: a package
// whose every byte was tree-shaken away is not listed, and nothing that stays outside dist/
// (better-sqlite3, the build tools) is. Sorted, with paths from node_modules/ only: the same
// commit gives the same file in any folder.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const RULE = '='.repeat(80);
const THIN = '-'.repeat(80);
/** The files a package ships its licence (and any NOTICE) in: LICENSE, LICENCE.md, LICENSE-MIT.txt, license… */
const LICENCE_FILE = /^(licen[cs]e|copying|notice)([-._].*)?$/i;

/** Package folders (node_modules/…/name, innermost for nested ones) holding code that is in the bundle. */
export function bundledPackageDirs(metafile) {
  const dirs = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      // The build's own stand-ins (pgw-builtin:, pgw-http2:, pgw-stub:) name a package file but hold none of its code.
      if (!bytesInOutput || /^[a-z0-9-]+:/.test(input)) continue;
      const at = input.lastIndexOf('node_modules/');
      if (at === -1) continue;
      const [first, second] = input.slice(at + 'node_modules/'.length).split('/');
      dirs.add(`${input.slice(0, at)}node_modules/${first.startsWith('@') ? `${first}/${second}` : first}`);
    }
  }
  return [...dirs];
}

/** The notices file's text for a build's metafile; `root` is the project's folder. */
export function thirdPartyNotices(metafile, root, pkg) {
  const packages = bundledPackageDirs(metafile).map((dir) => describe(root, dir));
  packages.sort((a, b) => compare(a.name, b.name) || compare(a.version, b.version));
  const lines = [
    `Third-party notices for ${pkg.name} ${pkg.version}`,
    '',
    `${pkg.name} is licensed under the Apache License 2.0 (LICENSE). Its dist/ folder bundles the`,
    'open-source packages below, built from their npm releases; each is listed with its version,',
    'the licence its package.json declares and the licence text it ships. better-sqlite3, which',
    'pgw loads on Node 20 only, is not bundled: npm installs it as a package of its own.',
    '',
    ...packages.map((p) => `  ${p.name} ${p.version} (${p.license})`),
  ];
  for (const p of packages) {
    lines.push('', RULE, `${p.name} ${p.version}`, `License: ${p.license}`);
    if (p.repository) lines.push(`Source: ${p.repository}`);
    for (const file of p.files) lines.push(THIN, `${file.name}:`, '', file.text);
  }
  return `${lines.join('\n')}\n`;
}

function describe(root, dir) {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const files = readdirSync(join(root, dir))
    .filter((f) => LICENCE_FILE.test(f))
    .sort(compare)
    .map((name) => ({ name, text: readFileSync(join(root, dir, name), 'utf8').replace(/\r\n?/g, '\n').replace(/\s+$/, '') }));
  if (files.length === 0) throw new Error(`build: ${dir} is bundled but ships no licence file: add its licence to scripts/notices.mjs`);
  return { name: manifest.name, version: manifest.version, license: licenseOf(manifest), repository: repositoryOf(manifest), files };
}

function licenseOf(manifest) {
  const l = manifest.license ?? manifest.licenses;
  if (typeof l === 'string') return l;
  if (Array.isArray(l)) return l.map((x) => x.type ?? x).join(' OR ');
  return l?.type ?? 'see the licence text';
}

function repositoryOf(manifest) {
  const r = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  return r?.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** Code-unit order, the same on every machine (no locale). */
function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
