// How pgw creates a file (issue 31 item 8; docs/security.md, "Files pgw writes"). Whoever else can
// write to the directory (a shared /tmp, a 1777 CI directory) could plant a symbolic link where
// pgw is about to write, and have pgw write its credentials, pages or records wherever the link
// points, or read a file of theirs as pgw's own. So a file pgw writes is never opened by a name
// someone could have prepared:
//
// - written whole (ready file, 3-D Secure page): created at a random name beside the target with
//   O_CREAT|O_EXCL|O_NOFOLLOW (a link or anything else already there fails the open instead of
//   being followed), 0600, written, fsynced, then renamed over the target, which rename replaces
//   and never follows;
// - appended to (a results file): created at its own name with O_CREAT|O_EXCL|O_NOFOLLOW, so one
//   that exists, as a link (dangling or not) or otherwise, is refused by the open itself, with no
//   gap between a check and the open; an existing one (a resumed run) is opened with O_NOFOLLOW.
//
// A target that is a symbolic link is refused with the code open(2) gives for O_NOFOLLOW (ELOOP),
// so callers name one problem one way. Commands and the sandbox both use it: it imports nothing of theirs.
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nodeCrypto } from '../lazy-builtins.js'; // node:crypto only when a file is written (the sandbox opens on every look-up)

export const PRIVATE_MODE = 0o600;

// Windows has no O_NOFOLLOW (undefined there): the lstat checks below still refuse a link.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/** What open(2) answers for a link under O_NOFOLLOW: one code for "that is a link", whoever found it. */
function linkRefused(path: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${path} is a symbolic link`);
  err.code = 'ELOOP';
  err.path = path;
  return err;
}

/** Whether `path` itself is a symbolic link (dangling or not); a missing path is not. */
export function isSymlink(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}

/** What pgw says of a link where it would write. */
export const LINK_REFUSED = 'it is a symbolic link, and pgw never writes through one: name the file itself';

/** Words for a failed open or write, for a one-line error: the link case said plainly, else the errno code. */
export function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return LINK_REFUSED;
  if (code === 'EEXIST') return 'it already exists';
  return code ?? (err as Error).message;
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Put `data` at `path` whole (an existing regular file is replaced, and the result is 0600 even
 * under a umask like 0277). A link at `path` is refused (ELOOP) and nothing is written.
 */
export function writePrivateFile(path: string, data: string | Uint8Array): void {
  if (isSymlink(path)) throw linkRefused(path);
  // 96 random bits: nobody can plant a link at a name they cannot guess, and O_EXCL refuses one anyway.
  const tmp = join(dirname(path), `.${basename(path).slice(0, 64)}.${nodeCrypto().randomBytes(12).toString('hex')}.tmp`);
  const fd = openSync(tmp, CREATE_NEW, PRIVATE_MODE);
  try {
    try {
      fchmodSync(fd, PRIVATE_MODE); // the umask may have taken bits off the mode given to open
      writeAll(fd, data);
      fsyncSync(fd); // the rename must never publish a file whose bytes are not on disk yet
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Create `path` itself, for appending, and return its descriptor. Anything already there (a
 * regular file: EEXIST; a link, dangling or not: EEXIST or ELOOP) fails the open: nothing is
 * followed or overwritten. The directory is synced so the new name survives a power cut along
 * with the records synced into it.
 */
export function createPrivateFile(path: string): number {
  if (isSymlink(path)) throw linkRefused(path); // the same answer on every platform
  const fd = openSync(path, CREATE_NEW | constants.O_APPEND, PRIVATE_MODE);
  try {
    fchmodSync(fd, PRIVATE_MODE);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  syncDirectory(dirname(path));
  return fd;
}

/** Open an existing file (`flags` without O_CREAT), refusing a link at its name (ELOOP). */
export function openNoFollow(path: string, flags: number): number {
  if (isSymlink(path)) throw linkRefused(path);
  return openSync(path, flags | NOFOLLOW);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Not every platform can sync a directory (Windows): the file's own syncs still hold.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
