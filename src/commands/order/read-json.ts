// JSON objects from a file or piped stdin (--file, --card-file). Error messages name the source and
// the position, never a piece of the content: a card file's digits must not reach stderr.
import type { InStream } from '../../output/io.js';
import { UsageError } from '../../errors.js';
import { jsonReason, parseJsonText } from '../../safety/json-reason.js';
import { readPath, readStdin } from '../source.js';

export type JsonObject = Record<string, unknown>;



/** `-` reads stdin; anything else is a path. The result must be a JSON object. */
export async function readJsonObject(flag: string, source: string, stdin: InStream): Promise<JsonObject> {
  const name = source === '-' ? 'stdin' : `"${source}"`;
  const text = source === '-' ? await readStdin(stdin) : await readPath(flag, source, name);
  if (text.trim() === '') throw new UsageError(`${flag}: ${name} is empty`);
  let parsed: unknown;
  try {
    parsed = parseJsonText(text);
  } catch (err) {
    // jsonReason keeps no piece of the input: a card file must not be echoed back.
    throw new UsageError(`${flag}: ${name} is not valid JSON: ${jsonReason((err as Error).message, text)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`${flag}: ${name} must hold a JSON object`);
  }
  return parsed as JsonObject;
}
