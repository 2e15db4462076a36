// The leak scan's coverage: the leaf commands of the real commander tree (so a command added
// later has no scenario and fails the scan until it gets one), which paths each must be driven
// through, and a runner for the one command that runs until stopped (`sandbox serve`).
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { Context } from '../../src/context.js';
import { buildProgram } from '../../src/program.js';
import { run } from '../../src/main.js';

export type Kind = 'success' | 'error' | 'gateway-error' | 'verbose' | 'dry-run';

export interface Leaf {
  /** "sandbox link create" */
  path: string;
  hasDryRun: boolean;
}

/** Commands that send nothing to a gateway: they are scanned on success and on a refusal. */
const OFFLINE = new Set(['settle calc', 'completion', 'help', '__complete', 'profile add', 'profile list', 'profile use', 'profile show', 'profile remove', 'sandbox serve', 'sandbox env', 'sandbox coverage']);

export function commandLeaves(): Leaf[] {
  const program = buildProgram(new Context({ env: {} }));
  const walk = (cmd: Command, prefix: string[]): Leaf[] =>
    cmd.commands.flatMap((sub) => {
      const path = [...prefix, sub.name()];
      if (sub.commands.length > 0) return walk(sub, path);
      return [{ path: path.join(' '), hasDryRun: sub.options.some((o) => o.long === '--dry-run') }];
    });
  return walk(program, []);
}

export function requiredKinds(leaf: Leaf): Kind[] {
  if (OFFLINE.has(leaf.path)) return leaf.path === 'sandbox serve' ? ['success', 'verbose', 'error'] : ['success', 'error'];
  return ['success', 'gateway-error', 'verbose', ...(leaf.hasDryRun ? (['dry-run'] as const) : [])];
}

let leavesCache: Leaf[] | undefined;

/** The leaf an argv runs: the longest command path its first words spell. */
export function leafOf(argv: string[]): string {
  leavesCache ??= commandLeaves();
  let best = '';
  for (const { path } of leavesCache) {
    const words = path.split(' ');
    if (words.every((w, i) => argv[i] === w) && path.length > best.length) best = path;
  }
  return best || argv.slice(0, 2).join(' ');
}

/** Run a long-running command in-process until it prints that it listens, then stop it as Ctrl-C would. */
export async function serveUntilListening(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = '';
  let err = '';
  const stop = new AbortController();
  stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (/listening on|"base_url"/.test(out)) stop.abort();
  });
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await run(argv, { env, stdin, stdout, stderr, signal: stop.signal });
  return { code, stdout: out, stderr: err };
}
