// Runs the CLI in-process with captured streams: the seam every command test uses.
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/main.js';
import type { ContextDeps, Env } from '../../src/context.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions extends Omit<ContextDeps, 'stdin' | 'stdout' | 'stderr' | 'env'> {
  env?: Env;
  /** Text fed to stdin (then closed). */
  input?: string;
  /** Pretend stdin/stdout/stderr are terminals. */
  tty?: boolean;
  /** The terminal's width when tty (default 100). */
  columns?: number;
}

class CapturingStream extends PassThrough {
  isTTY?: boolean;
  columns = 100;
  text = '';
  constructor(tty: boolean) {
    super();
    if (tty) this.isTTY = true;
    this.on('data', (chunk: Buffer) => {
      this.text += chunk.toString('utf8');
    });
  }
}

export async function runCli(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const { input, tty = false, env = {}, columns, ...deps } = opts;
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (tty) stdin.isTTY = true;
  if (input !== undefined) stdin.end(input);
  else if (!tty) stdin.end();
  const stdout = new CapturingStream(tty);
  const stderr = new CapturingStream(tty);
  if (columns !== undefined) stdout.columns = stderr.columns = columns;
  // Without `columns`, a terminal's stderr never folds a message (io.ts folds error and hint lines
  // at its width): a test of a command reads each message whole. Folding is tested with `columns`,
  // and through tmux (test/e2e/messages-80.test.ts).
  else stderr.columns = 10_000;
  const code = await run(argv, { ...deps, env, stdin, stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** A fresh config directory, removed by the returned cleanup. */
export function tempConfigDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
