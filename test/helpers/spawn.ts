// Runs the built CLI (bin/pgw.js → dist/) as a real process: exit codes and the stdout/stderr split.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/pgw.js', import.meta.url));

export interface SpawnResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function spawnPgw(
  args: string[],
  opts: { env?: Record<string, string | undefined>; input?: string; nodeArgs?: string[]; timeoutMs?: number } = {},
): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...opts.env };
    // Never inherit the developer's own profile or credentials.
    for (const key of Object.keys(env)) if ((key.startsWith('PGW_') && !key.startsWith('PGW_PARITY_')) && !(opts.env && key in opts.env)) delete env[key];
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], { env, cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    // A command that never reads its input may exit before it is written: the pipe's EPIPE is not
    // the test's failure (unhandled, vitest would fail the whole run with it).
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.stdin.end(opts.input ?? '');
  });
}
