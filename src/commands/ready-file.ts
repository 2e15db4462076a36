// --ready-file <path> (issue 24): `sandbox serve` and `pgw listen` write one JSON line there once
// they are ready, for CI steps and `docker compose` health checks (stripe-cli #760: "how to tell
// that listen is ready"), with no fixed sleeps. The file appears whole or not at all (written
// beside it, then renamed), is owner-only, and is removed when the process stops cleanly, so a
// stale file never announces a server that is gone.
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** Refuse a path that cannot be written before anything starts (exit 2). */
export function readyFileOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError('--ready-file: give a file path');
  const path = resolve(value);
  const dir = statSync(dirname(path), { throwIfNoEntry: false });
  if (!dir?.isDirectory()) throw new UsageError(`--ready-file: the directory ${dirname(path)} does not exist`);
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--ready-file: ${path} is a directory`);
  return path;
}

/** Write `data` as one JSON line at `path` (through the run's output guard), and remove it at the end of the run. */
export function writeReadyFile(ctx: Context, path: string, data: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, ctx.guard.text(`${JSON.stringify(data)}\n`), { mode: 0o600 });
  renameSync(tmp, path);
  ctx.onCleanup(() => rmSync(path, { force: true }));
}
