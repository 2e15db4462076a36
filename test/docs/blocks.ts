// Every fenced block of README.md and docs/*.md, with the marker written right before it (issue 32,
// "the docs are tests"). A marker is an HTML comment, so readers of the rendered page never see it:
//
//   <!-- docs-test: skip — <reason> -->              cannot run here; counted, and the reason shown
//   <!-- docs-test: covered-by <test file> — <why> -->  run by that test (which must exist and read it)
//   <!-- docs-test: fixture <name> -->               run with the set-up of that name in docs.test.ts
//
// A shell block without a marker simply runs; any other block without one fails the test, so a
// new example is run or says why not.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Marker =
  | { kind: 'run' }
  | { kind: 'skip'; reason: string }
  | { kind: 'covered-by'; file: string; reason: string }
  | { kind: 'fixture'; name: string }
  | { kind: 'invalid'; text: string };

export interface Block {
  file: string; // relative to the checkout, e.g. docs/sandbox.md
  line: number; // 1-based line of the opening fence
  lang: string; // the fence's info string, '' when none
  heading: string; // the nearest heading above it
  text: string;
  marker: Marker;
}

export const DOC_FILES = (root: string): string[] => [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

export const SHELL = new Set(['sh', 'bash', 'shell', 'console']);

export function parseMarker(comment: string | undefined): Marker {
  if (comment === undefined) return { kind: 'run' };
  const body = comment.replace(/^<!--\s*docs-test:\s*/, '').replace(/\s*-->$/, '').trim();
  let m = /^skip\s+[—-]+\s+(\S.*)$/.exec(body);
  if (m) return { kind: 'skip', reason: m[1]! };
  m = /^covered-by\s+(\S+)\s+[—-]+\s+(\S.*)$/.exec(body);
  if (m) return { kind: 'covered-by', file: m[1]!, reason: m[2]! };
  m = /^fixture\s+([\w-]+)$/.exec(body);
  if (m) return { kind: 'fixture', name: m[1]! };
  return { kind: 'invalid', text: comment };
}

export function extractBlocks(file: string, source: string): Block[] {
  const lines = source.split('\n');
  const blocks: Block[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) heading = h[1]!.trim();
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (!open) continue;
    const fence = open[1]!;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(fence) && l.slice(fence.length).trim() === '');
    if (end < 0) throw new Error(`${file}:${i + 1}: a fence that is never closed`);
    // The marker is the last non-blank line before the fence, when it is a docs-test comment.
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const before = k >= 0 && /^<!--\s*docs-test:/.test(lines[k]!.trim()) ? lines[k]!.trim() : undefined;
    blocks.push({ file, line: i + 1, lang: open[2]!, heading, text: lines.slice(i + 1, end).join('\n') + '\n', marker: parseMarker(before) });
    i = end;
  }
  return blocks;
}

export function allBlocks(root: string): Block[] {
  return DOC_FILES(root).flatMap((f) => extractBlocks(f, readFileSync(join(root, f), 'utf8')));
}
