// The bytes of each file a command uploads, as a person approved them (issue 43 item 3): a
// preview (a dry run) records each file's sha256 as it reads it; the call that sends, given those
// digests, checks the bytes it has just read and is about to send, and refuses any other.
import { createHash } from 'node:crypto';
import { RefusedError } from '../errors.js';

export class FileDigests {
  /** Each file read so far, by its path as given: sha256, hex. */
  readonly seen: Record<string, string> = {};

  /** `expected`: the digests of the preview; absent, every file is recorded (the preview itself). */
  constructor(private readonly expected?: Readonly<Record<string, string>>) {}

  /** Called with the bytes about to be sent for `path`. */
  check(path: string, data: Uint8Array): void {
    const digest = createHash('sha256').update(data).digest('hex');
    if (this.expected !== undefined && this.expected[path] !== digest) {
      throw new RefusedError(`${path} is not the file that was previewed (its content changed): nothing was sent`, {
        code: 'FILE_CHANGED',
        suggestion: 'put back the file that was previewed, or make a new preview of the file as it is now',
      });
    }
    this.seen[path] = digest;
  }
}
