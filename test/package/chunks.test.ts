// Issue 23: the build merges chunks into the entry that always loads them first
// (scripts/merge-chunks.mjs). Merging must never make two files of dist/ import each other
// statically: ES modules in a cycle run one of them before what it imports is initialised.
import { beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ROOT } from '../helpers/spawn.js';

const DIST = join(ROOT, 'dist');

function distFiles(): string[] {
  return ['main.js', ...readdirSync(join(DIST, 'chunks')).map((f) => `chunks/${f}`)].sort();
}

/**
 * Every import of every built file, read by esbuild's own parser (the files are minified: one
 * line each), with its kind: a static `import`/`export ... from`, or an `import()`.
 */
const importsByFile = new Map<string, { path: string; kind: string }[]>();
beforeAll(async () => {
  const files = distFiles();
  const result = await build({
    entryPoints: files.map((f) => join(DIST, f)),
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    outdir: join(DIST, '.imports-probe'),
    logLevel: 'silent',
    // Only the files themselves: every import they make is left where it points.
    plugins: [{ name: 'imports-only', setup: (b) => b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path, external: true })) }],
  });
  for (const f of files) {
    const input = result.metafile.inputs[posix.join('dist', f)] ?? result.metafile.inputs[join(DIST, f)];
    importsByFile.set(f, (input?.imports ?? []).filter((i) => i.path.startsWith('.')).map((i) => ({ path: posix.normalize(posix.join(posix.dirname(f), i.path)), kind: i.kind })));
  }
});

/** Static imports of a built file (`import ... from "./x.js"`, `import "./x.js"`, `export ... from`). */
function staticImports(file: string): string[] {
  return (importsByFile.get(file) ?? []).filter((i) => i.kind === 'import-statement').map((i) => i.path);
}

/** `import("./x.js")` of a built file. */
function dynamicImports(file: string): string[] {
  return (importsByFile.get(file) ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
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

  it('every name a file imports from another is exported there (esbuild bundles dist/ whole, import() targets too)', async () => {
    // A group exports only what files outside it take (merge-chunks.mjs, neededFrom): a name left
    // out would otherwise fail only when its importer loads. esbuild refuses a missing export.
    const result = await build({
      entryPoints: [join(DIST, 'main.js')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      outdir: join(DIST, '.exports-probe'),
      external: ['better-sqlite3'],
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles.length).toBeGreaterThan(0);
  });

  it.each([
    [['src/sandbox/open.ts', 'src/sandbox/store.ts', 'src/sandbox/db.ts']],
    [['src/program.ts', 'src/api/client.ts']],
  ])('%j are one file (build.mjs, together)', (sources) => {
    const meta = JSON.parse(readFileSync(join(ROOT, 'build/meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    const holding = (src: string) => Object.keys(meta.outputs).filter((f) => Object.hasOwn(meta.outputs[f]!.inputs, src));
    const files = sources.map(holding);
    expect(files[0]).toHaveLength(1);
    expect(files).toEqual(sources.map(() => files[0]));
  });

  it('the check has teeth: it reads the imports esbuild writes', () => {
    expect(staticImports('main.js').length + distFiles().filter((f) => staticImports(f).length > 0).length).toBeGreaterThan(0);
  });
});
