// Reading what the user points a flag at: `-` for stdin, or a path. An unreadable path is one
// clear line naming the flag and the file (exit 2), never the errno dump.
// node:fs's callback readFile, not node:fs/promises: node:fs is loaded at every start anyway, and
// node:fs/promises is ~3 ms more for every command that merely might read a file (issue 23).
import { readFile } from 'node:fs';
import { UsageError } from '../errors.js';

export async function readStdin(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function unreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return code ?? 'cannot be read';
}

/** The file's text; `name` is how messages show it (quoted or not, as the verb prefers). */
export async function readPath(flag: string, path: string, name: string = path): Promise<string> {
  try {
    return await new Promise<string>((resolve, reject) => readFile(path, 'utf8', (err, text) => (err ? reject(err) : resolve(text))));
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${name}: ${unreadable(err)}`);
  }
}
