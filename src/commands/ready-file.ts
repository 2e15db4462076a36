// --ready-file <path> (issue 24): `sandbox serve` and `pgw listen` write one JSON line there once
// they are ready, for CI steps and `docker compose` health checks (stripe-cli #760: "how to tell
// that listen is ready"), with no fixed sleeps. The file appears whole or not at all, is
// owner-only, and is removed when the process stops cleanly, so a stale file never announces a
// server that is gone. It holds the sandbox's demo credentials, and its directory is often shared
// (/tmp): it is written the way of src/files/private-file.ts, never through a link (issue 31 item 8).
import { lstatSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { LINK_REFUSED, fileProblem, writePrivateFile } from '../files/private-file.js';

/** Refuse a path that cannot be written before anything starts (exit 2). */
export function readyFileOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError('--ready-file: give a file path');
  const path = resolve(value);
  const dir = statSync(dirname(path), { throwIfNoEntry: false });
  if (!dir?.isDirectory()) throw new UsageError(`--ready-file: the directory ${dirname(path)} does not exist`);
  const there = lstatSync(path, { throwIfNoEntry: false });
  if (there?.isSymbolicLink()) throw new UsageError(`--ready-file: cannot write ${path}: ${LINK_REFUSED}`);
  if (there?.isDirectory()) throw new UsageError(`--ready-file: ${path} is a directory`);
  return path;
}

/** Write `data` as one JSON line at `path` (through the run's output guard), and remove it at the end of the run. */
export function writeReadyFile(ctx: Context, path: string, data: unknown): void {
  try {
    writePrivateFile(path, ctx.guard.text(`${JSON.stringify(data)}\n`));
  } catch (err) {
    // A link planted since the flag was checked, a full disk: one line, and the server stops.
    throw new UsageError(`--ready-file: cannot write ${path}: ${fileProblem(err)}`);
  }
  ctx.onCleanup(() => rmSync(path, { force: true }));
}
