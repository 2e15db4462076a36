// JSON objects from a file or piped stdin (--file, --card-file). Error messages name the source and
// the position, never a piece of the content: a card file's digits must not reach stderr.
import { readFile } from 'node:fs/promises';
import type { InStream } from '../../output/io.js';
import { UsageError } from '../../errors.js';
import { jsonReason } from '../../api/json-reason.js';

export type JsonObject = Record<string, unknown>;

async function readAll(stream: InStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function fileReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return code ?? 'cannot be read';
}

/** `-` reads stdin; anything else is a path. The result must be a JSON object. */
export async function readJsonObject(flag: string, source: string, stdin: InStream): Promise<JsonObject> {
  const name = source === '-' ? 'stdin' : `"${source}"`;
  let text: string;
  if (source === '-') {
    text = await readAll(stdin);
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (err) {
      throw new UsageError(`${flag}: cannot read ${name}: ${fileReason(err)}`);
    }
  }
  if (text.trim() === '') throw new UsageError(`${flag}: ${name} is empty`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (err) {
    // jsonReason keeps no piece of the input: a card file must not be echoed back.
    throw new UsageError(`${flag}: ${name} is not valid JSON: ${jsonReason((err as Error).message, text)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`${flag}: ${name} must hold a JSON object`);
  }
  return parsed as JsonObject;
}
