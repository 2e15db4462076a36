// Issue 23: dist/ bundles other people's packages and keeps none of their legal comments, so the
// package ships THIRD_PARTY_NOTICES (scripts/notices.mjs): every package whose code esbuild put
// into dist/ (build/meta.json), with its licence text, and no package that is not in dist/.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/spawn.js';

const notices = readFileSync(join(ROOT, 'THIRD_PARTY_NOTICES'), 'utf8');
const meta = JSON.parse(readFileSync(join(ROOT, 'build/meta.json'), 'utf8')) as {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
};

/** name@version of every package folder with at least one byte in dist/, read from the metafile. */
function bundled(): Map<string, string> {
  const out = new Map<string, string>();
  for (const output of Object.values(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (!m || bytesInOutput === 0 || input.startsWith('pgw-')) continue;
      const dir = m[0].slice(0, -1); // the innermost node_modules/<name>
      const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { name: string; version: string };
      out.set(`${manifest.name} ${manifest.version}`, dir);
    }
  }
  return out;
}

/** The packages the notices list, from their section headings. */
function listed(): string[] {
  return [...notices.matchAll(/^={80}\n(.+)\n/gm)].map((m) => m[1]!);
}

describe('THIRD_PARTY_NOTICES', () => {
  it('names every bundled package with the licence text it ships', () => {
    const packages = bundled();
    expect(packages.size).toBeGreaterThan(10);
    for (const name of ['commander', 'chalk', 'zod', 'undici', 'cli-table3', 'conf', 'decimal.js', '@inquirer/core', 'qrcode', '@jmespath-community/jmespath']) {
      expect([...packages.keys()].some((p) => p.startsWith(`${name} `)), name).toBe(true);
    }
    for (const [name, dir] of packages) {
      const section = notices.split(`${'='.repeat(80)}\n${name}\n`)[1]?.split(`\n${'='.repeat(80)}\n`)[0];
      expect(section, name).toBeDefined();
      const licence = readdirSync(join(ROOT, dir)).find((f) => /^licen[cs]e/i.test(f));
      expect(licence, `${dir} ships a licence file`).toBeDefined();
      const text = readFileSync(join(ROOT, dir, licence!), 'utf8').replace(/\r\n?/g, '\n').trim();
      expect(section!.includes(text), `${name}: ${licence}`).toBe(true);
    }
  });

  it('lists nothing that is not in dist/ (build tools, better-sqlite3), each package once', () => {
    const names = listed();
    expect([...names].sort()).toEqual([...bundled().keys()].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const tool of ['esbuild', 'vitest', 'typescript', 'better-sqlite3', 'fast-check']) expect(names.some((n) => n.startsWith(`${tool} `)), tool).toBe(false);
  });

  it('is sorted and names no folder of the building machine', () => {
    const names = listed();
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(notices).not.toContain(ROOT);
    expect(notices).toMatch(/^Third-party notices for pgw-cli \d+\.\d+\.\d+\n/);
  });
});
