// Issue 23: the build merges chunks into the entry that always loads them first
// (scripts/merge-chunks.mjs). Merging must never make two files of dist/ import each other
// statically: ES modules in a cycle run one of them before what it imports is initialised.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ROOT } from '../helpers/spawn.js';

const DIST = join(ROOT, 'dist');

function distFiles(): string[] {
  return ['main.js', ...readdirSync(join(DIST, 'chunks')).map((f) => `chunks/${f}`)].sort();
}

/** Static imports of a built file (esbuild writes `import ... from "./x.js"` or `import "./x.js"`). */
function staticImports(file: string): string[] {
  const text = readFileSync(join(DIST, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"|^import\s*"(\.{1,2}\/[^"]+)"/gm)) {
    out.push(posix.normalize(posix.join(posix.dirname(file), m[1] ?? m[2]!)));
  }
  return out;
}

/** `import("./x.js")` of a built file. */
function dynamicImports(file: string): string[] {
  const text = readFileSync(join(DIST, file), 'utf8');
  return [...text.matchAll(/\bimport\("(\.{1,2}\/[^"]+)"\)/g)].map((m) => posix.normalize(posix.join(posix.dirname(file), m[1]!)));
}

describe('dist/ after the merge', () => {
  it('every import, static or import(), names a file that exists (a merged chunk moved from chunks/ to dist/)', () => {
    const files = new Set(distFiles());
    const missing = distFiles().flatMap((f) => [...staticImports(f), ...dynamicImports(f)].filter((i) => !files.has(i)).map((i) => `${f} -> ${i}`));
    expect(missing).toEqual([]);
    expect(dynamicImports('main.js').length).toBeGreaterThan(0);
  });

  it('has no static import cycle', () => {
    const graph = new Map(distFiles().map((f) => [f, staticImports(f)]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const d of graph.get(f) ?? []) visit(d, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('the check has teeth: it reads the imports esbuild writes', () => {
    expect(staticImports('main.js').length + distFiles().filter((f) => staticImports(f).length > 0).length).toBeGreaterThan(0);
  });
});
