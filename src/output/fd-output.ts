// Standard output written with fs.writeSync when it is a file, a pipe, a socket or /dev/null, instead of
// through process.stdout. Two reasons:
// - Creating process.stdout for a pipe builds a net.Socket, loading net and the stream machinery:
//   ~4 ms of a ~70 ms start, paid by every command whose output is piped (issue 7). Node writes to
//   files, and on Linux to pipes, synchronously anyway.
// - A reader that goes away (`pgw ... | head`) made process.stdout emit an unhandled EPIPE: a
//   stack trace. Here the rest of the output is dropped quietly; the command's exit code stands.
// A terminal (or anything else) keeps process.stdout: that is where columns and colours live.
import { fstatSync, statSync, writeSync } from 'node:fs';
import { sleepSync } from '../sleep-sync.js';

/** What pgw writes its data to: text, written whole and in order. */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  /** The reader went away (EPIPE): nothing written from now on reaches anyone. */
  readonly readerGone?: boolean;
}

/** A full non-blocking pipe: wait this long before trying again. */
const RETRY_MS = 1;

/**
 * True when `fd` is a file, a pipe, a socket or the null device (`> /dev/null`): never a terminal,
 * known without loading tty. Any other character device may be a terminal: process.stdout decides.
 */
export function isPlainFd(fd: number): boolean {
  try {
    const kind = fstatSync(fd);
    return kind.isFIFO() || kind.isFile() || kind.isSocket() || (kind.isCharacterDevice() && isNullDevice(kind.rdev));
  } catch {
    return false;
  }
}

/** The null device's device number, where there is one (not on Windows). */
function isNullDevice(rdev: number): boolean {
  try {
    return statSync('/dev/null').rdev === rdev;
  } catch {
    return false;
  }
}

/** A sink on `fd` when it is a file, a pipe or a socket; undefined otherwise (or if fd is not open). */
export function fdOutput(fd: number): TextSink | undefined {
  if (!isPlainFd(fd)) return undefined;
  let readerGone = false;
  return {
    get readerGone() {
      return readerGone;
    },
    write(text: string): boolean {
      if (readerGone || text === '') return !readerGone;
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      while (done < bytes.length) {
        try {
          done += writeSync(fd, bytes, done, bytes.length - done);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN') {
            sleepSync(RETRY_MS);
            continue;
          }
          if (code === 'EPIPE') {
            readerGone = true;
            return false;
          }
          throw err;
        }
      }
      return true;
    },
  };
}
