// The import graph of src/, read from the source text: every static import and export-from, every
// dynamic import() and require() with a literal relative path, type-only imports included (a type
// pulled upward ties the layers together as much as a value does).
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return walk(full);
    return /\.(ts|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

const SPECIFIER = [
  /\bimport\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g, // import x from '...'; import type {...} from '...'
  /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s*)?from\s*['"]([^'"]+)['"]/g, // export ... from '...'
  /\bimport\s*['"]([^'"]+)['"]/g, // import '...'
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // import('...')
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // require('...')
];

/** Comments removed, so that an example in a comment is not read as an import. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Files of src/ as paths relative to src/ with forward slashes ('api/client.ts'). */
export interface ImportGraph {
  files: string[];
  edges: Map<string, string[]>;
}

export function importGraph(): ImportGraph {
  const files = walk(SRC);
  const known = new Set(files.map((f) => relative(SRC, f).split('\\').join('/')));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const from = relative(SRC, file).split('\\').join('/');
    const targets = new Set<string>();
    const text = code(readFileSync(file, 'utf8'));
    for (const pattern of SPECIFIER) {
      for (const m of text.matchAll(pattern)) {
        const spec = m[1]!;
        if (!spec.startsWith('.')) continue; // a package or node: built-in
        const target = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '.ts');
        const found = [target, target.replace(/\.ts$/, '') + '.ts', `${target.replace(/\.ts$/, '')}/index.ts`].find((t) => known.has(t));
        targets.add(found ?? target);
      }
    }
    edges.set(from, [...targets].sort());
  }
  return { files: [...known].sort(), edges };
}

/** Every import circle, each named once by the files on it (Tarjan's strongly connected components). */
export function importCircles(graph: ImportGraph): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.edges.get(v) ?? []) {
      if (!graph.edges.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.edges.get(v) ?? []).includes(v)) out.push(part.sort());
    }
  };
  for (const f of graph.files) if (!idx.has(f)) visit(f);
  return out;
}
